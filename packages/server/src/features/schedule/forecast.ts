import { sql } from 'drizzle-orm';
import {
  can,
  dayOf,
  forecastProject,
  isoDay,
  planStages,
  type TForecastStage,
  type TForecastTask,
  type TForecastUnit,
  type TTaskStatus,
} from '@stageline/shared';
import { type TProjectForecast } from '@stageline/shared/schedule';
import { rowsOf, type Db } from '../../db';
import { authorizeProject } from '../projects';
import { authorize } from '../workspaces';
import { readCalendar, workCalendarOf } from './calendar';
import { milestonesOf } from './milestones';

/**
 * GET projects/{id}/forecast/ (docs/schedule.md, "Forecast"): reads the project's stages, edges,
 * units and tasks in four statements, and hands them to `forecastProject` of the shared package,
 * which does the work. A task's person (whose days off count) is its first own assignee, or its
 * stage's first default assignee while it follows the stage's defaults; teams are not expanded.
 */

type StageRow = { id: number; name: string; pipelineId: number; durationDays: number | null };
type EdgeRow = { source: number; target: number };
type UnitRow = { id: number; name: string; pipelineId: number };
type TaskRow = {
  id: number;
  unitId: number;
  stageId: number;
  status: TTaskStatus;
  startDate: string | null;
  due: string | Date | null;
  estimate: number | null;
  person: number | null;
};

export async function projectForecast(
  db: Db,
  {
    userId,
    projectId,
    pipelineId,
    now = new Date(),
  }: { userId: number; projectId: number; pipelineId?: number; now?: Date },
): Promise<TProjectForecast> {
  const { actor, project } = await authorizeProject(db, { userId, projectId, action: 'view' });
  authorize(actor, 'milestone', 'view');
  const inPipeline = pipelineId === undefined ? sql`` : sql`and p.id = ${pipelineId}`;
  const [calendar, stageRows, edgeRows, unitRows, taskRows, milestones] = await Promise.all([
    readCalendar(db, project.workspaceId),
    rowsOf<StageRow>(
      db,
      sql`select s.id, s.name, s.pipeline_id as "pipelineId", s.default_duration_days as "durationDays"
        from stages s join pipelines p on p.id = s.pipeline_id
        where p.project_id = ${projectId} ${inPipeline} and s.kind = 'stage' order by p.id, s.y, s.x, s.id`,
    ),
    rowsOf<EdgeRow>(
      db,
      sql`select e.source_id as source, e.target_id as target from stage_edges e join pipelines p on p.id = e.pipeline_id
        where p.project_id = ${projectId} ${inPipeline}`,
    ),
    rowsOf<UnitRow>(
      db,
      sql`select u.id, u.name, u.pipeline_id as "pipelineId" from units u join pipelines p on p.id = u.pipeline_id
        where u.project_id = ${projectId} ${inPipeline} order by u.name, u.id`,
    ),
    rowsOf<TaskRow>(
      db,
      sql`select t.id, t.unit_id as "unitId", t.stage_id as "stageId", t.status, t.start_date::text as "startDate",
          t.effective_due as due, t.estimate_hours::float8 as estimate,
          case when t.use_stage_defaults
            then (select min(a.user_id) from stage_default_assignees a where a.stage_id = t.stage_id)
            else (select min(a.user_id) from task_assignees a where a.task_id = t.id) end as person
        from tasks t join pipelines p on p.id = t.pipeline_id
        where p.project_id = ${projectId} ${inPipeline}`,
    ),
    milestonesOf(db, projectId),
  ]);
  const stageIds = new Set(stageRows.map((s) => s.id));
  const inputs = new Map<number, number[]>();
  for (const edge of edgeRows) {
    if (!stageIds.has(edge.source) || !stageIds.has(edge.target)) continue;
    const list = inputs.get(edge.target);
    if (list) list.push(edge.source);
    else inputs.set(edge.target, [edge.source]);
  }
  const stages: TForecastStage[] = stageRows.map((s) => ({
    id: s.id,
    inputs: inputs.get(s.id) ?? [],
    durationDays: s.durationDays,
  }));
  const tasksOf = new Map<number, TForecastTask[]>();
  for (const row of taskRows) {
    const task: TForecastTask = {
      id: row.id,
      stage: row.stageId,
      status: row.status,
      start: row.startDate === null ? null : dayOf(row.startDate),
      due: row.due === null ? null : dayOf(new Date(row.due)),
      estimateHours: row.estimate,
      person: row.person,
    };
    const list = tasksOf.get(row.unitId);
    if (list) list.push(task);
    else tasksOf.set(row.unitId, [task]);
  }
  const units: TForecastUnit[] = unitRows.map((u) => ({ id: u.id, tasks: tasksOf.get(u.id) ?? [] }));
  const today = dayOf(now);
  const result = forecastProject({
    today,
    hoursPerDay: calendar.hoursPerDay,
    calendar: workCalendarOf(calendar),
    stages,
    units,
    milestones: milestones.map((m) => ({ id: m.id, date: dayOf(m.date), units: m.units.length > 0 ? m.units : null })),
  });
  const day = (value: number | null) => (value === null ? null : isoDay(value));
  const order = planStages(stages).order;
  const position = new Map<number, number>();
  order.forEach((index, i) => position.set(stages[index]!.id, i));
  const stageInfo = new Map(stageRows.map((s) => [s.id, s]));
  return {
    today: isoDay(today),
    stages: [...order].map((index) => {
      const stage = stageInfo.get(stages[index]!.id)!;
      return { id: stage.id, name: stage.name, pipeline: stage.pipelineId, inputs: stages[index]!.inputs.slice() };
    }),
    units: result.units.map((forecast, i) => {
      const unit = unitRows[i]!;
      const byTask = new Map(forecast.tasks.map((t) => [t.task, t]));
      const tasks = [...(tasksOf.get(unit.id) ?? [])].sort(
        (a, b) => (position.get(a.stage) ?? 0) - (position.get(b.stage) ?? 0),
      );
      return {
        id: unit.id,
        name: unit.name,
        pipeline: unit.pipelineId,
        finish: day(forecast.finish),
        late_by: forecast.lateBy,
        late_stage: forecast.lateStage,
        waiting_on: forecast.waitingOn,
        critical_path: forecast.criticalPath,
        tasks: tasks.map((task) => {
          const f = byTask.get(task.id);
          return {
            id: task.id,
            stage: task.stage,
            status: task.status,
            start_date: day(task.start),
            due_date: day(task.due),
            estimate_hours: task.estimateHours,
            forecast_start: f ? isoDay(f.start) : null,
            forecast_finish: f ? isoDay(f.finish) : null,
            late_by: f?.lateBy ?? 0,
            waits_for: f?.waitsFor ?? null,
          };
        }),
      };
    }),
    milestones: milestones.map((m, i) => {
      const risk = result.milestones[i]!;
      return { ...m, forecast: day(risk.forecast), at_risk: risk.atRisk, late_units: risk.lateUnits };
    }),
    critical: result.critical,
    abilities: { plan: can(actor.role, 'task', 'update'), manage_milestones: can(actor.role, 'milestone', 'manage') },
  };
}
