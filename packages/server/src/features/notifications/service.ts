import { and, eq, isNotNull, isNull, sql, type SQL } from 'drizzle-orm';
import type { TNotificationKind, TNotificationList, ZNotificationListQuery } from '@stageline/shared';
import type { z } from 'zod';
import { rowsOf, schema, type Db } from '../../db';
import { AppError } from '../../http/errors';
import { EventsChannel } from '../events';
import { loadNotifications, notificationJoins, notificationJson } from './presenter';

const { notifications } = schema;

export type NotifyOptions = {
  kind: TNotificationKind;
  recipients: readonly number[];
  /** Who caused it: never notified of their own action. */
  actorId: number | null;
  workspaceId: number;
  taskId?: number | null;
  unitId?: number | null;
  commentId?: number | null;
  text?: string;
};

/**
 * Notifies people of changes, in the transaction of the change (docs/rules.md §Notifications): one
 * row per recipient (the actor excluded, each person once per notification, only current members of
 * the workspace except for `invited`) and a `notification` live event to each, all in ONE statement
 * however many notifications (docs/architecture.md, "Statements"). Returns who was notified, per
 * notification.
 */
export async function notifyAll(tx: Db, list: readonly NotifyOptions[]): Promise<number[][]> {
  const rows = list.flatMap((options, index) =>
    [...new Set(options.recipients)]
      .filter((id) => id !== options.actorId)
      .map((user) => ({
        index,
        user,
        kind: options.kind,
        actor: options.actorId,
        workspace: options.workspaceId,
        task: options.taskId ?? null,
        unit: options.unitId ?? null,
        comment: options.commentId ?? null,
        text: options.text ?? '',
      })),
  );
  const notified = list.map((): number[] => []);
  if (rows.length === 0) return notified;
  const inserted = await rowsOf<{ index: number | null; user_id: number | null }>(
    tx,
    sql`with wanted as (
        select w.ord, (w.value->>'index')::int as index, (w.value->>'user')::int as user_id, w.value->>'kind' as kind,
          (w.value->>'actor')::int as actor_id, (w.value->>'workspace')::int as workspace_id,
          (w.value->>'task')::int as task_id, (w.value->>'unit')::int as unit_id,
          (w.value->>'comment')::int as comment_id, w.value->>'text' as text
        from jsonb_array_elements(${JSON.stringify(rows)}::jsonb) with ordinality as w(value, ord)
        where w.value->>'kind' = 'invited' or exists (select 1 from memberships m
          where m.workspace_id = (w.value->>'workspace')::int and m.user_id = (w.value->>'user')::int)),
      noted as (
        insert into notifications (user_id, kind, actor_id, workspace_id, task_id, unit_id, comment_id, text)
        select user_id, kind, actor_id, workspace_id, task_id, unit_id, comment_id, text from wanted order by ord
        returning *),
      published as (
        insert into events (user_id, workspace_id, type, payload)
        select noted.user_id, null, 'notification', ${notificationJson('noted')}
        from noted ${notificationJoins('noted')} order by noted.id
        returning id)
      select w.index, w.user_id, null::text as sent from wanted w
      union all select null, null, pg_notify(${EventsChannel}, id::text)::text from published`,
  );
  for (const row of inserted) if (row.index !== null && row.user_id !== null) notified[row.index]!.push(row.user_id);
  return notified;
}

/** `notifyAll` for one notification. */
export async function notify(tx: Db, options: NotifyOptions): Promise<number[]> {
  const [notified] = await notifyAll(tx, [options]);
  return notified!;
}

/** GET notifications/: the caller's, newest first, with their unread total. */
export async function listNotifications(
  db: Db,
  { userId, query }: { userId: number; query: z.infer<typeof ZNotificationListQuery> },
): Promise<TNotificationList> {
  const where: SQL[] = [eq(notifications.userId, userId)];
  if (query.read === 'true') where.push(isNotNull(notifications.readAt));
  if (query.read === 'false') where.push(isNull(notifications.readAt));
  const page = await loadNotifications(db, and(...where)!, { limit: query.limit, offset: query.offset });
  const count =
    page.results.length > 0 || query.offset === 0
      ? page.total
      : Number(
          (
            await db
              .select({ n: sql<number>`count(*)::int` })
              .from(notifications)
              .where(and(...where))
          )[0]?.n ?? 0,
        );
  const [unread] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(notifications)
    .where(and(eq(notifications.userId, userId), isNull(notifications.readAt)));
  const end = query.offset + page.results.length;
  return { count, next: end < count ? end : null, unread: Number(unread?.n ?? 0), results: page.results };
}

/** POST notifications/{id}/read/ and unread/: only the caller's own (404 otherwise). */
export async function markNotification(
  db: Db,
  { userId, notificationId, read }: { userId: number; notificationId: number; read: boolean },
): Promise<void> {
  const updated = await db
    .update(notifications)
    .set({ readAt: read ? sql`coalesce(${notifications.readAt}, now())` : null })
    .where(and(eq(notifications.id, notificationId), eq(notifications.userId, userId)))
    .returning({ id: notifications.id });
  if (updated.length === 0) throw new AppError('not_found');
}

/** POST notifications/read_all/: every unread notification of the caller, or those about one task. */
export async function markAllRead(db: Db, { userId, taskId }: { userId: number; taskId?: number }): Promise<void> {
  await db
    .update(notifications)
    .set({ readAt: new Date() })
    .where(
      and(
        eq(notifications.userId, userId),
        isNull(notifications.readAt),
        taskId === undefined ? undefined : eq(notifications.taskId, taskId),
      ),
    );
}
