import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { and, asc, eq, inArray, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import {
  personName,
  stripInvisibles,
  type TAttachment,
  type TAttachmentTarget,
  type TUserRef,
} from '@stageline/shared';
import { schema, type Db } from '../../db';
import { AppError } from '../../http/errors';
import type { TokenKeys } from '../auth';
import { publish } from '../events';
import { recordHistory } from '../history';
import type { Actor } from '../workspaces';
import { detectContentType, previewOf, sniffBytes } from './content-type';
import { checkFileType, allowedFileTypes } from './file-types';
import { declaredPixels, ImageLimits } from './images';
import { authorizeAttachment, authorizeTarget, mayDelete, type AttachmentRow } from './policy';
import type { FileStorage } from './storage';
import type { ThumbnailQueue } from './thumbnails';
import { signFileToken } from './tokens';

const { attachments, comments, users } = schema;

/** What the attachment services need besides the database. */
export type FilesContext = {
  db: Db;
  storage: FileStorage;
  keys: TokenKeys;
  maxUploadBytes: number;
  workspaceQuotaBytes: number;
  /** Uploads one user may have under way at once in this process (MAX_UPLOADS_IN_FLIGHT). */
  maxUploadsInFlight: number;
  /** Where images wait for their thumbnails. */
  thumbnails: ThumbnailQueue;
};

/** Who asks: the user, and the session their file links are bound to (0 for an API token). */
export type FilesCaller = { userId: number; sessionId: number };

const mb = (bytes: number) => Math.round(bytes / (1024 * 1024));

/** The 413 of a file over MAX_UPLOAD_MB, translated. */
export function fileTooLarge(ctx: FilesContext): AppError {
  return new AppError('payload_too_large', 'A file can be at most {{mb}} MB.', { mb: mb(ctx.maxUploadBytes) });
}

function quotaFull(ctx: FilesContext): AppError {
  return new AppError('payload_too_large', 'The files of this workspace would exceed its {{mb}} MB.', {
    mb: mb(ctx.workspaceQuotaBytes),
  });
}

/** Bytes the files of a workspace take, uploads under way included. */
async function usedBytes(db: Db, workspaceId: number): Promise<number> {
  const [row] = await db
    .select({ used: sql<string>`coalesce(sum(${attachments.size}), 0)` })
    .from(attachments)
    .where(eq(attachments.workspaceId, workspaceId));
  return Number(row?.used ?? 0);
}

/**
 * A file name as stored: no path, no control, bidi or zero-width characters (which could show
 * `ev\u202Egnp.exe` as `evexe.png`), at most 255 characters, never empty.
 */
export function cleanFileName(name: string | undefined): string {
  const base = (name ?? '').split(/[\\/]/).pop() ?? '';
  const clean = [
    ...stripInvisibles(base.normalize('NFC'))
      .replace(/\p{Cc}/gu, '')
      .trim(),
  ]
    .slice(0, 255)
    .join('');
  return clean || 'file';
}

/**
 * Stores an upload (docs/files.md): checks the target and the quota first, detects the type from the
 * first bytes, streams the rest into storage counting bytes (413 past the workspace's room), and
 * queues the thumbnail of an image whose header declares no more than `ImageLimits.maxPixels`: it is
 * made after the answer (docs/files.md, "Images"). A failed upload leaves nothing behind.
 */
export async function storeAttachment(
  ctx: FilesContext,
  {
    userId,
    sessionId,
    target,
    name,
    body,
  }: FilesCaller & { target: TAttachmentTarget; name: string | undefined; body: Readable },
): Promise<TAttachment> {
  const { db, storage } = ctx;
  const { actor, place } = await authorizeTarget(db, { userId, target, action: 'create' });
  // Refused by its name before a byte is stored, and by its bytes once they are read (decision 198).
  const allowed = await allowedFileTypes(db, place.workspaceId);
  checkFileType(allowed, { name: cleanFileName(name) });
  const room = ctx.workspaceQuotaBytes - (await usedBytes(db, place.workspaceId));
  if (room <= 0) throw quotaFull(ctx);

  const key = `attachments/${randomBytes(16).toString('hex')}`;
  const [row] = await db
    .insert(attachments)
    .values({ ...place, authorId: userId, name: cleanFileName(name), storageKey: key })
    .returning();
  let contentType = 'application/octet-stream';
  let thumbnailQueuedAt: Date | null = null;
  try {
    const iterator = (body as AsyncIterable<Buffer>)[Symbol.asyncIterator]();
    const head: Buffer[] = [];
    let headLength = 0;
    let ended = false;
    while (headLength < sniffBytes) {
      const next = await iterator.next();
      if (next.done) {
        ended = true;
        break;
      }
      head.push(next.value);
      headLength += next.value.length;
    }
    const first = Buffer.concat(head);
    contentType = await detectContentType(first);
    checkFileType(allowed, { name: cleanFileName(name), contentType });
    // An image gets a thumbnail unless its header already says it is too large (most formats put
    // their size in the first bytes; a JPEG's may come later, and the queue reads it there).
    if (previewOf(contentType) === 'image' && ((await declaredPixels(first)) ?? 0) <= ImageLimits.maxPixels) {
      thumbnailQueuedAt = new Date();
    }
    let seen = 0;
    const counted = async function* () {
      for (let piece: Buffer = first, done = ended; ;) {
        seen += piece.length;
        if (seen > room) throw quotaFull(ctx);
        if (piece.length > 0) yield piece;
        if (done) return;
        const next = await iterator.next();
        if (next.done) return;
        piece = next.value;
        done = false;
      }
    };
    const size = await storage.put(key, Readable.from(counted(), { objectMode: false }));
    // Two uploads racing for the last room: the workspace row lock orders them, the second gives way.
    await db.transaction(async (tx) => {
      await tx.execute(sql`select 1 from ${schema.workspaces} where id = ${place.workspaceId} for update`);
      await tx.update(attachments).set({ size }).where(eq(attachments.id, row!.id));
      if ((await usedBytes(tx, place.workspaceId)) > ctx.workspaceQuotaBytes) throw quotaFull(ctx);
      await tx
        .update(attachments)
        .set({ contentType, completedAt: new Date(), thumbnailQueuedAt })
        .where(eq(attachments.id, row!.id));
      await recordFileHistory(tx, { file: row!, actorId: userId, field: 'file_added' });
    });
  } catch (error) {
    await storage.delete(key).catch(() => undefined);
    await db.delete(attachments).where(eq(attachments.id, row!.id));
    throw error;
  }
  await publish(db, { workspace: place.workspaceId }, { type: 'files', data: { id: row!.id, action: 'created' } });
  const [stored] = await db.select().from(attachments).where(eq(attachments.id, row!.id));
  if (thumbnailQueuedAt) ctx.thumbnails.add({ id: row!.id, queuedAt: thumbnailQueuedAt });
  return (await present(ctx, { actor, sessionId }, [stored!]))[0]!;
}

async function peopleOf(db: Db, ids: number[]): Promise<Map<number, TUserRef>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map();
  const rows = await db
    .select({ id: users.id, firstName: users.firstName, lastName: users.lastName, username: users.username })
    .from(users)
    .where(inArray(users.id, unique));
  return new Map(rows.map((u) => [u.id, { id: u.id, name: personName(u), username: u.username }]));
}

/** Files as the API shows them, with URLs signed for the caller's session. */
async function present(
  ctx: FilesContext,
  { actor, sessionId }: { actor: Actor; sessionId: number },
  rows: AttachmentRow[],
): Promise<TAttachment[]> {
  const people = await peopleOf(
    ctx.db,
    rows.flatMap((r) => (r.authorId !== null ? [r.authorId] : [])),
  );
  return rows.map((row): TAttachment => {
    const token = signFileToken(ctx.keys, { userId: actor.userId, sessionId, attachmentId: row.id });
    const base = `/api/attachments/${row.id}`;
    return {
      id: row.id,
      name: row.name,
      size: row.size,
      content_type: row.contentType,
      created_at: row.createdAt.toISOString(),
      author: row.authorId !== null ? (people.get(row.authorId) ?? null) : null,
      task: row.taskId,
      unit: row.unitId,
      comment: row.commentId,
      round: row.round,
      preview: previewOf(row.contentType),
      content_url: `${base}/content/?token=${token}`,
      thumbnail_url: row.thumbnail ? `${base}/thumbnail/?token=${token}` : null,
      thumbnail_pending: row.thumbnailQueuedAt !== null,
      abilities: { delete: mayDelete(actor, row) },
    };
  });
}

/**
 * The files of a task or a unit, with the files of its comments (each names its comment), oldest first.
 */
export async function listAttachments(
  ctx: FilesContext,
  { userId, sessionId, query }: FilesCaller & { query: { task?: number; unit?: number } },
) {
  const { actor } = await authorizeTarget(ctx.db, { userId, target: query, action: 'view' });
  const direct = query.task !== undefined ? eq(attachments.taskId, query.task) : eq(attachments.unitId, query.unit!);
  const ofComments = inArray(
    attachments.commentId,
    ctx.db
      .select({ id: comments.id })
      .from(comments)
      .where(query.task !== undefined ? eq(comments.taskId, query.task) : eq(comments.unitId, query.unit!)),
  );
  const rows = await ctx.db
    .select()
    .from(attachments)
    .where(and(isNotNull(attachments.completedAt), or(direct, ofComments)))
    .orderBy(asc(attachments.createdAt), asc(attachments.id));
  const results = await present(ctx, { actor, sessionId }, rows);
  return { count: results.length, results };
}

export async function getAttachment(
  ctx: FilesContext,
  { userId, sessionId, attachmentId }: FilesCaller & { attachmentId: number },
) {
  const { actor, attachment } = await authorizeAttachment(ctx.db, { userId, attachmentId, action: 'view' });
  return (await present(ctx, { actor, sessionId }, [attachment]))[0]!;
}

/** A file added to or removed from a task or a unit, in its history (docs/history-and-audit.md). */
async function recordFileHistory(
  tx: Db,
  { file, actorId, field }: { file: AttachmentRow; actorId: number; field: 'file_added' | 'file_removed' },
): Promise<void> {
  if (file.workspaceId === null || (file.taskId === null && file.unitId === null)) return;
  const value = { id: file.id, name: file.name };
  await recordHistory(tx, {
    workspaceId: file.workspaceId,
    actorId,
    changes: [
      {
        unitId: file.unitId,
        taskId: file.taskId,
        field,
        old: field === 'file_removed' ? value : null,
        new: field === 'file_added' ? value : null,
      },
    ],
  });
}

/** Deletes a file and its bytes (one file: quick enough to do in the request). */
export async function deleteAttachment(
  ctx: FilesContext,
  { userId, attachmentId }: { userId: number; attachmentId: number },
): Promise<void> {
  const { attachment } = await authorizeAttachment(ctx.db, { userId, attachmentId, action: 'delete' });
  await ctx.db.transaction(async (tx) => {
    await tx.delete(attachments).where(eq(attachments.id, attachment.id));
    await recordFileHistory(tx, { file: attachment, actorId: userId, field: 'file_removed' });
    await publish(
      tx,
      { workspace: attachment.workspaceId! },
      { type: 'files', data: { id: attachment.id, action: 'deleted' } },
    );
  });
  await ctx.storage.delete(attachment.storageKey);
}

/** How long an upload may stay unfinished before the sweep counts it as abandoned. */
const abandonedAfterMs = 60 * 60 * 1000;

/**
 * Deletes the files whose task, unit, comment or workspace was deleted, and uploads abandoned half
 * way (a crash), bytes first, a batch at a time: the job behind deleting records with many files.
 * Answers how many it deleted.
 */
export async function sweepAttachments(db: Db, storage: FileStorage, batch = 100): Promise<number> {
  let deleted = 0;
  for (;;) {
    const rows = await db
      .select({ id: attachments.id, key: attachments.storageKey })
      .from(attachments)
      .where(
        or(
          and(
            isNotNull(attachments.completedAt),
            or(
              isNull(attachments.workspaceId),
              and(isNull(attachments.taskId), isNull(attachments.unitId), isNull(attachments.commentId)),
            ),
          ),
          and(isNull(attachments.completedAt), lt(attachments.createdAt, new Date(Date.now() - abandonedAfterMs))),
        ),
      )
      .limit(batch);
    for (const row of rows) {
      await storage.delete(row.key);
      await db.delete(attachments).where(eq(attachments.id, row.id));
    }
    deleted += rows.length;
    if (rows.length < batch) return deleted;
  }
}

/** The stored bytes' key, type, size and name of a file the user may read, through a URL token or a bearer. */
export async function readableAttachment(db: Db, { userId, attachmentId }: { userId: number; attachmentId: number }) {
  return (await authorizeAttachment(db, { userId, attachmentId, action: 'view' })).attachment;
}

/**
 * The files of each task's latest round that has files, with the files of its comments (a review
 * session's items, docs/review-sessions.md): by task id, the round and its rows, oldest first.
 */
export async function latestRoundRows(
  db: Db,
  taskIds: readonly number[],
): Promise<Map<number, { round: number; rows: AttachmentRow[] }>> {
  const found = new Map<number, { round: number; rows: AttachmentRow[] }>();
  if (taskIds.length === 0) return found;
  const ids = [...new Set(taskIds)];
  const rows = await db
    .select({ file: attachments, commentTask: comments.taskId })
    .from(attachments)
    .leftJoin(comments, eq(comments.id, attachments.commentId))
    .where(
      and(
        isNotNull(attachments.completedAt),
        isNotNull(attachments.round),
        or(inArray(attachments.taskId, ids), inArray(comments.taskId, ids)),
      ),
    )
    .orderBy(asc(attachments.createdAt), asc(attachments.id));
  for (const { file, commentTask } of rows) {
    const taskId = file.taskId ?? commentTask!;
    const round = file.round!;
    const seen = found.get(taskId);
    if (!seen || round > seen.round) found.set(taskId, { round, rows: [file] });
    else if (round === seen.round) seen.rows.push(file);
  }
  return found;
}

/** Files as a member sees them, with URLs signed for their session (review sessions list them so). */
export function presentFiles(ctx: FilesContext, caller: { actor: Actor; sessionId: number }, rows: AttachmentRow[]) {
  return present(ctx, caller, rows);
}

/** A file of one of `taskIds` (or of a comment of one), for a client's link to serve; null otherwise. */
export async function fileOfTasks(db: Db, { fileId, taskIds }: { fileId: number; taskIds: readonly number[] }) {
  if (taskIds.length === 0) return null;
  const [row] = await db
    .select({ file: attachments })
    .from(attachments)
    .leftJoin(comments, eq(comments.id, attachments.commentId))
    .where(
      and(
        eq(attachments.id, fileId),
        isNotNull(attachments.completedAt),
        or(inArray(attachments.taskId, [...taskIds]), inArray(comments.taskId, [...taskIds])),
      ),
    );
  return row?.file ?? null;
}
