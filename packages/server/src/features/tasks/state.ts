import { and, eq, sql, type SQL } from 'drizzle-orm';
import {
  applyTaskAction,
  TaskErrorMessages,
  TaskErrorStatus,
  type TTaskAction,
  type TTaskContext,
  type TTaskErrorCode,
  type TTaskResult,
  type TTaskState,
} from '@stageline/shared';
import { preparedRowsOf, schema, type Db } from '../../db';
import { AppError } from '../../http/errors';
import {
  addPeopleRow,
  addTeamReviewers,
  effectivePeopleRows,
  noPeople,
  taskContextColumns,
  taskContextOf,
  taskRowColumns,
  type EffectivePeople,
  type TaskContext,
  type TaskContextColumns,
  type TaskScope,
} from './context';
import { at, idList, rowsOf } from './sql';
import { membersOfTeams, type StageReview } from './teams';

export type { EffectivePeople } from './context';

const { memberships } = schema;

export type TaskRow = typeof schema.tasks.$inferSelect;

/** What the engine needs of one locked task, read from the database, plus who may work on it. */
export type EngineTask = {
  row: TaskRow;
  state: TTaskState;
  ctx: TTaskContext;
  assignees: number[];
  /** Teams and review rules: the task's people with their teams, and the stage's rules. */
  people: EffectivePeople;
  review: StageReview;
  /** Current workspace members of the task's teams and its stage's rule teams, by team. */
  members: Map<number, number[]>;
  /** Names of the task's teams, by id (notifications name them). */
  teamNames: Map<number, string>;
  /** The comments of the latest round's reactions, in order, kept up to date by `persist`. */
  roundComments: [string, string][];
};

const httpCode = { 400: 'bad_request', 403: 'permission_denied', 409: 'conflict' } as const;

/** An engine refusal as the API answers it: the status of `TaskErrorStatus`, the rule in `rule`. */
export function taskError(code: TTaskErrorCode): AppError {
  return new AppError(httpCode[TaskErrorStatus[code]], TaskErrorMessages[code], {}, {}, { rule: code });
}

/**
 * The effective assignees and reviewers of tasks (stage defaults while `use_stage_defaults`, else
 * their own), keeping only current members of the workspace, by task id.
 */
export async function effectivePeople(
  db: Db,
  workspaceId: number,
  taskIds: number[],
): Promise<Map<number, EffectivePeople>> {
  const result = new Map<number, EffectivePeople>(taskIds.map((id) => [id, noPeople()]));
  if (taskIds.length === 0) return result;
  const rows = await rowsOf<{ task_id: number; which: string; id: number }>(
    db,
    sql`${effectivePeopleRows(idList(taskIds), sql`${workspaceId}`)} order by 1, 3`,
  );
  for (const row of rows) addPeopleRow(result.get(row.task_id)!, row.which, row.id);
  const members = await membersOfTeams(
    db,
    workspaceId,
    [...result.values()].flatMap((t) => t.reviewerTeams),
  );
  for (const entry of result.values()) addTeamReviewers(entry, members);
  return result;
}

/** The engine's view of a task from its row and context. */
export function engineTask(row: TaskRow, context: TaskContext): EngineTask {
  return {
    row,
    state: { status: row.status, reviewers: context.people.reviewers, iteration: context.iteration },
    ctx: { rules: context.rules, predecessors: context.predecessors, reviewRules: context.reviewRules },
    assignees: context.people.assignees,
    people: context.people,
    review: context.review,
    members: context.members,
    teamNames: new Map([...context.teams.values()].map((t) => [t.id, t.name])),
    roundComments: [...context.roundComments],
  };
}

/**
 * Locks the task and, for a reject's `return_to`, the unit's tasks at those stages (`SELECT … FOR
 * UPDATE` in id order, after `lockTaskUnit`), each read with its context in the same statement.
 * The context is read after the unit lock was taken, so it sees every earlier action on the unit.
 */
export async function lockTasks(
  tx: Db,
  scope: TaskScope,
  returnToStages: readonly number[],
): Promise<Map<number, EngineTask>> {
  const others = returnToStages.length > 0 ? sql` or tk.stage_id in (${idList(returnToStages)})` : sql``;
  const rows = await preparedRowsOf<TaskRow & TaskContextColumns>(
    tx,
    `task_lock_${returnToStages.length}`,
    sql`select ${taskRowColumns}, ${taskContextColumns(sql`${scope.workspaceId}::integer`)}
      from tasks tk where tk.unit_id = ${scope.unitId} and (tk.id = ${scope.taskId}${others})
      order by tk.id for update of tk`,
  );
  const locked = new Map<number, EngineTask>();
  for (const { stage, effective, members, teams, iteration, ...raw } of rows) {
    const context = taskContextOf({ stage, effective, members, teams, iteration });
    if (context) locked.set(raw.id, engineTask(taskRowOf(raw), context));
  }
  return locked;
}

/** A task row read by raw SQL (`taskRowColumns`): timestamps as dates whatever the driver gives. */
export function taskRowOf(raw: TaskRow): TaskRow {
  const date = (value: Date | string | null) => (value === null ? null : new Date(value));
  return {
    ...raw,
    dueDate: date(raw.dueDate),
    readyAt: date(raw.readyAt),
    effectiveDue: date(raw.effectiveDue),
    remindedAt: date(raw.remindedAt),
    createdAt: new Date(raw.createdAt),
    updatedAt: new Date(raw.updatedAt),
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
  if (next?.number !== prev?.number) task.roundComments = [];
  if ((action.type === 'accept' || action.type === 'reject') && action.comment) {
    task.roundComments.push([action.type, action.comment]);
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
