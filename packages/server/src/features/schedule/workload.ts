import { sql } from 'drizzle-orm';
import { computeWorkload, dayOf, isoDay, mondayOf, personName, type TWorkloadTask } from '@stageline/shared';
import { type TWorkload } from '@stageline/shared/schedule';
import { rowsOf, type Db } from '../../db';
import { authorizeIn } from '../workspaces';
import { readCalendar, workCalendarOf } from './calendar';

/**
 * GET workspaces/{id}/workload/ (docs/schedule.md, "Workload"): every member × the weeks asked,
 * the estimated hours of their open tasks across every project of the workspace against their
 * capacity (`computeWorkload` of the shared package). A task's people are its effective assignees:
 * its own, or its stage's defaults while it follows them; teams are not expanded.
 */

type PersonRow = { id: number; username: string; firstName: string; lastName: string };
type TaskRow = {
  id: number;
  person: number;
  estimate: number | null;
  startDate: string | null;
  due: string | Date | null;
};

export async function workspaceWorkload(
  db: Db,
  {
    userId,
    workspaceId,
    from,
    weeks,
    now = new Date(),
  }: { userId: number; workspaceId: number; from?: string; weeks: number; now?: Date },
): Promise<TWorkload> {
  await authorizeIn(db, { userId, workspaceId, resource: 'calendar', action: 'view' });
  const [calendar, people, rows] = await Promise.all([
    readCalendar(db, workspaceId),
    rowsOf<PersonRow>(
      db,
      sql`select u.id, u.username, u.first_name as "firstName", u.last_name as "lastName"
        from memberships m join users u on u.id = m.user_id where m.workspace_id = ${workspaceId}
        order by lower(u.first_name), lower(u.last_name), u.username`,
    ),
    rowsOf<TaskRow>(
      db,
      sql`select t.id, x.user_id as person, t.estimate_hours::float8 as estimate, t.start_date::text as "startDate",
          t.effective_due as due
        from tasks t join pipelines p on p.id = t.pipeline_id join projects pr on pr.id = p.project_id
        join lateral (
          select d.user_id from stage_default_assignees d where t.use_stage_defaults and d.stage_id = t.stage_id
          union all
          select a.user_id from task_assignees a where not t.use_stage_defaults and a.task_id = t.id
        ) x on true
        where pr.workspace_id = ${workspaceId} and t.status <> 'done' and t.estimate_hours is not null`,
    ),
  ]);
  const members = new Set(people.map((p) => p.id));
  const tasks = new Map<number, TWorkloadTask & { people: number[] }>();
  for (const row of rows) {
    if (!members.has(row.person)) continue;
    const task = tasks.get(row.id);
    if (task) task.people.push(row.person);
    else
      tasks.set(row.id, {
        id: row.id,
        people: [row.person],
        estimateHours: row.estimate,
        start: row.startDate === null ? null : dayOf(row.startDate),
        due: row.due === null ? null : dayOf(new Date(row.due)),
      });
  }
  const today = dayOf(now);
  const firstWeek = mondayOf(from ? dayOf(from) : today);
  const cells = computeWorkload({
    people: people.map((p) => p.id),
    tasks: [...tasks.values()],
    calendar: workCalendarOf(calendar),
    hoursPerDay: calendar.hoursPerDay,
    today,
    firstWeek,
    weeks,
  });
  return {
    weeks: Array.from({ length: weeks }, (_, i) => isoDay(firstWeek + i * 7)),
    hours_per_day: calendar.hoursPerDay,
    people: people.map((p) => ({ id: p.id, name: personName(p), username: p.username, weeks: cells.get(p.id)! })),
  };
}
