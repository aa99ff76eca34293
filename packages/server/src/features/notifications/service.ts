import { and, eq, inArray, isNotNull, isNull, sql, type SQL } from 'drizzle-orm';
import type { TNotificationKind, TNotificationList, ZNotificationListQuery } from '@stageline/shared';
import type { z } from 'zod';
import { schema, type Db } from '../../db';
import { AppError } from '../../http/errors';
import { publish } from '../events';
import { loadNotifications } from './presenter';

const { notifications, memberships } = schema;

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
 * Notifies people of a change, in the transaction of the change (docs/rules.md §Notifications): one row per
 * recipient (the actor excluded, each person once, only current members of the workspace except for
 * `invited`) and a `notification` live event to each. Returns who was notified.
 */
export async function notify(tx: Db, options: NotifyOptions): Promise<number[]> {
  let recipients = [...new Set(options.recipients)].filter((id) => id !== options.actorId);
  if (recipients.length > 0 && options.kind !== 'invited') {
    const rows = await tx
      .select({ userId: memberships.userId })
      .from(memberships)
      .where(and(eq(memberships.workspaceId, options.workspaceId), inArray(memberships.userId, recipients)));
    const members = new Set(rows.map((r) => r.userId));
    recipients = recipients.filter((id) => members.has(id));
  }
  if (recipients.length === 0) return [];
  const inserted = await tx
    .insert(notifications)
    .values(
      recipients.map((userId) => ({
        userId,
        kind: options.kind,
        actorId: options.actorId,
        workspaceId: options.workspaceId,
        taskId: options.taskId ?? null,
        unitId: options.unitId ?? null,
        commentId: options.commentId ?? null,
        text: options.text ?? '',
      })),
    )
    .returning({ id: notifications.id, userId: notifications.userId });
  const { results } = await loadNotifications(
    tx,
    inArray(
      notifications.id,
      inserted.map((r) => r.id),
    ),
  );
  const byId = new Map(results.map((n) => [n.id, n]));
  for (const row of inserted) {
    const data = byId.get(row.id);
    if (data) await publish(tx, { user: row.userId }, { type: 'notification', data });
  }
  return recipients;
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

/** POST notifications/read_all/: every unread notification of the caller. */
export async function markAllRead(db: Db, { userId }: { userId: number }): Promise<void> {
  await db
    .update(notifications)
    .set({ readAt: new Date() })
    .where(and(eq(notifications.userId, userId), isNull(notifications.readAt)));
}
