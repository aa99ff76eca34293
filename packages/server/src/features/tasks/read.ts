import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import {
  effectiveAssignment,
  flowOrder,
  isOverdue,
  isReady,
  personName,
  stagePredecessors,
  type TGraphNode,
  type TStageDefaults,
  type TTask,
  type TTaskCell,
  type TTaskStatus,
  type TUserRef,
} from '@stageline/shared';
import { schema, type Db } from '../../db';
import { AppError } from '../../http/errors';
import type { Actor } from '../workspaces';
import type { TaskScope } from './policy';
import { effectivePeople, loadIteration } from './state';

const { tasks, units, stages, stageEdges, pipelines, projects, users, taskHistory, memberships } = schema;
const { stageDefaultAssignees, taskAssignees } = schema;

const asStatus = (value: string) => value as TTaskStatus;

/** A pipeline's graph and each stage's defaults: what cells and details need to compute readiness and dues. */
export type PipelineGraph = {
  nodes: { id: number; kind: string; name: string; reviewMode: string }[];
  /** The stages' ids in flow order (`flowOrder`): the matrix's columns. */
  flow: number[];
  predecessors: Map<number, number[]>;
  defaults: Map<number, TStageDefaults>;
};

/** Reads the graph of a pipeline (3 queries whatever its size). */
export async function loadGraph(db: Db, pipelineId: number, workspaceId: number): Promise<PipelineGraph> {
  const nodes = await db
    .select({
      id: stages.id,
      kind: stages.kind,
      name: stages.name,
      reviewMode: stages.reviewMode,
      dueDays: stages.defaultDueDays,
      dueDate: stages.defaultDueDate,
    })
    .from(stages)
    .where(eq(stages.pipelineId, pipelineId))
    .orderBy(asc(stages.id));
  const edges = await db
    .select({ source: stageEdges.sourceId, target: stageEdges.targetId })
    .from(stageEdges)
    .where(eq(stageEdges.pipelineId, pipelineId));
  const people = await db
    .select({ stageId: stageDefaultAssignees.stageId, userId: stageDefaultAssignees.userId })
    .from(stageDefaultAssignees)
    .innerJoin(stages, eq(stages.id, stageDefaultAssignees.stageId))
    .innerJoin(
      memberships,
      and(eq(memberships.userId, stageDefaultAssignees.userId), eq(memberships.workspaceId, workspaceId)),
    )
    .where(eq(stages.pipelineId, pipelineId))
    .orderBy(asc(stageDefaultAssignees.userId));
  const graph = nodes as TGraphNode<number>[];
  const defaults = new Map<number, TStageDefaults>();
  const predecessors = new Map<number, number[]>();
  for (const node of nodes) {
    predecessors.set(node.id, stagePredecessors(graph, edges, node.id));
    defaults.set(node.id, { assignees: [], reviewers: [], dueDays: node.dueDays, dueDate: node.dueDate });
  }
  for (const row of people) defaults.get(row.stageId)?.assignees.push(row.userId);
  return { nodes, flow: flowOrder(graph, edges), predecessors, defaults };
}

/**
 * The status cells of some units of one pipeline (the matrix, the unit screen): one query for the
 * tasks with their own assignees; readiness, due dates and overdue computed with the engine's
 * functions. By unit id, each in stage order.
 */
export async function loadCells(
  db: Db,
  { graph, unitIds, workspaceId, now }: { graph: PipelineGraph; unitIds: number[]; workspaceId: number; now: Date },
): Promise<Map<number, TTaskCell[]>> {
  const byUnit = new Map<number, TTaskCell[]>(unitIds.map((id) => [id, []]));
  if (unitIds.length === 0) return byUnit;
  const rows = await db
    .select({
      id: tasks.id,
      unitId: tasks.unitId,
      stageId: tasks.stageId,
      status: tasks.status,
      useStageDefaults: tasks.useStageDefaults,
      dueDate: tasks.dueDate,
      readyAt: tasks.readyAt,
      // Qualified by hand: drizzle writes a one-table select's columns bare, and a bare "id" here
      // would be the membership's.
      own: sql<number[]>`case when ${tasks.useStageDefaults} then '{}'::int[] else array(
        select a.user_id from ${taskAssignees} a join ${memberships} m on m.user_id = a.user_id and m.workspace_id = ${workspaceId}
        where a.task_id = "tasks"."id" order by a.user_id) end`,
    })
    .from(tasks)
    .where(inArray(tasks.unitId, unitIds))
    .orderBy(asc(tasks.unitId), asc(tasks.stageId));
  const statusOf = new Map<string, TTaskStatus>(rows.map((r) => [`${r.unitId}:${r.stageId}`, asStatus(r.status)]));
  for (const row of rows) {
    const status = asStatus(row.status);
    const preds = graph.predecessors.get(row.stageId) ?? [];
    const effective = effectiveAssignment(
      {
        useStageDefaults: row.useStageDefaults,
        assignees: row.own,
        reviewers: [],
        dueDate: row.dueDate,
        readyAt: row.readyAt,
      },
      graph.defaults.get(row.stageId) ?? { assignees: [], reviewers: [], dueDays: null, dueDate: null },
    );
    byUnit.get(row.unitId)?.push({
      id: row.id,
      stage: row.stageId,
      status,
      ready: isReady(preds.map((p) => statusOf.get(`${row.unitId}:${p}`) ?? 'done')),
      overdue: isOverdue(effective.dueDate, status, now),
      due_date: effective.dueDate?.toISOString() ?? null,
      assignees: effective.assignees,
    });
  }
  return byUnit;
}

/** Users as the API names them, by id. */
async function userRefs(db: Db, ids: number[]): Promise<Map<number, TUserRef>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: users.id, username: users.username, firstName: users.firstName, lastName: users.lastName })
    .from(users)
    .where(inArray(users.id, [...new Set(ids)]));
  return new Map(rows.map((u) => [u.id, { id: u.id, name: personName(u), username: u.username }]));
}

/**
 * GET tasks/{id}/ (docs/rules.md §API): the task with everything its screen shows, computed at read time:
 * readiness from the predecessor tasks (`stagePredecessors` on the stored graph), overdue, the
 * effective people and due date (`effectiveAssignment`), the latest round, history oldest first.
 */
export async function loadTask(db: Db, { actor, scope }: { actor: Actor; scope: TaskScope }): Promise<TTask> {
  const now = new Date();
  const [row] = await db
    .select({
      task: tasks,
      unit: { id: units.id, name: units.name },
      pipeline: { id: pipelines.id, name: pipelines.name },
      project: { id: projects.id, name: projects.name, workspace: projects.workspaceId },
    })
    .from(tasks)
    .innerJoin(units, eq(units.id, tasks.unitId))
    .innerJoin(pipelines, eq(pipelines.id, units.pipelineId))
    .innerJoin(projects, eq(projects.id, pipelines.projectId))
    .where(eq(tasks.id, scope.taskId));
  if (!row) throw new AppError('not_found');
  const { task } = row;
  const graph = await loadGraph(db, scope.pipelineId, scope.workspaceId);
  const stage = graph.nodes.find((n) => n.id === task.stageId);
  if (!stage) throw new AppError('not_found');
  const siblings = await db
    .select({ id: tasks.id, stageId: tasks.stageId, status: tasks.status })
    .from(tasks)
    .where(eq(tasks.unitId, task.unitId));
  const byStage = new Map(siblings.map((s) => [s.stageId, s]));
  const names = new Map(graph.nodes.map((n) => [n.id, n.name]));
  const predecessors = (graph.predecessors.get(task.stageId) ?? []).flatMap((stageId) => {
    const sibling = byStage.get(stageId);
    return sibling
      ? [{ task: sibling.id, stage: stageId, stage_name: names.get(stageId) ?? '', status: asStatus(sibling.status) }]
      : [];
  });
  const people = (await effectivePeople(db, scope.workspaceId, [task.id])).get(task.id)!;
  const defaults = graph.defaults.get(task.stageId)!;
  const { dueDate } = effectiveAssignment(
    {
      useStageDefaults: task.useStageDefaults,
      assignees: [],
      reviewers: [],
      dueDate: task.dueDate,
      readyAt: task.readyAt,
    },
    defaults,
  );
  const iteration = await loadIteration(db, task.id, task.iterationNumber);
  const history = await db
    .select()
    .from(taskHistory)
    .where(eq(taskHistory.taskId, task.id))
    .orderBy(asc(taskHistory.createdAt), asc(taskHistory.id));
  const refs = await userRefs(db, [
    ...people.assignees,
    ...people.reviewers,
    ...history.flatMap((h) => (h.actorId === null ? [] : [h.actorId])),
  ]);
  const ref = (id: number) => refs.get(id) ?? { id, name: '', username: '' };
  const status = asStatus(task.status);
  return {
    id: task.id,
    unit: row.unit,
    stage: { id: stage.id, name: stage.name, review_mode: stage.reviewMode },
    pipeline: row.pipeline,
    project: row.project,
    status,
    ready: isReady(predecessors.map((p) => p.status)),
    overdue: isOverdue(dueDate, status, now),
    assignees: people.assignees.map(ref),
    reviewers: people.reviewers.map(ref),
    due_date: dueDate?.toISOString() ?? null,
    use_stage_defaults: task.useStageDefaults,
    iteration: iteration && {
      number: iteration.number,
      accepted_by: iteration.acceptedBy,
      rejected_by: iteration.rejectedBy,
      closed: iteration.closed,
      outcome: iteration.outcome,
      return_to: iteration.returnTo,
    },
    predecessors,
    history: history.map((h) => ({
      id: h.id,
      action: h.action,
      from: h.fromStatus === null ? null : asStatus(h.fromStatus),
      to: h.toStatus === null ? null : asStatus(h.toStatus),
      iteration: h.iteration,
      actor: h.actorId === null ? null : ref(h.actorId),
      comment: h.comment,
      created_at: h.createdAt.toISOString(),
    })),
    role: actor.role,
  };
}
