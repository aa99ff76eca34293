import { asc, eq, inArray, sql } from 'drizzle-orm';
import {
  effectiveAssignment,
  flowOrder,
  isOverdue,
  isReady,
  personName,
  stagePredecessors,
  taskAbilities,
  type TGraphNode,
  type TStageDefaults,
  type TTask,
  type TReviewMode,
  type TTaskCell,
  type TTaskStatus,
  type TUserRef,
} from '@stageline/shared';
import { schema, type Db } from '../../db';
import { AppError } from '../../http/errors';
import type { Actor } from '../workspaces';
import type { TaskScope } from './policy';
import { rulesOf } from './create';
import { effectivePeople, loadIteration } from './state';
import { rowsOf } from './sql';
import { presentTaskTeams } from './team-presenter';
import type { StageReview } from './teams';

const { tasks, units, pipelines, projects, users, taskHistory, memberships } = schema;
const { taskAssignees, attachments, comments } = schema;

/** A pipeline's graph and each stage's defaults: what cells and details need to compute readiness and dues. */
export type PipelineGraph = {
  nodes: {
    id: number;
    kind: string;
    name: string;
    reviewMode: TReviewMode;
    todoEnabled: boolean;
    skipReviewIfNoReviewers: boolean;
    acceptEditAsDone: boolean;
  }[];
  /** The stages' ids in flow order (`flowOrder`): the matrix's columns. */
  flow: number[];
  predecessors: Map<number, number[]>;
  defaults: Map<number, TStageDefaults>;
  /** Each stage's review rules as stored (docs/review-rules.md). */
  reviews: Map<number, StageReview>;
};

type GraphRow = {
  nodes: (PipelineGraph['nodes'][number] & {
    dueDays: number | null;
    dueDate: string | null;
    requiredApprovals: number | null;
    allowSelfReview: boolean;
  })[];
  edges: { source: number; target: number }[];
  people: { stageId: number; userId: number }[];
  teamRules: { stageId: number; team: number; required: number }[];
};

/**
 * Reads the graph of a pipeline in one statement whatever its size: the stages, the edges, the
 * default assignees who are still members, and the review rules, each as one JSON array.
 */
export async function loadGraph(db: Db, pipelineId: number, workspaceId: number): Promise<PipelineGraph> {
  const [row] = await rowsOf<GraphRow>(
    db,
    sql`select
      coalesce((select json_agg(json_build_object('id', s.id, 'kind', s.kind, 'name', s.name,
          'reviewMode', s.review_mode, 'todoEnabled', s.todo_enabled,
          'skipReviewIfNoReviewers', s.skip_review_if_no_reviewers, 'acceptEditAsDone', s.accept_edit_as_done,
          'dueDays', s.default_due_days, 'dueDate', s.default_due_date,
          'requiredApprovals', s.required_approvals, 'allowSelfReview', s.allow_self_review) order by s.id)
        from stages s where s.pipeline_id = ${pipelineId}), '[]') as nodes,
      coalesce((select json_agg(json_build_object('source', e.source_id, 'target', e.target_id))
        from stage_edges e where e.pipeline_id = ${pipelineId}), '[]') as edges,
      coalesce((select json_agg(json_build_object('stageId', d.stage_id, 'userId', d.user_id) order by d.user_id)
        from stage_default_assignees d join stages s on s.id = d.stage_id
        join memberships m on m.user_id = d.user_id and m.workspace_id = ${workspaceId}
        where s.pipeline_id = ${pipelineId}), '[]') as people,
      coalesce((select json_agg(json_build_object('stageId', r.stage_id, 'team', r.team_id, 'required', r.required)
          order by r.team_id)
        from stage_team_rules r join stages s on s.id = r.stage_id where s.pipeline_id = ${pipelineId}), '[]') as "teamRules"`,
  );
  const { nodes, edges, people, teamRules } = row!;
  const graph = nodes as TGraphNode<number>[];
  const defaults = new Map<number, TStageDefaults>();
  const predecessors = new Map<number, number[]>();
  const reviews = new Map<number, StageReview>();
  for (const node of nodes) {
    predecessors.set(node.id, stagePredecessors(graph, edges, node.id));
    defaults.set(node.id, { assignees: [], reviewers: [], dueDays: node.dueDays, dueDate: node.dueDate });
    reviews.set(node.id, {
      requiredApprovals: node.requiredApprovals,
      allowSelfReview: node.allowSelfReview,
      teamRules: [],
    });
  }
  for (const person of people) defaults.get(person.stageId)?.assignees.push(person.userId);
  for (const rule of teamRules) reviews.get(rule.stageId)?.teamRules.push({ team: rule.team, required: rule.required });
  return { nodes, flow: flowOrder(graph, edges), predecessors, defaults, reviews };
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
      files: sql<number>`(select count(*)::int from ${attachments} f where f.completed_at is not null
        and (f.task_id = "tasks"."id" or f.comment_id in (select c.id from ${comments} c where c.task_id = "tasks"."id")))`,
    })
    .from(tasks)
    .where(inArray(tasks.unitId, unitIds))
    .orderBy(asc(tasks.unitId), asc(tasks.stageId));
  const statusOf = new Map<string, TTaskStatus>(rows.map((r) => [`${r.unitId}:${r.stageId}`, r.status]));
  for (const row of rows) {
    const status = row.status;
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
      files: Number(row.files),
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
      // The unit's other tasks (for the predecessors' statuses), in the same statement.
      siblings: sql<{ id: number; stageId: number; status: TTaskStatus }[]>`(
        select json_agg(json_build_object('id', s.id, 'stageId', s.stage_id, 'status', s.status))
        from tasks s where s.unit_id = units.id)`,
    })
    .from(tasks)
    .innerJoin(units, eq(units.id, tasks.unitId))
    .innerJoin(pipelines, eq(pipelines.id, units.pipelineId))
    .innerJoin(projects, eq(projects.id, pipelines.projectId))
    .where(eq(tasks.id, scope.taskId));
  if (!row) throw new AppError('not_found');
  const { task, siblings } = row;
  const graph = await loadGraph(db, scope.pipelineId, scope.workspaceId);
  const stage = graph.nodes.find((n) => n.id === task.stageId);
  if (!stage) throw new AppError('not_found');
  const byStage = new Map(siblings.map((s) => [s.stageId, s]));
  const names = new Map(graph.nodes.map((n) => [n.id, n.name]));
  const predecessors = (graph.predecessors.get(task.stageId) ?? []).flatMap((stageId) => {
    const sibling = byStage.get(stageId);
    return sibling
      ? [{ task: sibling.id, stage: stageId, stage_name: names.get(stageId) ?? '', status: sibling.status }]
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
  const teams = await presentTaskTeams(db, {
    actor,
    workspaceId: scope.workspaceId,
    task,
    mode: stage.reviewMode,
    people,
    iteration,
    review: graph.reviews.get(task.stageId)!,
  });
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
  const status = task.status;
  const rules = rulesOf(stage);
  return {
    id: task.id,
    unit: row.unit,
    stage: { id: stage.id, name: stage.name, review_mode: rules.reviewMode },
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
      from: h.fromStatus === null ? null : h.fromStatus,
      to: h.toStatus === null ? null : h.toStatus,
      iteration: h.iteration,
      actor: h.actorId === null ? null : ref(h.actorId),
      comment: h.comment,
      created_at: h.createdAt.toISOString(),
    })),
    role: actor.role,
    ...teams.dto,
    abilities: taskAbilities({
      role: actor.role,
      actor: actor.userId,
      assignees: people.assignees,
      state: { status, reviewers: people.reviewers, iteration },
      rules,
      reviewRules: teams.reviewRules,
      allowSelfReview: teams.dto.allow_self_review,
      queueMember: teams.queueMember,
      remindedAt: task.remindedAt,
      now,
    }),
  };
}
