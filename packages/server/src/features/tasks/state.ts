import { and, asc, eq, sql, type SQL } from 'drizzle-orm';
import {
  applyTaskAction,
  TaskErrorMessages,
  TaskErrorStatus,
  type TIteration,
  type TTaskAction,
  type TTaskContext,
  type TTaskErrorCode,
  type TTaskResult,
  type TTaskState,
} from '@stageline/shared';
import { schema, type Db } from '../../db';
import { AppError } from '../../http/errors';
import { rulesOf } from './create';
import { at, idList, rowsOf } from './sql';
import { effectiveTeamRows, membersOfTeams, reviewRulesOf, teamNames, type StageReview } from './teams';

const { tasks, stages, taskIterations, memberships } = schema;

export type TaskRow = typeof tasks.$inferSelect;

/** What the engine needs of one locked task, read from the database, plus who may work on it. */
export type EngineTask = {
  row: TaskRow;
  state: TTaskState;
  ctx: TTaskContext;
  assignees: number[];
  /** Teams and review rules: the task's people with their teams, and the stage's rules. */
  people: EffectivePeople;
  review: StageReview;
  /** Names of the task's teams, by id (notifications name them). */
  teamNames: Map<number, string>;
};

const httpCode = { 400: 'bad_request', 403: 'permission_denied', 409: 'conflict' } as const;

/** An engine refusal as the API answers it: the status of `TaskErrorStatus`, the rule in `rule`. */
export function taskError(code: TTaskErrorCode): AppError {
  return new AppError(httpCode[TaskErrorStatus[code]], TaskErrorMessages[code], {}, {}, { rule: code });
}

/**
 * A task's effective people. Teams and review rules: its effective teams, and `throughTeams`, the
 * reviewers who are reviewers only through a reviewer team, with those teams' ids.
 */
export type EffectivePeople = {
  assignees: number[];
  reviewers: number[];
  assigneeTeams: number[];
  reviewerTeams: number[];
  throughTeams: Map<number, number[]>;
};

/**
 * The effective assignees and reviewers of tasks (stage defaults while `use_stage_defaults`, else
 * their own), keeping only current members of the workspace, by task id.
 */
export async function effectivePeople(
  db: Db,
  workspaceId: number,
  taskIds: number[],
): Promise<Map<number, EffectivePeople>> {
  const result = new Map<number, EffectivePeople>(
    taskIds.map((id) => [
      id,
      { assignees: [], reviewers: [], assigneeTeams: [], reviewerTeams: [], throughTeams: new Map() },
    ]),
  );
  if (taskIds.length === 0) return result;
  const ids = idList(taskIds);
  // People ('a', 'r': current members only) and teams ('ta', 'tr') in one statement.
  const rows = await rowsOf<{ task_id: number; which: string; id: number }>(
    db,
    sql`
    select p.task_id, p.which, p.user_id as id from (
      select t.id as task_id, 'a' as which, d.user_id from tasks t join stage_default_assignees d on d.stage_id = t.stage_id
        where t.id in (${ids}) and t.use_stage_defaults
      union all
      select t.id, 'r', d.user_id from tasks t join stage_default_reviewers d on d.stage_id = t.stage_id
        where t.id in (${ids}) and t.use_stage_defaults
      union all
      select t.id, 'a', o.user_id from tasks t join task_assignees o on o.task_id = t.id
        where t.id in (${ids}) and not t.use_stage_defaults
      union all
      select t.id, 'r', o.user_id from tasks t join task_reviewers o on o.task_id = t.id
        where t.id in (${ids}) and not t.use_stage_defaults
    ) p join memberships m on m.user_id = p.user_id and m.workspace_id = ${workspaceId}
    union all
    select q.task_id, 't' || q.which, q.team_id from (${effectiveTeamRows(ids)}) q
    order by 1, 3`,
  );
  const lists = { a: 'assignees', r: 'reviewers', ta: 'assigneeTeams', tr: 'reviewerTeams' } as const;
  for (const row of rows) result.get(row.task_id)![lists[row.which as keyof typeof lists]].push(row.id);
  await addTeamReviewers(db, workspaceId, result);
  return result;
}

/**
 * Teams and review rules (docs/review-rules.md): the effective teams of each task, and the members
 * of its reviewer teams (but its assignees) added to its reviewers, remembering through which team.
 */
async function addTeamReviewers(db: Db, workspaceId: number, people: Map<number, EffectivePeople>): Promise<void> {
  const members = await membersOfTeams(
    db,
    workspaceId,
    [...people.values()].flatMap((t) => t.reviewerTeams),
  );
  for (const entry of people.values()) {
    const { reviewerTeams } = entry;
    const own = new Set(entry.reviewers);
    for (const team of reviewerTeams) {
      for (const userId of members.get(team) ?? []) {
        if (entry.assignees.includes(userId) || own.has(userId)) continue;
        entry.throughTeams.set(userId, [...(entry.throughTeams.get(userId) ?? []), team]);
      }
    }
    entry.reviewers = [...own, ...entry.throughTeams.keys()].sort((a, b) => a - b);
  }
}

/** The latest round of a task with its reactions in the order they came. */
export async function loadIteration(db: Db, taskId: number, number: number): Promise<TIteration | null> {
  if (number === 0) return null;
  // The round and its reactions in one statement.
  const [row] = await db
    .select({
      returnTo: taskIterations.returnTo,
      closed: taskIterations.closed,
      outcome: taskIterations.outcome,
      reactions: sql<{ userId: number; verdict: string }[]>`coalesce((
        select json_agg(json_build_object('userId', r.user_id, 'verdict', r.verdict) order by r.created_at, r.user_id)
        from task_reactions r where r.task_id = task_iterations.task_id and r.iteration = task_iterations.number), '[]')`,
    })
    .from(taskIterations)
    .where(and(eq(taskIterations.taskId, taskId), eq(taskIterations.number, number)));
  if (!row) return null;
  const { reactions } = row;
  return {
    number,
    acceptedBy: reactions.filter((r) => r.verdict === 'accept').map((r) => r.userId),
    rejectedBy: reactions.filter((r) => r.verdict === 'reject').map((r) => r.userId),
    returnTo: row.returnTo,
    closed: row.closed,
    outcome: row.outcome ?? null,
  };
}

/**
 * Locks the unit (every change to a unit's tasks takes this lock first, so actions on one unit
 * serialize and never deadlock on each other's successor updates), then the given tasks of it,
 * `SELECT … FOR UPDATE` in id order. Returns the locked rows by id.
 */
export async function lockTasks(tx: Db, unitId: number, taskIds: number[]): Promise<Map<number, TaskRow>> {
  await tx.select({ id: schema.units.id }).from(schema.units).where(eq(schema.units.id, unitId)).for('no key update');
  if (taskIds.length === 0) return new Map();
  const rows = await tx
    .select()
    .from(tasks)
    .where(and(eq(tasks.unitId, unitId), sql`${tasks.id} in (${idList(taskIds)})`))
    .orderBy(asc(tasks.id))
    .for('update');
  return new Map(rows.map((row) => [row.id, row]));
}

/** Builds `TTaskState` and `TTaskContext` of a locked task from the database. */
export async function engineTask(tx: Db, row: TaskRow, workspaceId: number): Promise<EngineTask> {
  // The stage with its predecessor stages and its team rules, in one statement. Correlated subqueries
  // name the outer table in the SQL text: Drizzle writes a one-table query's columns unqualified,
  // which inside a subquery would mean the subquery's own columns.
  const [found] = await tx
    .select({
      stage: stages,
      predecessors: sql<number[]>`coalesce((
        select json_agg(e.source_id order by e.source_id) from stage_edges e
        join stages p on p.id = e.source_id and p.kind = 'stage' where e.target_id = stages.id), '[]')`,
      teamRules: sql<StageReview['teamRules']>`coalesce((
        select json_agg(json_build_object('team', r.team_id, 'required', r.required) order by r.team_id)
        from stage_team_rules r where r.stage_id = stages.id), '[]')`,
    })
    .from(stages)
    .where(eq(stages.id, row.stageId));
  if (!found) throw new AppError('not_found');
  const { stage, predecessors, teamRules } = found;
  const people = (await effectivePeople(tx, workspaceId, [row.id])).get(row.id)!;
  const review: StageReview = {
    requiredApprovals: stage.requiredApprovals,
    allowSelfReview: stage.allowSelfReview,
    teamRules,
  };
  return {
    row,
    state: {
      status: row.status,
      reviewers: people.reviewers,
      iteration: await loadIteration(tx, row.id, row.iterationNumber),
    },
    ctx: {
      rules: rulesOf(stage),
      predecessors,
      reviewRules: await reviewRulesOf(tx, workspaceId, review, people.assignees),
    },
    assignees: people.assignees,
    people,
    review,
    teamNames: new Map(
      [...(await teamNames(tx, [...people.assigneeTeams, ...people.reviewerTeams])).values()].map((t) => [
        t.id,
        t.name,
      ]),
    ),
  };
}

/** Runs the engine; a refusal becomes the API's error. */
export function runEngine(task: EngineTask, action: TTaskAction): Extract<TTaskResult, { ok: true }> {
  const result = applyTaskAction(task.state, action, task.ctx);
  if (!result.ok) throw taskError(result.error);
  return result;
}

/**
 * Writes what the engine decided: the status and latest round on the task, the round's row (a
 * round the action replaced is closed as overridden), the reaction, and the history rows.
 */
export async function persist(
  tx: Db,
  task: EngineTask,
  action: TTaskAction,
  result: Extract<TTaskResult, { ok: true }>,
  { actorId, now }: { actorId: number; now: Date },
): Promise<void> {
  const prev = task.state.iteration;
  const next = result.state.iteration;
  const taskId = task.row.id;
  const writes: SQL[] = [];
  if (result.state.status !== task.state.status || (next?.number ?? 0) !== task.row.iterationNumber) {
    writes.push(sql`update tasks set status = ${result.state.status}, iteration_number = ${next?.number ?? 0},
      updated_at = ${at(now)} where id = ${taskId}`);
  }
  if (prev && !prev.closed && next && next.number !== prev.number) {
    writes.push(sql`update task_iterations set closed = true, outcome = 'overridden', closed_at = ${at(now)}
      where task_id = ${taskId} and number = ${prev.number}`);
  }
  if (
    next &&
    (next.number !== prev?.number || next.closed !== prev.closed || next.returnTo.length !== prev.returnTo.length)
  ) {
    writes.push(sql`insert into task_iterations (task_id, number, return_to, closed, outcome, created_at, closed_at)
      values (${taskId}, ${next.number}, ${`{${next.returnTo.join(',')}}`}::integer[], ${next.closed}, ${next.outcome},
        ${at(now)}, ${next.closed ? at(now) : null})
      on conflict (task_id, number) do update set return_to = excluded.return_to, closed = excluded.closed,
        outcome = excluded.outcome, closed_at = excluded.closed_at`);
  }
  if ((action.type === 'accept' || action.type === 'reject') && next) {
    // The primary key (task, round, reviewer) refuses a second reaction even if a race got past the engine.
    writes.push(sql`insert into task_reactions (task_id, iteration, user_id, verdict, created_at)
      values (${taskId}, ${next.number}, ${action.actor}, ${action.type}, ${at(now)})`);
  }
  if (result.history.length > 0) {
    const rows = result.history.map(
      (entry) => sql`(${taskId}, ${entry.action}, ${entry.from}, ${entry.to}, ${entry.iteration},
        ${entry.actor ?? actorId}, ${entry.comment ?? null}, ${at(now)})`,
    );
    writes.push(sql`insert into task_history (task_id, action, from_status, to_status, iteration, actor_id, comment, created_at)
      values ${sql.join(rows, sql`, `)}`);
  }
  // One statement: each write touches other rows, and PostgreSQL runs every data-modifying WITH part.
  const last = writes.pop();
  if (last) {
    const before = writes.map((write, i) => sql`${sql.raw(`w${i}`)} as (${write})`);
    await tx.execute(before.length > 0 ? sql`with ${sql.join(before, sql`, `)} ${last}` : last);
  }
  task.state = result.state;
}

/** Members of the workspace among `ids` (for checks of people given by a request). */
export async function membersAmong(db: Db, workspaceId: number, ids: number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .select({ userId: memberships.userId })
    .from(memberships)
    .where(
      and(
        eq(memberships.workspaceId, workspaceId),
        sql`${memberships.userId} in (${sql.join(
          ids.map((id) => sql`${id}`),
          sql`, `,
        )})`,
      ),
    );
  return new Set(rows.map((r) => r.userId));
}
