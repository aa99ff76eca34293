import { sql, type SQL } from 'drizzle-orm';
import { can, canLogTime, personName, Roles, TimeLimits, type TRole, type TTimeEvent } from '@stageline/shared';
import {
  TimeMessages,
  type TTimeLog,
  type TTimeLogCreate,
  type TTimeLogPatch,
  type TTimeLogQuery,
} from '@stageline/shared/time';
import { rowsOf, type Db } from '../../db';
import { AppError, FieldError } from '../../http/errors';
import { publishWithWebhooks } from '../events';
import { effectivePeopleRows } from '../tasks';
import { actorIn, authorize } from '../workspaces';
import { authorizeProject } from '../projects';

/**
 * Time logs (docs/time.md; the timer, which ends in a log, is `timer.ts`). Logging is one transaction of at most five statements:
 * BEGIN; the task's scope with the caller's role and involvement, under an advisory lock on the
 * person's day (so two logs of the same day cannot both pass the 24 h check); the log's upsert with
 * the day check, its history row and the answer's names in one statement; the live event with the
 * webhook deliveries; COMMIT.
 */

/** Roles that see and change everyone's time (`time.moderate`). */
const moderators = Roles.filter((role) => can(role, 'time', 'moderate'));
const moderatorList = sql.raw(moderators.map((role) => `'${role}'`).join(', '));

type LogRow = {
  id: number;
  date: string;
  hours: number;
  note: string;
  userId: number;
  username: string;
  firstName: string;
  lastName: string;
  taskId: number;
  unitName: string;
  stageName: string;
  estimate: number | null;
  projectId: number;
  projectName: string;
  workspaceId: number;
  createdAt: string | Date;
  updatedAt: string | Date;
};

/** The answer's columns over a time log `tl` (a table or a CTE of its rows) and its names. */
const logSelect = (from: SQL) => sql`
  select tl.id, tl.date::text as date, tl.hours::float8 as hours, tl.note, tl.user_id as "userId",
    us.username, us.first_name as "firstName", us.last_name as "lastName", tl.task_id as "taskId",
    un.name as "unitName", st.name as "stageName", tk.estimate_hours::float8 as estimate,
    tl.project_id as "projectId", pr.name as "projectName", tl.workspace_id as "workspaceId",
    tl.created_at as "createdAt", tl.updated_at as "updatedAt"
  from ${from} tl join users us on us.id = tl.user_id join tasks tk on tk.id = tl.task_id
  join units un on un.id = tk.unit_id join stages st on st.id = tk.stage_id join projects pr on pr.id = tl.project_id`;

export const iso = (value: string | Date) => new Date(value).toISOString();

function present(row: LogRow): TTimeLog {
  return {
    id: row.id,
    date: row.date,
    hours: row.hours,
    note: row.note,
    person: { id: row.userId, name: personName(row) },
    task: { id: row.taskId, unit: row.unitName, stage: row.stageName, estimate_hours: row.estimate },
    project: { id: row.projectId, name: row.projectName },
    workspace: row.workspaceId,
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
  };
}

/** Today's date in UTC (YYYY-MM-DD), and `days` after a date. */
export const utcDay = (at: Date) => at.toISOString().slice(0, 10);
function addDays(day: string, days: number): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return utcDay(date);
}
function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

/** The advisory lock of one person's day (docs/time.md): logs of that day serialize on it. */
const dayLock = (userId: SQL | number, date: SQL | string) =>
  sql`pg_advisory_xact_lock(hashtextextended('stageline.time:' || ${userId}::text || ':' || ${date}::text, 0))`;

type TaskScope = {
  taskId: number;
  projectId: number;
  workspaceId: number;
  projectDay: string;
  role: TRole;
  involved: boolean;
};

/**
 * The task as the caller may see it (no row: 404), its project's first day, the caller's role and
 * whether they are an assignee or reviewer (directly, by the stage's defaults or through a team);
 * with `lockDay`, takes the lock of the caller's day. One statement.
 */
export async function taskScope(
  tx: Db,
  { userId, taskId, lockDay }: { userId: number; taskId: number; lockDay?: string },
) {
  const workspace = sql`project_.workspace_id`;
  const [row] = await rowsOf<TaskScope & { locked?: unknown }>(
    tx,
    sql`select tk.id as "taskId", unit_.project_id as "projectId", project_.workspace_id as "workspaceId",
        (project_.created_at at time zone 'UTC')::date::text as "projectDay", caller_.role,
        exists (select 1 from (${effectivePeopleRows(sql`tk.id`, workspace)}) q
          where (q.which in ('a', 'r') and q.id = ${userId})
             or (q.which in ('ta', 'tr') and q.id in (select tm.team_id from team_members tm where tm.user_id = ${userId})))
          as involved
        ${lockDay === undefined ? sql`` : sql`, ${dayLock(userId, lockDay)} is null as locked`}
      from tasks tk join units unit_ on unit_.id = tk.unit_id
      join projects project_ on project_.id = unit_.project_id
      join memberships caller_ on caller_.workspace_id = project_.workspace_id and caller_.user_id = ${userId}
      where tk.id = ${taskId}`,
  );
  if (!row) throw new AppError('not_found');
  if (!canLogTime(row.role, row.involved)) throw new AppError('permission_denied', TimeMessages.mayNotLog);
  return row;
}

/** Refuses a day before the project (a day's grace for time zones) or more than a year ahead. */
export function assertDay(date: string, projectDay: string, now: Date): void {
  if (date < addDays(projectDay, -1)) throw new FieldError({ date: [TimeMessages.beforeProject] });
  if (date > addDays(utcDay(now), TimeLimits.futureDays)) throw new FieldError({ date: [TimeMessages.tooFarAhead] });
}

const dayFull = (date: string) => new AppError('bad_request', TimeMessages.dayFull, { date });

/** The history row of a change of a person's day on a task (`log_time`), as a CTE over `source`. */
const historyOf = (source: string, hours: SQL, now: Date) => sql`
  insert into task_history (task_id, action, actor_id, comment, log_date, log_hours, created_at)
  select s.task_id, 'log_time', s.user_id, nullif(s.note, ''), s.date, ${hours}, ${now.toISOString()}::timestamptz
  from ${sql.raw(source)} s returning 1`;

/**
 * The change in the record history (docs/history-and-audit.md) of a person's day on a task, as a
 * CTE over `source` in the statement of the change: `old` and `hours` over `s`, the person, day
 * and hours before and after. Its live `time` event tells open timelines.
 */
const recordOf = (source: string, { actorId, old, hours }: { actorId: number; old: SQL; hours: SQL }) => sql`
  insert into record_history (workspace_id, unit_id, task_id, actor_id, field, old_value, new_value)
  select s.workspace_id, t.unit_id, s.task_id, ${actorId}::integer, 'time_logged',
    jsonb_build_object('person', s.user_id, 'date', s.date::text, 'hours', ${old}),
    jsonb_build_object('person', s.user_id, 'date', s.date::text, 'hours', ${hours})
  from ${sql.raw(source)} s join tasks t on t.id = s.task_id returning 1`;

/** The live event and the webhook of a change, in one statement (docs/live-updates.md). */
async function announce(tx: Db, log: TTimeLog, action: TTimeEvent['action']): Promise<void> {
  const data: TTimeEvent = {
    task: log.task.id,
    person: log.person.id,
    date: log.date,
    hours: action === 'deleted' ? 0 : log.hours,
    action,
  };
  await publishWithWebhooks(tx, {
    workspaceId: log.workspace,
    live: [{ audience: { workspace: log.workspace }, event: { type: 'time', data } }],
    webhooks: [{ event: `time.${action}`, data: { log: { ...log, ...(action === 'deleted' ? { hours: 0 } : {}) } } }],
  });
}

/** Adds `hours` to the person's day on the task (a new row or the day's row), within 24 h a day. */
export async function addTime(
  tx: Db,
  { scope, userId, input, now }: { scope: TaskScope; userId: number; input: TTimeLogCreate; now: Date },
): Promise<TTimeLog> {
  const at = now.toISOString();
  const [row] = await rowsOf<LogRow>(
    tx,
    sql`with day as (
        select coalesce(sum(hours), 0) as total from time_logs where user_id = ${userId} and date = ${input.date}::date),
      up as (
        insert into time_logs (workspace_id, project_id, task_id, user_id, date, hours, note, created_at, updated_at)
        select ${scope.workspaceId}, ${scope.projectId}, ${scope.taskId}, ${userId}, ${input.date}::date,
          ${input.hours}::numeric, ${input.note ?? ''}, ${at}::timestamptz, ${at}::timestamptz
        from day where day.total + ${input.hours}::numeric <= ${TimeLimits.dayHours.max}
        on conflict (user_id, task_id, date) do update set hours = time_logs.hours + excluded.hours,
          note = case when excluded.note = '' then time_logs.note else excluded.note end,
          updated_at = excluded.updated_at
        returning *),
      history as (${historyOf('up', sql`s.hours`, now)}),
      changes as (${recordOf('up', { actorId: userId, old: sql`s.hours - ${input.hours}::numeric`, hours: sql`s.hours` })})
      ${logSelect(sql`up`)}`,
  );
  if (!row) throw dayFull(input.date);
  const log = present(row);
  await announce(tx, log, 'logged');
  return log;
}

/**
 * POST tasks/{id}/time/: the caller's hours on a day (docs/time.md); a second post for the same
 * day adds to it. Assignees and reviewers of the task, and Members on any task they see.
 */
export async function logTime(
  db: Db,
  { userId, taskId, input }: { userId: number; taskId: number; input: TTimeLogCreate },
): Promise<TTimeLog> {
  const now = new Date();
  return db.transaction(async (tx) => {
    const scope = await taskScope(tx, { userId, taskId, lockDay: input.date });
    assertDay(input.date, scope.projectDay, now);
    return addTime(tx, { scope, userId, input, now });
  });
}

type OwnedLog = { id: number; userId: number; date: string; taskId: number; role: TRole };

/**
 * A log the caller may change, locked with its person's day: 404 outside the caller's workspaces,
 * 403 when it is someone else's and the caller is no Admin. One statement.
 */
async function lockOwnedLog(tx: Db, { userId, logId }: { userId: number; logId: number }): Promise<OwnedLog> {
  const [row] = await rowsOf<OwnedLog & { locked: unknown }>(
    tx,
    sql`select tl.id, tl.user_id as "userId", tl.date::text as date, tl.task_id as "taskId", m.role,
        ${dayLock(sql`tl.user_id`, sql`tl.date`)} is null as locked
      from time_logs tl join memberships m on m.workspace_id = tl.workspace_id and m.user_id = ${userId}
      where tl.id = ${logId} for update of tl`,
  );
  if (!row) throw new AppError('not_found');
  if (row.userId !== userId && !can(row.role, 'time', 'moderate'))
    throw new AppError('permission_denied', TimeMessages.notYours);
  return row;
}

/** PATCH time/{id}/: the day's hours (replaced) or the note; one's own, Admins anyone's. */
export async function updateTimeLog(
  db: Db,
  { userId, logId, patch }: { userId: number; logId: number; patch: TTimeLogPatch },
): Promise<TTimeLog> {
  const now = new Date();
  return db.transaction(async (tx) => {
    const owned = await lockOwnedLog(tx, { userId, logId });
    const hours = patch.hours === undefined ? sql`tl.hours` : sql`${patch.hours}::numeric`;
    const [row] = await rowsOf<LogRow>(
      tx,
      sql`with day as (
          select coalesce(sum(hours), 0) as total from time_logs
          where user_id = ${owned.userId} and date = ${owned.date}::date and id <> ${logId}),
        before as (select hours from time_logs where id = ${logId}),
        up as (
          update time_logs tl set hours = ${hours}, note = ${patch.note === undefined ? sql`tl.note` : patch.note},
            updated_at = ${now.toISOString()}::timestamptz
          from day where tl.id = ${logId} and day.total + ${hours} <= ${TimeLimits.dayHours.max}
          returning tl.*),
        history as (${historyOf('up', sql`s.hours`, now)}),
        changes as (${recordOf('up', { actorId: userId, old: sql`(select hours from before)`, hours: sql`s.hours` })})
        ${logSelect(sql`up`)}`,
    );
    if (!row) throw dayFull(owned.date);
    const log = present(row);
    await announce(tx, log, 'updated');
    return log;
  });
}

/** DELETE time/{id}/: one's own, Admins anyone's; the task's history records the day as 0 h. */
export async function deleteTimeLog(db: Db, { userId, logId }: { userId: number; logId: number }): Promise<void> {
  const now = new Date();
  await db.transaction(async (tx) => {
    await lockOwnedLog(tx, { userId, logId });
    const [row] = await rowsOf<LogRow>(tx, sql`${logSelect(sql`time_logs`)} where tl.id = ${logId}`);
    await tx.execute(sql`with gone as (delete from time_logs where id = ${logId} returning *),
      history as (${historyOf('gone', sql`0`, now)}),
      changes as (${recordOf('gone', { actorId: userId, old: sql`s.hours`, hours: sql`0` })}) select 1`);
    await announce(tx, present(row!), 'deleted');
  });
}

/**
 * The logs a list or an export may show: in the caller's workspaces, their own, and everyone's
 * where the caller is an Admin (docs/time.md); filtered by workspace, project, person, task and
 * dates (`from`–`to`, both included, at most `maxDays` days).
 */
async function visibleLogs(
  db: Db,
  { userId, query, maxDays }: { userId: number; query: TTimeLogQuery; maxDays: number },
): Promise<TTimeLog[]> {
  const span = daysBetween(query.from, query.to);
  if (span < 0) throw new FieldError({ to: [TimeMessages.rangeOrder] });
  if (span >= maxDays) throw new AppError('bad_request', TimeMessages.rangeTooLong, { max: maxDays });
  if (query.workspace !== undefined) authorize(await actorIn(db, userId, query.workspace), 'workspace', 'view');
  if (query.project !== undefined) await authorizeProject(db, { userId, projectId: query.project, action: 'view' });
  const person = query.person === 'me' ? userId : query.person;
  const conditions: SQL[] = [
    sql`tl.date between ${query.from}::date and ${query.to}::date`,
    sql`(tl.user_id = ${userId} or tl.workspace_id in (select m.workspace_id from memberships m
      where m.user_id = ${userId} and m.role in (${moderatorList})))`,
    sql`tl.workspace_id in (select m.workspace_id from memberships m where m.user_id = ${userId})`,
  ];
  if (query.workspace !== undefined) conditions.push(sql`tl.workspace_id = ${query.workspace}`);
  if (query.project !== undefined) conditions.push(sql`tl.project_id = ${query.project}`);
  if (person !== undefined) conditions.push(sql`tl.user_id = ${person}`);
  if (query.task !== undefined) conditions.push(sql`tl.task_id = ${query.task}`);
  const rows = await rowsOf<LogRow>(
    db,
    sql`${logSelect(sql`time_logs`)} where ${sql.join(conditions, sql` and `)}
      order by tl.date, us.username, pr.name, un.name, st.name, tl.id`,
  );
  return rows.map(present);
}

/** GET time/: see `visibleLogs`; at most `TimeLimits.listDays` days. */
export async function listTimeLogs(db: Db, { userId, query }: { userId: number; query: TTimeLogQuery }) {
  return { results: await visibleLogs(db, { userId, query, maxDays: TimeLimits.listDays }) };
}

/** GET time/export.csv: the same rows as CSV (at most `TimeLimits.exportDays` days). */
export async function exportTimeLogs(db: Db, { userId, query }: { userId: number; query: TTimeLogQuery }) {
  const logs = await visibleLogs(db, { userId, query, maxDays: TimeLimits.exportDays });
  return {
    filename: `time-${query.from}-${query.to}.csv`,
    header: ['date', 'person', 'project', 'unit', 'stage', 'task', 'hours', 'estimate', 'note'],
    rows: logs.map((log) => [
      log.date,
      log.person.name,
      log.project.name,
      log.task.unit,
      log.task.stage,
      String(log.task.id),
      String(log.hours),
      log.task.estimate_hours === null ? '' : String(log.task.estimate_hours),
      log.note,
    ]),
  };
}
