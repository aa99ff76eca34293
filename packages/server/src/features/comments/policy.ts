import { eq } from 'drizzle-orm';
import { can } from '@stageline/shared';
import { schema, type Db } from '../../db';
import { AppError } from '../../http/errors';
import { actorIn, authorize, type Actor } from '../workspaces';

const { tasks, units, projects, comments } = schema;

/** What a comment is attached to, and where that lives. */
export type CommentTarget = { taskId: number | null; unitId: number | null; workspaceId: number };

export type CommentRow = typeof comments.$inferSelect;

/**
 * The task or unit a comment is (or will be) on, and the caller in its workspace: 404 when the
 * target does not exist or the caller is not a member (every member, Guests included, reads and
 * writes comments: `Permissions.comment`).
 */
export async function authorizeTarget(
  db: Db,
  { userId, task, unit, action }: { userId: number; task?: number; unit?: number; action: 'view' | 'create' },
): Promise<{ actor: Actor; target: CommentTarget }> {
  let target: CommentTarget | undefined;
  if (task !== undefined) {
    const [row] = await db
      .select({ workspaceId: projects.workspaceId })
      .from(tasks)
      .innerJoin(units, eq(units.id, tasks.unitId))
      .innerJoin(projects, eq(projects.id, units.projectId))
      .where(eq(tasks.id, task));
    if (row) target = { taskId: task, unitId: null, workspaceId: row.workspaceId };
  } else if (unit !== undefined) {
    const [row] = await db
      .select({ workspaceId: projects.workspaceId })
      .from(units)
      .innerJoin(projects, eq(projects.id, units.projectId))
      .where(eq(units.id, unit));
    if (row) target = { taskId: null, unitId: unit, workspaceId: row.workspaceId };
  }
  if (!target) throw new AppError('not_found');
  const actor = await actorIn(db, userId, target.workspaceId);
  authorize(actor, 'comment', action);
  return { actor, target };
}

/**
 * A comment and what the caller may do to it: 404 unless they are in its workspace; editing is the
 * author's alone, deleting the author's or a moderator's (Admin and above), else 403.
 */
export async function authorizeComment(
  db: Db,
  { userId, commentId, action }: { userId: number; commentId: number; action: 'update' | 'delete' },
): Promise<{ actor: Actor; comment: CommentRow }> {
  const [comment] = await db.select().from(comments).where(eq(comments.id, commentId));
  if (!comment) throw new AppError('not_found');
  const actor = await actorIn(db, userId, comment.workspaceId);
  authorize(actor, 'comment', 'view');
  const isAuthor = comment.authorId === userId;
  const allowed = action === 'update' ? isAuthor : isAuthor || can(actor.role, 'comment', 'moderate');
  if (!allowed) throw new AppError('permission_denied');
  return { actor, comment };
}
