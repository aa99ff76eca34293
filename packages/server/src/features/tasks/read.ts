import { asc, inArray, sql, type SQL } from 'drizzle-orm';
import {
  effectiveAssignment,
  flowOrder,
  isOverdue,
  personName,
  skipsReview,
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
import { preparedRowsOf, schema, type Db } from '../../db';
import { AppError } from '../../http/errors';
import { authorize, type Actor } from '../workspaces';
import {
  effectivePeopleRows,
  taskContextColumns,
  taskContextOf,
  taskRowColumns,
  type TaskContextColumns,
} from './context';
import { rowsOf } from './sql';
import { taskRowOf, type TaskRow } from './state';
import { presentTaskTeams } from './team-presenter';
import { effectiveTeamRows, type StageReview } from './teams';

const { tasks, memberships } = schema;
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
    enforceReview: boolean;
  })[];
  edges: { source: number; target: number }[];
  people: { stageId: number; userId: number }[];
  teamRules: { stageId: number; team: number; required: number }[];
};

/**
 * The graph of the pipeline `pipelineId` as four JSON columns (`GraphRow`), for one statement
 * whatever its size: the stages, the edges, the default assignees who are still members, and the
 * review rules. The expressions may name an outer query's columns.
 */
const graphColumns = (pipelineId: SQL, workspaceId: SQL) => sql`
      coalesce((select json_agg(json_build_object('id', s.id, 'kind', s.kind, 'name', s.name,
          'reviewMode', s.review_mode, 'todoEnabled', s.todo_enabled,
          'skipReviewIfNoReviewers', s.skip_review_if_no_reviewers, 'acceptEditAsDone', s.accept_edit_as_done,
          'dueDays', s.default_due_days, 'dueDate', s.default_due_date,
          'requiredApprovals', s.required_approvals, 'allowSelfReview', s.allow_self_review,
          'enforceReview', s.enforce_review) order by s.id)
        from stages s where s.pipeline_id = ${pipelineId}), '[]') as nodes,
      coalesce((select json_agg(json_build_object('source', e.source_id, 'target', e.target_id))
        from stage_edges e where e.pipeline_id = ${pipelineId}), '[]') as edges,
      coalesce((select json_agg(json_build_object('stageId', d.stage_id, 'userId', d.user_id) order by d.user_id)
        from stage_default_assignees d join stages s on s.id = d.stage_id
        join memberships m on m.user_id = d.user_id and m.workspace_id = ${workspaceId}
        where s.pipeline_id = ${pipelineId}), '[]') as people,
      coalesce((select json_agg(json_build_object('stageId', r.stage_id, 'team', r.team_id, 'required', r.required)
          order by r.team_id)
        from stage_team_rules r join stages s on s.id = r.stage_id where s.pipeline_id = ${pipelineId}), '[]') as "teamRules"`;

/** Reads the graph of a pipeline in one statement whatever its size (`graphColumns`). */
export async function loadGraph(db: Db, pipelineId: number, workspaceId: number): Promise<PipelineGraph> {
  const [row] = await rowsOf<GraphRow>(
    db,
    sql`select ${graphColumns(sql`${pipelineId}::integer`, sql`${workspaceId}::integer`)}`,
  );
  return graphOf(row!);
}

/** A pipeline's graph with where it stands and the caller's role there (`loadGraphFor`). */
export type PipelineGraphFor = {
  graph: PipelineGraph;
  workspaceId: number;
  projectId: number;
  pipelineName: string;
  /** The pipeline's units, as the database keeps them counted (decision 104). */
  unitsCount: number;
  role: Actor['role'];
};

/**
 * The graph of a pipeline together with its place, name, unit count and the role of `userId` in its
 * workspace, in one statement (the matrix's reads and the pipeline's CSV, decision 121); undefined when the pipeline does
 * not exist or `userId` is not a member of its workspace.
 */
export async function loadGraphFor(
  db: Db,
  { userId, pipelineId }: { userId: number; pipelineId: number },
): Promise<PipelineGraphFor | undefined> {
  const [row] = await rowsOf<
    GraphRow & {
      workspaceId: number;
      projectId: number;
      pipelineName: string;
      unitsCount: number;
      role: Actor['role'];
    }
  >(
    db,
    sql`select pr.workspace_id as "workspaceId", pr.id as "projectId", p.name as "pipelineName",
        p.units_count as "unitsCount", m.role,
        ${graphColumns(sql`p.id`, sql`pr.workspace_id`)}
      from pipelines p join projects pr on pr.id = p.project_id
      join memberships m on m.workspace_id = pr.workspace_id and m.user_id = ${userId}
      where p.id = ${pipelineId}`,
  );
  if (!row) return undefined;
  const { workspaceId, projectId, pipelineName, unitsCount, role, ...graph } = row;
  return { graph: graphOf(graph), workspaceId, projectId, pipelineName, unitsCount: Number(unitsCount), role };
}

/** `PipelineGraph` from the columns of `graphColumns`. */
function graphOf(row: GraphRow): PipelineGraph {
  const { nodes, edges, people, teamRules } = row;
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
      enforceReview: node.enforceReview,
      teamRules: [],
    });
  }
  for (const person of people) defaults.get(person.stageId)?.assignees.push(person.userId);
  for (const rule of teamRules) reviews.get(rule.stageId)?.teamRules.push({ team: rule.team, required: rule.required });
  return { nodes, flow: flowOrder(graph, edges), predecessors, defaults, reviews };
}

/**
 * The status cells of some units of one pipeline (the matrix, the unit screen): one query for the
 * tasks with their own assignees; readiness as stored (`ready_at`), due dates and overdue computed
 * with the engine's functions. By unit id, each in stage order.
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
  for (const row of rows) {
    const status = row.status;
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
      ready: row.readyAt !== null,
      overdue: isOverdue(effective.dueDate, status, now),
      due_date: effective.dueDate?.toISOString() ?? null,
      assignees: effective.assignees,
      files: Number(row.files),
    });
  }
  return byUnit;
}

/** What the one statement of `loadTask` answers. */
type TaskDetailRow = TaskRow &
  TaskContextColumns &
  GraphRow & {
    unitName: string;
    pipelineId: number;
    pipelineName: string;
    projectId: number;
    projectName: string;
    workspaceId: number;
    role: Actor['role'];
    siblings: [number, number, TTaskStatus][];
    history: {
      id: number;
      action: TTask['history'][number]['action'];
      from: TTaskStatus | null;
      to: TTaskStatus | null;
      iteration: number | null;
      actor: number | null;
      comment: string | null;
      log_date: string | null;
      log_hours: number | null;
      created_at: string;
    }[];
    estimateHours: number | null;
    startDate: string | null;
    spentHours: number;
    users: { id: number; username: string; firstName: string; lastName: string }[];
  };

/** The one statement of `loadTask`: the task of `taskId` as `userId` may see it (no row: 404). */
export function taskDetail(userId: number, taskId: number): SQL {
  const workspace = sql`project_.workspace_id`;
  return sql`select ${taskRowColumns}, unit_.name as "unitName", unit_.pipeline_id as "pipelineId",
        pipeline_.name as "pipelineName", unit_.project_id as "projectId", project_.name as "projectName",
        project_.workspace_id as "workspaceId", caller_.role,
        ${taskContextColumns(workspace)},
        ${graphColumns(sql`unit_.pipeline_id`, workspace)},
        (select json_agg(json_build_array(sb.id, sb.stage_id, sb.status)) from tasks sb where sb.unit_id = tk.unit_id)
          as "siblings",
        (select coalesce(json_agg(json_build_object('id', h.id, 'action', h.action, 'from', h.from_status,
            'to', h.to_status, 'iteration', h.iteration, 'actor', h.actor_id, 'comment', h.comment,
            'log_date', h.log_date, 'log_hours', h.log_hours::float8, 'created_at', h.created_at) order by h.created_at, h.id), '[]')
          from task_history h where h.task_id = tk.id) as "history",
        tk.estimate_hours::float8 as "estimateHours", tk.start_date::text as "startDate",
        (select coalesce(sum(tl.hours), 0)::float8 from time_logs tl where tl.task_id = tk.id) as "spentHours",
        (select coalesce(json_agg(json_build_object('id', us.id, 'username', us.username,
            'firstName', us.first_name, 'lastName', us.last_name)), '[]')
          from users us where us.id in (
            select h.actor_id from task_history h where h.task_id = tk.id
            union select q.id from (${effectivePeopleRows(sql`tk.id`, workspace)}) q where q.which in ('a', 'r')
            union select tm.user_id from team_members tm where tm.team_id in (
              select q.team_id from (${effectiveTeamRows(sql`tk.id`)}) q where q.which = 'r'))) as "users"
      from tasks tk join units unit_ on unit_.id = tk.unit_id
      join pipelines pipeline_ on pipeline_.id = unit_.pipeline_id
      join projects project_ on project_.id = pipeline_.project_id
      join memberships caller_ on caller_.workspace_id = project_.workspace_id and caller_.user_id = ${userId}
      where tk.id = ${taskId}`;
}

/**
 * GET tasks/{id}/ (docs/rules.md §API): the task with everything its screen shows, in ONE statement
 * that also answers whether the caller may see it (a member of its workspace; else 404, ids do not
 * leak): the task's context (`taskContextColumns`), its pipeline's graph, its unit's other tasks,
 * its history and the people it names. Computed from them: readiness from the predecessor tasks
 * (`stagePredecessors` on the graph), overdue, the effective people and due date
 * (`effectiveAssignment`), the teams and rules, and what the caller may do.
 */
export async function loadTask(db: Db, { userId, taskId }: { userId: number; taskId: number }): Promise<TTask> {
  const now = new Date();
  const [row] = await preparedRowsOf<TaskDetailRow>(db, 'task_detail', taskDetail(userId, taskId));
  if (!row) throw new AppError('not_found');
  const actor: Actor = { userId, workspaceId: row.workspaceId, role: row.role };
  authorize(actor, 'task', 'view');
  const context = taskContextOf(row);
  if (!context) throw new AppError('not_found');
  const task = taskRowOf(row);
  const graph = graphOf(row);
  const byStage = new Map(row.siblings.map(([id, stageId, status]) => [stageId, { id, status }]));
  const names = new Map(graph.nodes.map((n) => [n.id, n.name]));
  const predecessors = (graph.predecessors.get(task.stageId) ?? []).flatMap((stageId) => {
    const sibling = byStage.get(stageId);
    return sibling
      ? [{ task: sibling.id, stage: stageId, stage_name: names.get(stageId) ?? '', status: sibling.status }]
      : [];
  });
  const { people, iteration, rules } = context;
  const { dueDate } = effectiveAssignment(
    {
      useStageDefaults: task.useStageDefaults,
      assignees: [],
      reviewers: [],
      dueDate: task.dueDate,
      readyAt: task.readyAt,
    },
    graph.defaults.get(task.stageId)!,
  );
  const teams = presentTaskTeams({ actor, task, context });
  const refs = new Map(row.users.map((u) => [u.id, { id: u.id, name: personName(u), username: u.username }]));
  const ref = (id: number): TUserRef => refs.get(id) ?? { id, name: '', username: '' };
  const status = task.status;
  return {
    id: task.id,
    unit: { id: task.unitId, name: row.unitName },
    stage: { id: task.stageId, name: context.stageName, review_mode: rules.reviewMode },
    pipeline: { id: row.pipelineId, name: row.pipelineName },
    project: { id: row.projectId, name: row.projectName, workspace: row.workspaceId },
    status,
    ready: task.readyAt !== null,
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
    estimate_hours: row.estimateHours,
    start_date: row.startDate,
    spent_hours: row.spentHours,
    history: row.history.map(({ log_date, log_hours, ...h }) => ({
      ...h,
      time: log_date === null ? null : { date: log_date, hours: log_hours ?? 0 },
      actor: h.actor === null ? null : ref(h.actor),
      skipped_review: skipsReview(h),
      created_at: new Date(h.created_at).toISOString(),
    })),
    role: actor.role,
    ...teams.dto,
    abilities: taskAbilities({
      role: actor.role,
      actor: actor.userId,
      assignees: people.assignees,
      state: { status, reviewers: people.reviewers, iteration },
      rules,
      reviewRules: context.reviewRules,
      allowSelfReview: teams.dto.allow_self_review,
      enforceReview: context.review.enforceReview,
      queueMember: teams.queueMember,
      remindedAt: task.remindedAt,
      now,
    }),
  };
}
