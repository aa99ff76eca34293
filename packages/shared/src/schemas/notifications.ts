import { z } from 'zod';
import { ZTimeEvent } from './time-core';
import { ZOffset, ZPageLimit } from '../validation';
import { ZComment } from './comments';
import { ZTaskStatus, ZUserRef } from './units';

/**
 * In-app notifications (docs/rules.md §Notifications) and the live event stream (docs/rules.md §API `GET events/`).
 * The message a person reads is built from `kind` on the client (i18n) and in e-mail digests
 * (the recipient's language); `text` carries the extra words: a comment excerpt, a reject comment.
 */

export const NotificationKinds = [
  /** You were made an assignee of a task. */
  'assigned',
  /** You were made a reviewer of a task. */
  'reviewer_added',
  /** A task you review was submitted and awaits your reaction. */
  'review_requested',
  /** Your task was accepted (its round closed as done). */
  'accepted',
  /** Your task was rejected (sent to Edit or back to earlier stages). */
  'rejected',
  /** A comment on a unit or task you are assigned to, review, or commented on. */
  'comment',
  /** You were mentioned (`@username`) in a comment. */
  'mention',
  /** You were invited to a workspace. */
  'invited',
  /** A webhook of a workspace you administer was turned off after a day of failed deliveries. */
  'webhook_disabled',
  /** A webhook of a workspace you administer was paused after failed tries in a row. */
  'webhook_paused',
] as const;
export const ZNotificationKind = z.enum(NotificationKinds);
export type TNotificationKind = z.infer<typeof ZNotificationKind>;

const ZRef = z.object({ id: z.number().int(), name: z.string() });

export const ZNotification = z.object({
  id: z.number().int(),
  kind: ZNotificationKind,
  read: z.boolean(),
  created_at: z.string(),
  /** The task, named `unit · stage` by the client from these parts. */
  task: z.object({ id: z.number().int(), unit: z.string(), stage: z.string() }).nullable(),
  unit: ZRef.extend({ project: z.number().int() }).nullable(),
  workspace: ZRef.nullable(),
  /** The comment that caused it (kinds `comment`, `mention`). */
  comment: z.number().int().nullable(),
  /** Who caused it; null for the system or a deleted account. */
  actor: ZUserRef.nullable(),
  text: z.string(),
});
export type TNotification = z.infer<typeof ZNotification>;

/** GET notifications/?read=false (newest first); `unread` is the caller's unread total. */
export const ZNotificationListQuery = z.object({
  read: z.enum(['true', 'false']).optional(),
  offset: ZOffset,
  limit: ZPageLimit,
});
/** POST notifications/read_all/?task=…: only the notifications about one task (its screen was opened). */
export const ZReadAllQuery = z.object({
  task: z.coerce.number().int().positive().max(2_147_483_647).optional(),
});
export const ZNotificationList = z.object({
  count: z.number().int(),
  next: z.number().int().nullable(),
  unread: z.number().int(),
  results: z.array(ZNotification),
});
export type TNotificationList = z.infer<typeof ZNotificationList>;

/**
 * What `GET events/` streams (`text/event-stream`; each event's `id` is a number to resume from
 * with `Last-Event-ID`). `reset` means the stream could not resume (the id is too old): refetch.
 */
export const ZTaskEvent = z.object({
  id: z.number().int(),
  unit: z.number().int(),
  stage: z.number().int(),
  pipeline: z.number().int(),
  status: ZTaskStatus,
});
export const ZCommentEvent = z.object({
  action: z.enum(['created', 'updated', 'deleted']),
  comment: ZComment,
});
export const ZLiveEvent = z.discriminatedUnion('type', [
  z.object({ type: z.literal('notification'), data: ZNotification }),
  z.object({ type: z.literal('task'), data: ZTaskEvent }),
  z.object({ type: z.literal('comment'), data: ZCommentEvent }),
  z.object({ type: z.literal('units'), data: z.object({ pipeline: z.number().int(), project: z.number().int() }) }),
  /**
   * A file was attached, got its thumbnail (`updated`) or was deleted in the workspace (docs/files.md):
   * file lists and matrix counts refetch.
   */
  z.object({
    type: z.literal('files'),
    data: z.object({ id: z.number().int(), action: z.enum(['created', 'updated', 'deleted']) }),
  }),
  /** A person's time on a task changed (docs/time.md): timesheets and the task's history refetch. */
  z.object({ type: z.literal('time'), data: ZTimeEvent }),
  /** Changes were added to a unit's history, some of them its `tasks`' (docs/history-and-audit.md): timelines refetch. */
  z.object({
    type: z.literal('history'),
    data: z.object({ unit: z.number().int(), tasks: z.array(z.number().int()) }),
  }),
  z.object({ type: z.literal('reset'), data: z.object({}) }),
]);
export type TLiveEvent = z.infer<typeof ZLiveEvent>;
export type TLiveEventType = TLiveEvent['type'];

/** POST users/unsubscribe/ with the token of a digest's link: sets the e-mail frequency to never. */
export const ZUnsubscribe = z.object({ token: z.string().min(10).max(2000) });
