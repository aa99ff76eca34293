import { and, asc, eq, sql } from 'drizzle-orm';
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
  type TTaskStatus,
} from '@stageline/shared';
import { schema, type Db } from '../../db';
import { AppError } from '../../http/errors';
import { rulesOf } from './create';
import { rowsOf } from './sql';

const { tasks, stages, stageEdges, taskIterations, taskReactions, taskHistory, memberships } = schema;

export type TaskRow = typeof tasks.$inferSelect;

/** What the engine needs of one locked task, read from the database, plus who may work on it. */
export type EngineTask = {
  row: TaskRow;
  state: TTaskState;
  ctx: TTaskContext;
  assignees: number[];
};

const httpCode = { 400: 'bad_request', 403: 'permission_denied', 409: 'conflict' } as const;

/** An engine refusal as the API answers it: the status of `TaskErrorStatus`, the rule in `rule`. */
export function taskError(code: TTaskErrorCode): AppError {
  return new AppError(httpCode[TaskErrorStatus[code]], TaskErrorMessages[code], {}, {}, { rule: code });
}

const asStatus = (value: string) => value as TTaskStatus;

/**
 * The effective assignees and reviewers of tasks (stage defaults while `use_stage_defaults`, else
 * their own), keeping only current members of the workspace, by task id.
 */
export async function effectivePeople(
  db: Db,
  workspaceId: number,
  taskIds: number[],
): Promise<Map<number, { assignees: number[]; reviewers: number[] }>> {
  const result = new Map(taskIds.map((id) => [id, { assignees: [] as number[], reviewers: [] as number[] }]));
  if (taskIds.length === 0) return result;
  const ids = sql.join(
    taskIds.map((id) => sql`${id}`),
    sql`, `,
  );
  const rows = await rowsOf<{ task_id: number; which: string; user_id: number }>(
    db,
    sql`
    select p.task_id, p.which, p.user_id from (
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
    order by p.task_id, p.user_id`,
  );
  for (const row of rows) {
    const entry = result.get(row.task_id)!;
    (row.which === 'a' ? entry.assignees : entry.reviewers).push(row.user_id);
  }
  return result;
}

/** The latest round of a task with its reactions in the order they came. */
export async function loadIteration(db: Db, taskId: number, number: number): Promise<TIteration | null> {
  if (number === 0) return null;
  const [row] = await db
    .select()
    .from(taskIterations)
    .where(and(eq(taskIterations.taskId, taskId), eq(taskIterations.number, number)));
  if (!row) return null;
  const reactions = await db
    .select({ userId: taskReactions.userId, verdict: taskReactions.verdict })
    .from(taskReactions)
    .where(and(eq(taskReactions.taskId, taskId), eq(taskReactions.iteration, number)))
    .orderBy(asc(taskReactions.createdAt), asc(taskReactions.userId));
  return {
    number,
    acceptedBy: reactions.filter((r) => r.verdict === 'accept').map((r) => r.userId),
    rejectedBy: reactions.filter((r) => r.verdict === 'reject').map((r) => r.userId),
    returnTo: row.returnTo,
    closed: row.closed,
    outcome: (row.outcome as TIteration['outcome']) ?? null,
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
    .where(
      and(
        eq(tasks.unitId, unitId),
        sql`${tasks.id} in (${sql.join(
          taskIds.map((id) => sql`${id}`),
          sql`, `,
        )})`,
      ),
    )
    .orderBy(asc(tasks.id))
    .for('update');
  return new Map(rows.map((row) => [row.id, row]));
}

/** Builds `TTaskState` and `TTaskContext` of a locked task from the database. */
export async function engineTask(tx: Db, row: TaskRow, workspaceId: number): Promise<EngineTask> {
  const [stage] = await tx.select().from(stages).where(eq(stages.id, row.stageId));
  if (!stage) throw new AppError('not_found');
  const predecessors = await tx
    .select({ id: stageEdges.sourceId })
    .from(stageEdges)
    .innerJoin(stages, and(eq(stages.id, stageEdges.sourceId), eq(stages.kind, 'stage')))
    .where(eq(stageEdges.targetId, row.stageId))
    .orderBy(asc(stageEdges.sourceId));
  const people = (await effectivePeople(tx, workspaceId, [row.id])).get(row.id)!;
  return {
    row,
    state: {
      status: asStatus(row.status),
      reviewers: people.reviewers,
      iteration: await loadIteration(tx, row.id, row.iterationNumber),
    },
    ctx: { rules: rulesOf(stage), predecessors: predecessors.map((p) => p.id) },
    assignees: people.assignees,
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
  if (result.state.status !== task.state.status || (next?.number ?? 0) !== task.row.iterationNumber) {
    await tx
      .update(tasks)
      .set({ status: result.state.status, iterationNumber: next?.number ?? 0, updatedAt: now })
      .where(eq(tasks.id, taskId));
  }
  if (prev && !prev.closed && next && next.number !== prev.number) {
    await tx
      .update(taskIterations)
      .set({ closed: true, outcome: 'overridden', closedAt: now })
      .where(and(eq(taskIterations.taskId, taskId), eq(taskIterations.number, prev.number)));
  }
  if (
    next &&
    (next.number !== prev?.number || next.closed !== prev.closed || next.returnTo.length !== prev.returnTo.length)
  ) {
    const values = {
      returnTo: next.returnTo,
      closed: next.closed,
      outcome: next.outcome,
      closedAt: next.closed ? now : null,
    };
    await tx
      .insert(taskIterations)
      .values({ taskId, number: next.number, createdAt: now, ...values })
      .onConflictDoUpdate({ target: [taskIterations.taskId, taskIterations.number], set: values });
  }
  if ((action.type === 'accept' || action.type === 'reject') && next) {
    // The primary key (task, round, reviewer) refuses a second reaction even if a race got past the engine.
    await tx
      .insert(taskReactions)
      .values({ taskId, iteration: next.number, userId: action.actor, verdict: action.type, createdAt: now });
  }
  if (result.history.length > 0) {
    await tx.insert(taskHistory).values(
      result.history.map((entry) => ({
        taskId,
        action: entry.action,
        fromStatus: entry.from,
        toStatus: entry.to,
        iteration: entry.iteration,
        actorId: entry.actor ?? actorId,
        comment: entry.comment ?? null,
        createdAt: now,
      })),
    );
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
