import { sql, type SQL } from 'drizzle-orm';
import type { TNotification } from '@stageline/shared';
import { rowsOf, type Db } from '../../db';

/** Comment excerpts in notifications are at most this long. */
export const ExcerptLength = 300;

/** The first `ExcerptLength` characters of a text, with an ellipsis when cut. */
export function excerpt(text: string, max = ExcerptLength): string {
  const chars = [...text.trim()];
  return chars.length <= max ? chars.join('') : `${chars.slice(0, max - 1).join('')}…`;
}

/**
 * A notification as the API and the live stream show it (`ZNotification`), as a JSON value built in
 * SQL: the task named by its unit and stage, the unit with its project, the workspace and the actor
 * (named as `personName` names people). `from` names the rows (a table or a CTE) with the
 * notifications' columns; `notificationJoins` must follow it. One definition for the list and for
 * `notify`'s live events, so both say the same.
 */
export const notificationJson = (from: string) =>
  sql.raw(`jsonb_build_object('id', ${from}.id, 'kind', ${from}.kind, 'read', ${from}.read_at is not null,
    'created_at', to_char(${from}.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    'task', case when ${from}.task_id is null then null else jsonb_build_object('id', ${from}.task_id,
      'unit', coalesce(n_task_unit.name, ''), 'stage', coalesce(n_stage.name, '')) end,
    'unit', case when n_unit.id is null then null
      else jsonb_build_object('id', n_unit.id, 'name', n_unit.name, 'project', n_unit.project_id) end,
    'workspace', case when n_workspace.id is null then null
      else jsonb_build_object('id', n_workspace.id, 'name', n_workspace.name) end,
    'comment', ${from}.comment_id,
    'actor', case when n_actor.id is null then null else jsonb_build_object('id', n_actor.id,
      'name', coalesce(nullif(concat_ws(' ', nullif(n_actor.first_name, ''), nullif(n_actor.last_name, '')), ''),
        n_actor.username),
      'username', n_actor.username) end,
    'text', ${from}.text)`);

/** The joins `notificationJson(from)` reads. */
export const notificationJoins = (from: string) =>
  sql.raw(`left join tasks n_task on n_task.id = ${from}.task_id
    left join units n_task_unit on n_task_unit.id = n_task.unit_id
    left join stages n_stage on n_stage.id = n_task.stage_id
    left join units n_unit on n_unit.id = ${from}.unit_id
    left join workspaces n_workspace on n_workspace.id = ${from}.workspace_id
    left join users n_actor on n_actor.id = ${from}.actor_id`);

/** Notifications matching `where` (over the `notifications` table), newest first, with their total. */
export async function loadNotifications(
  db: Db,
  where: SQL,
  page: { limit?: number; offset?: number } = {},
): Promise<{ total: number; results: TNotification[] }> {
  const limit = page.limit === undefined ? sql`` : sql` limit ${page.limit}`;
  const offset = page.offset === undefined ? sql`` : sql` offset ${page.offset}`;
  const rows = await rowsOf<{ n: TNotification; total: number }>(
    db,
    sql`select ${notificationJson('notifications')} as n, count(*) over ()::int as total
      from notifications ${notificationJoins('notifications')}
      where ${where} order by notifications.id desc${limit}${offset}`,
  );
  return { total: Number(rows[0]?.total ?? 0), results: rows.map((row) => row.n) };
}
