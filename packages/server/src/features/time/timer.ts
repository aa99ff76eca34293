import { sql } from 'drizzle-orm';
import { TimeLimits } from '@stageline/shared';
import { TimeMessages, timerHours, type TTimeLog, type TTimerState } from '@stageline/shared/time';
import { rowsOf, type Db } from '../../db';
import { AppError } from '../../http/errors';
import { addTime, assertDay, iso, taskScope, utcDay } from './service';

/**
 * The timer (docs/time.md): one running per person, in `timers`; stopping it adds its time to the
 * day's log through the same path as logging by hand (`addTime`).
 */

type TimerRow = {
  taskId: number;
  unitName: string;
  stageName: string;
  projectId: number;
  projectName: string;
  startedAt: string | Date;
};

/** The caller's running timer with the names it shows; only in workspaces they are still in. */
async function timerOf(db: Db, userId: number): Promise<TimerRow | undefined> {
  const [row] = await rowsOf<TimerRow>(
    db,
    sql`select ti.task_id as "taskId", un.name as "unitName", st.name as "stageName", pr.id as "projectId",
        pr.name as "projectName", ti.started_at as "startedAt"
      from timers ti join tasks tk on tk.id = ti.task_id join units un on un.id = tk.unit_id
      join stages st on st.id = tk.stage_id join projects pr on pr.id = un.project_id
      join memberships m on m.workspace_id = pr.workspace_id and m.user_id = ti.user_id
      where ti.user_id = ${userId}`,
  );
  return row;
}

const presentTimer = (row: TimerRow | undefined): TTimerState => ({
  timer: row
    ? {
        task: { id: row.taskId, unit: row.unitName, stage: row.stageName },
        project: { id: row.projectId, name: row.projectName },
        started_at: iso(row.startedAt),
      }
    : null,
});

/** GET timer/: the caller's running timer, or null. */
export async function currentTimer(db: Db, { userId }: { userId: number }): Promise<TTimerState> {
  return presentTimer(await timerOf(db, userId));
}

/** POST tasks/{id}/timer/start/: one running timer per person (409 while another runs). */
export async function startTimer(db: Db, { userId, taskId }: { userId: number; taskId: number }) {
  await db.transaction(async (tx) => {
    await taskScope(tx, { userId, taskId });
    const inserted = await rowsOf<{ userId: number }>(
      tx,
      sql`insert into timers (user_id, task_id, started_at) values (${userId}, ${taskId}, now())
        on conflict (user_id) do nothing returning user_id as "userId"`,
    );
    if (inserted.length === 0) throw new AppError('conflict', TimeMessages.timerRunning);
  });
  return currentTimer(db, { userId });
}

/**
 * POST timer/stop/: the elapsed time, rounded up to a quarter hour, is added to the caller's day
 * `date` (the client's today; UTC's when not given) on the timer's task, as a log would be.
 */
export async function stopTimer(
  db: Db,
  { userId, date, note }: { userId: number; date?: string; note?: string },
): Promise<{ log: TTimeLog }> {
  const now = new Date();
  const day = date ?? utcDay(now);
  return db.transaction(async (tx) => {
    const [timer] = await rowsOf<{ taskId: number; startedAt: string | Date }>(
      tx,
      sql`delete from timers where user_id = ${userId} returning task_id as "taskId", started_at as "startedAt"`,
    );
    if (!timer) throw new AppError('conflict', TimeMessages.noTimer);
    const scope = await taskScope(tx, { userId, taskId: timer.taskId, lockDay: day });
    assertDay(day, scope.projectDay, now);
    const hours = Math.min(timerHours(now.getTime() - new Date(timer.startedAt).getTime()), TimeLimits.dayHours.max);
    const log = await addTime(tx, { scope, userId, input: { date: day, hours, ...(note ? { note } : {}) }, now });
    return { log };
  });
}

/** DELETE timer/: the running timer is dropped without a log. */
export async function discardTimer(db: Db, { userId }: { userId: number }): Promise<void> {
  const gone = await rowsOf<{ userId: number }>(
    db,
    sql`delete from timers where user_id = ${userId} returning user_id as "userId"`,
  );
  if (gone.length === 0) throw new AppError('conflict', TimeMessages.noTimer);
}
