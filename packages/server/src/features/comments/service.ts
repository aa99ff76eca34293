import { and, asc, eq, inArray, isNotNull, lt, sql } from 'drizzle-orm';
import {
  mentionedUsernames,
  personName,
  type TComment,
  type TCommentCreate,
  type TCommentList,
  type TUserRef,
  type ZCommentListQuery,
} from '@stageline/shared';
import type { z } from 'zod';
import { schema, type Db } from '../../db';
import { emitWebhookEvents, publish } from '../events';
import { recordHistory } from '../history';
import { excerpt, notify } from '../notifications';
import { effectivePeople } from '../tasks';
import { authorizeComment, authorizeTarget, type CommentRow, type CommentTarget } from './policy';

const { comments, users, memberships, tasks } = schema;

/** The people named by ids, as `ZUserRef`, by id. */
async function peopleOf(db: Db, ids: number[]): Promise<Map<number, TUserRef>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map();
  const rows = await db
    .select({ id: users.id, firstName: users.firstName, lastName: users.lastName, username: users.username })
    .from(users)
    .where(inArray(users.id, unique));
  return new Map(rows.map((u) => [u.id, { id: u.id, name: personName(u), username: u.username }]));
}

/** Comments as the API shows them (`ZComment`), with their authors and mentions, in one more query. */
async function present(db: Db, rows: CommentRow[]): Promise<TComment[]> {
  const people = await peopleOf(
    db,
    rows.flatMap((r) => [...(r.authorId !== null ? [r.authorId] : []), ...r.mentions]),
  );
  return rows.map((row) => ({
    id: row.id,
    task: row.taskId,
    unit: row.unitId,
    author: row.authorId !== null ? (people.get(row.authorId) ?? null) : null,
    text: row.text,
    mentions: row.mentions.flatMap((id) => (people.has(id) ? [people.get(id)!] : [])),
    created_at: row.createdAt.toISOString(),
    edited_at: row.editedAt?.toISOString() ?? null,
  }));
}

/**
 * The members of the workspace a text mentions (`@username`, case-insensitive), in order of first
 * mention; names of non-members and unknown names are ignored.
 */
async function resolveMentions(db: Db, workspaceId: number, text: string): Promise<number[]> {
  const names = mentionedUsernames(text);
  if (names.length === 0) return [];
  const rows = await db
    .select({ id: users.id, username: sql<string>`lower(${users.username})` })
    .from(users)
    .innerJoin(memberships, and(eq(memberships.userId, users.id), eq(memberships.workspaceId, workspaceId)))
    .where(
      inArray(
        sql`lower(${users.username})`,
        names.map((n) => sql`${n}`),
      ),
    );
  const byName = new Map(rows.map((r) => [r.username, r.id]));
  return names.flatMap((name) => (byName.has(name) ? [byName.get(name)!] : []));
}

/**
 * Who hears of a new comment (docs/rules.md §Notifications): the effective assignees and reviewers of the task (of
 * every task of the unit, for a unit comment) and everyone who commented on the same target before.
 */
async function interestedIn(tx: Db, target: CommentTarget, beforeId: number): Promise<number[]> {
  const taskIds =
    target.taskId !== null
      ? [target.taskId]
      : (await tx.select({ id: tasks.id }).from(tasks).where(eq(tasks.unitId, target.unitId!))).map((t) => t.id);
  const people = await effectivePeople(tx, target.workspaceId, taskIds);
  const earlier = await tx
    .selectDistinct({ id: comments.authorId })
    .from(comments)
    .where(
      and(
        target.taskId !== null ? eq(comments.taskId, target.taskId) : eq(comments.unitId, target.unitId!),
        lt(comments.id, beforeId),
        isNotNull(comments.authorId),
      ),
    );
  return [...[...people.values()].flatMap((p) => [...p.assignees, ...p.reviewers]), ...earlier.map((r) => r.id!)];
}

/** The unit a target belongs to, for notifications that name it. */
async function unitOf(tx: Db, target: CommentTarget): Promise<number | null> {
  if (target.unitId !== null) return target.unitId;
  const [row] = await tx.select({ unitId: tasks.unitId }).from(tasks).where(eq(tasks.id, target.taskId!));
  return row?.unitId ?? null;
}

/** The notifications and the live event of a new or edited comment, in its transaction. */
async function announce(
  tx: Db,
  {
    row,
    action,
    target,
    newMentions,
  }: { row: CommentRow; action: 'created' | 'updated'; target: CommentTarget; newMentions: number[] },
): Promise<TComment> {
  const base = {
    actorId: row.authorId,
    workspaceId: row.workspaceId,
    taskId: row.taskId,
    unitId: await unitOf(tx, target),
    commentId: row.id,
    text: excerpt(row.text),
  };
  const mentioned = await notify(tx, { ...base, kind: 'mention', recipients: newMentions });
  if (action === 'created') {
    const interested = await interestedIn(tx, target, row.id);
    const skip = new Set([...mentioned, ...newMentions]);
    await notify(tx, { ...base, kind: 'comment', recipients: interested.filter((id) => !skip.has(id)) });
  }
  const [comment] = await present(tx, [row]);
  await publish(tx, { workspace: row.workspaceId }, { type: 'comment', data: { action, comment: comment! } });
  if (action === 'created') {
    await emitWebhookEvents(tx, row.workspaceId, [
      { event: 'comment.created', data: { comment: { ...comment!, unit: base.unitId } } },
    ]);
  }
  return comment!;
}

/** POST comments/: any member (Guests included) comments on a task or unit of their workspace. */
export async function createComment(db: Db, { userId, input }: { userId: number; input: TCommentCreate }) {
  const { target } = await authorizeTarget(db, { userId, task: input.task, unit: input.unit, action: 'create' });
  return db.transaction(async (tx) => {
    const mentions = await resolveMentions(tx, target.workspaceId, input.text);
    const [row] = await tx
      .insert(comments)
      .values({
        workspaceId: target.workspaceId,
        taskId: target.taskId,
        unitId: target.unitId,
        authorId: userId,
        text: input.text,
        mentions,
      })
      .returning();
    return announce(tx, { row: row!, action: 'created', target, newMentions: mentions });
  });
}

/** GET comments/?task= | ?unit=: oldest first, paginated. */
export async function listComments(
  db: Db,
  { userId, query }: { userId: number; query: z.infer<typeof ZCommentListQuery> },
): Promise<TCommentList> {
  const { target } = await authorizeTarget(db, { userId, task: query.task, unit: query.unit, action: 'view' });
  const where = target.taskId !== null ? eq(comments.taskId, target.taskId) : eq(comments.unitId, target.unitId!);
  const rows = await db
    .select({ comment: comments, total: sql<number>`count(*) over ()::int` })
    .from(comments)
    .where(where)
    .orderBy(asc(comments.createdAt), asc(comments.id))
    .limit(query.limit)
    .offset(query.offset);
  const count =
    rows.length > 0 || query.offset === 0
      ? Number(rows[0]?.total ?? 0)
      : Number(
          (
            await db
              .select({ n: sql<number>`count(*)::int` })
              .from(comments)
              .where(where)
          )[0]?.n ?? 0,
        );
  const end = query.offset + rows.length;
  return {
    count,
    next: end < count ? end : null,
    results: await present(
      db,
      rows.map((r) => r.comment),
    ),
  };
}

/**
 * A comment edited (`next` its new text) or deleted (`next` null), in the history of its task or
 * unit (docs/history-and-audit.md): the comment's id and text before and after.
 */
async function recordCommentHistory(
  tx: Db,
  { comment, actorId, next }: { comment: CommentRow; actorId: number; next: string | null },
): Promise<void> {
  await recordHistory(tx, {
    workspaceId: comment.workspaceId,
    actorId,
    changes: [
      {
        unitId: comment.unitId,
        taskId: comment.taskId,
        field: next === null ? 'comment_deleted' : 'comment_edited',
        old: { id: comment.id, text: comment.text },
        new: next === null ? null : { id: comment.id, text: next },
      },
    ],
  });
}

/** PATCH comments/{id}/: the author edits the text; people newly mentioned are notified. */
export async function updateComment(
  db: Db,
  { userId, commentId, text }: { userId: number; commentId: number; text: string },
): Promise<TComment> {
  const { comment } = await authorizeComment(db, { userId, commentId, action: 'update' });
  const target: CommentTarget = { taskId: comment.taskId, unitId: comment.unitId, workspaceId: comment.workspaceId };
  return db.transaction(async (tx) => {
    const mentions = await resolveMentions(tx, comment.workspaceId, text);
    const [row] = await tx
      .update(comments)
      .set({ text, mentions, editedAt: new Date() })
      .where(eq(comments.id, commentId))
      .returning();
    const newMentions = mentions.filter((id) => !comment.mentions.includes(id));
    if (text !== comment.text) await recordCommentHistory(tx, { comment, actorId: userId, next: text });
    return announce(tx, { row: row!, action: 'updated', target, newMentions });
  });
}

/** DELETE comments/{id}/: the author, or an Admin and above of the workspace (moderation). */
export async function deleteComment(db: Db, { userId, commentId }: { userId: number; commentId: number }) {
  const { comment } = await authorizeComment(db, { userId, commentId, action: 'delete' });
  await db.transaction(async (tx) => {
    const [presented] = await present(tx, [comment]);
    await tx.delete(comments).where(eq(comments.id, commentId));
    await recordCommentHistory(tx, { comment, actorId: userId, next: null });
    await publish(
      tx,
      { workspace: comment.workspaceId },
      { type: 'comment', data: { action: 'deleted', comment: presented! } },
    );
  });
}
