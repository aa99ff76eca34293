import { and, asc, eq, inArray, or } from 'drizzle-orm';
import { personName } from '@stageline/shared';
import { DrawingMessages, type TDrawing, type TDrawingShape } from '@stageline/shared/review-sessions';
import { schema, type Db } from '../../db';
import { AppError, FieldError } from '../../http/errors';
import { authorizeIn } from '../workspaces';
import { FrameRate } from './frames';

const { drawings, comments, attachments, users, tasks, units, projects } = schema;

type DrawingRow = typeof drawings.$inferSelect;

function present(
  row: DrawingRow,
  author: { id: number; firstName: string; lastName: string; username: string } | null,
): TDrawing {
  return {
    id: row.id,
    comment: row.commentId,
    file: row.attachmentId,
    round: row.round,
    time: row.timeSeconds,
    frame: row.frame,
    shapes: row.shapes as TDrawingShape[],
    author: author ? { id: author.id, name: personName(author) } : null,
    created_at: row.createdAt.toISOString(),
  };
}

/**
 * POST drawings/: shapes over a file of the comment's task (the file itself, or a file of one of
 * that task's comments), by the comment's author, at a time of a video or on an image. The round is
 * the file's; the frame is the time at 24 fps (docs/review-sessions.md).
 */
export async function createDrawing(
  db: Db,
  {
    userId,
    input,
  }: { userId: number; input: { comment: number; file: number; time: number | null; shapes: TDrawingShape[] } },
): Promise<TDrawing> {
  const [comment] = await db.select().from(comments).where(eq(comments.id, input.comment));
  if (!comment) throw new AppError('not_found');
  await authorizeIn(db, { userId, workspaceId: comment.workspaceId, resource: 'comment', action: 'view' });
  if (comment.authorId !== userId) throw new AppError('permission_denied', DrawingMessages.notYourComment);
  const taskComments = db
    .select({ id: comments.id })
    .from(comments)
    .where(eq(comments.taskId, comment.taskId ?? -1));
  const [file] =
    comment.taskId === null
      ? []
      : await db
          .select({ id: attachments.id, round: attachments.round })
          .from(attachments)
          .where(
            and(
              eq(attachments.id, input.file),
              or(eq(attachments.taskId, comment.taskId), inArray(attachments.commentId, taskComments)),
            ),
          );
  if (!file) throw new FieldError({ file: [DrawingMessages.wrongFile] });
  const [row] = await db
    .insert(drawings)
    .values({
      workspaceId: comment.workspaceId,
      commentId: comment.id,
      attachmentId: file.id,
      round: file.round,
      timeSeconds: input.time,
      frame: input.time === null ? null : Math.floor(input.time * FrameRate + 1e-6),
      shapes: input.shapes,
      authorId: userId,
    })
    .returning();
  const [author] = await db.select().from(users).where(eq(users.id, userId));
  return present(row!, author ?? null);
}

/** GET drawings/?task=: the drawings of the task's comments, oldest first (shown when a comment opens). */
export async function listDrawings(db: Db, { userId, taskId }: { userId: number; taskId: number }) {
  const [task] = await db
    .select({ workspaceId: projects.workspaceId })
    .from(tasks)
    .innerJoin(units, eq(units.id, tasks.unitId))
    .innerJoin(projects, eq(projects.id, units.projectId))
    .where(eq(tasks.id, taskId));
  if (!task) throw new AppError('not_found');
  await authorizeIn(db, { userId, workspaceId: task.workspaceId, resource: 'task', action: 'view' });
  const rows = await db
    .select({ drawing: drawings, author: users })
    .from(drawings)
    .innerJoin(comments, eq(comments.id, drawings.commentId))
    .leftJoin(users, eq(users.id, drawings.authorId))
    .where(eq(comments.taskId, taskId))
    .orderBy(asc(drawings.createdAt), asc(drawings.id));
  return { results: rows.map((r) => present(r.drawing, r.author)) };
}
