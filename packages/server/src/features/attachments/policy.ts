import { and, eq, isNotNull } from 'drizzle-orm';
import { can, type TAttachmentTarget } from '@stageline/shared';
import { schema, type Db } from '../../db';
import { AppError } from '../../http/errors';
import { actorIn, authorize, type Actor } from '../workspaces';

const { tasks, units, projects, comments, attachments } = schema;

export type AttachmentRow = typeof attachments.$inferSelect;

/** Where a file goes: its record and workspace, and the task's round for task files. */
export type ResolvedTarget = {
  workspaceId: number;
  taskId: number | null;
  unitId: number | null;
  commentId: number | null;
  round: number | null;
};

async function taskPlace(db: Db, taskId: number) {
  const [row] = await db
    .select({ workspaceId: projects.workspaceId, round: tasks.iterationNumber, status: tasks.status })
    .from(tasks)
    .innerJoin(units, eq(units.id, tasks.unitId))
    .innerJoin(projects, eq(projects.id, units.projectId))
    .where(eq(tasks.id, taskId));
  // A file attached while the task is in review belongs to that round; before (work, edits) to the
  // round its next submit opens: "here is v3" goes with v3's review.
  return row && { workspaceId: row.workspaceId, round: row.status === 'review' ? row.round : row.round + 1 };
}

/**
 * The record a file is attached to, or whose files are listed, and the caller there: 404 when it does
 * not exist or the caller is not a member of its workspace. Attaching to a comment is its author's
 * alone (as editing it is), else 403.
 */
export async function authorizeTarget(
  db: Db,
  { userId, target, action }: { userId: number; target: TAttachmentTarget; action: 'view' | 'create' },
): Promise<{ actor: Actor; place: ResolvedTarget }> {
  let place: ResolvedTarget | undefined;
  let commentAuthor: number | null = null;
  if (target.task !== undefined) {
    const row = await taskPlace(db, target.task);
    if (row)
      place = { workspaceId: row.workspaceId, taskId: target.task, unitId: null, commentId: null, round: row.round };
  } else if (target.unit !== undefined) {
    const [row] = await db
      .select({ workspaceId: projects.workspaceId })
      .from(units)
      .innerJoin(projects, eq(projects.id, units.projectId))
      .where(eq(units.id, target.unit));
    if (row) place = { workspaceId: row.workspaceId, taskId: null, unitId: target.unit, commentId: null, round: null };
  } else if (target.comment !== undefined) {
    const [row] = await db
      .select({ workspaceId: comments.workspaceId, taskId: comments.taskId, authorId: comments.authorId })
      .from(comments)
      .where(eq(comments.id, target.comment));
    if (row) {
      const round = row.taskId !== null ? ((await taskPlace(db, row.taskId))?.round ?? null) : null;
      place = { workspaceId: row.workspaceId, taskId: null, unitId: null, commentId: target.comment, round };
      commentAuthor = row.authorId;
    }
  }
  if (!place) throw new AppError('not_found');
  const actor = await actorIn(db, userId, place.workspaceId);
  authorize(actor, 'attachment', action);
  if (action === 'create' && place.commentId !== null && commentAuthor !== userId) {
    throw new AppError('permission_denied', 'Only the author of a comment can attach files to it.');
  }
  return { actor, place };
}

/**
 * A stored file and the caller in its workspace: 404 when it is missing, still uploading, no longer on
 * any record, or the caller is not a member; deleting is its author's or a moderator's (403 for others).
 */
export async function authorizeAttachment(
  db: Db,
  { userId, attachmentId, action }: { userId: number; attachmentId: number; action: 'view' | 'delete' },
): Promise<{ actor: Actor; attachment: AttachmentRow }> {
  const [attachment] = await db
    .select()
    .from(attachments)
    .where(and(eq(attachments.id, attachmentId), isNotNull(attachments.completedAt)));
  const onRecord =
    attachment && (attachment.taskId !== null || attachment.unitId !== null || attachment.commentId !== null);
  if (!attachment || !onRecord || attachment.workspaceId === null) throw new AppError('not_found');
  const actor = await actorIn(db, userId, attachment.workspaceId);
  authorize(actor, 'attachment', 'view');
  if (action === 'delete' && !mayDelete(actor, attachment)) throw new AppError('permission_denied');
  return { actor, attachment };
}

/** The author deletes their file; Admins and the owner anyone's. */
export function mayDelete(actor: Actor, attachment: AttachmentRow): boolean {
  return attachment.authorId === actor.userId || can(actor.role, 'attachment', 'moderate');
}
