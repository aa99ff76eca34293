import { Readable } from 'node:stream';
import multipart from '@fastify/multipart';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ZAttachment,
  ZAttachmentContentQuery,
  ZAttachmentList,
  ZAttachmentListQuery,
  ZAttachmentTarget,
  ZFileTypes,
  ZIdParams,
} from '@stageline/shared';
import { AppError, FieldError } from '../../http/errors';
import { callerOf, type AuthUser } from '../auth';
import { recordExport } from '../audit';
import { isInline } from './content-type';
import { getFileTypes, setFileTypes } from './file-types';
import {
  deleteAttachment,
  fileTooLarge,
  getAttachment,
  listAttachments,
  readableAttachment,
  storeAttachment,
  type FilesContext,
} from './service';
import { parseRange, sandboxPolicy, sendStoredFile } from './send';
import { verifyFileToken } from './tokens';

const bearer = [{ bearer: [] }];
const tags = ['attachments'];
const hidden = 'Non-members of the workspace get 404.';

/**
 * The bytes of a multipart file, failing with a 413 when the parser cut it at MAX_UPLOAD_MB (it ends
 * the stream early and marks it `truncated` rather than failing it).
 */
async function* untruncated(stream: Readable & { truncated?: boolean }): AsyncGenerator<Buffer> {
  for await (const piece of stream) yield piece as Buffer;
  if (stream.truncated) throw Object.assign(new Error('File too large'), { statusCode: 413 });
}

/**
 * Uploads under way per user in this process (docs/files.md, "Limits"): uploads skip the admission
 * queue, so one person sending many at once would hold the server's connections and CPU. Past `max`,
 * 429. With several processes on one database each counts its own (docs/decisions.md, entry 144).
 */
function uploadCounter(max: number) {
  const counts = new Map<number, number>();
  return {
    /** Counts an upload of `userId`; answers the function that ends it. */
    take(userId: number): () => void {
      const count = counts.get(userId) ?? 0;
      if (count >= max) {
        throw new AppError(
          'rate_limited',
          'Wait for your other uploads to finish: at most {{count}} at once.',
          { count: max },
          { 'retry-after': '5' },
        );
      }
      counts.set(userId, count + 1);
      let done = false;
      return () => {
        if (done) return;
        done = true;
        const left = (counts.get(userId) ?? 1) - 1;
        if (left > 0) counts.set(userId, left);
        else counts.delete(userId);
      };
    },
  };
}

/** Files on tasks, units and comments (docs/files.md). */
export const attachmentsRoutes: FastifyPluginAsyncZod<{ ctx: FilesContext }> = async (app, { ctx }) => {
  await app.register(multipart, {
    limits: { fileSize: ctx.maxUploadBytes, files: 1, fields: 5, fieldSize: 100 },
  });
  const signedIn = { onRequest: app.authenticate };
  const uploadsInFlight = uploadCounter(ctx.maxUploadsInFlight);

  /**
   * The reader of a content URL: its `?token=` when it has one (for `<img>`, `<video>`), while the
   * session that asked for it is live; else the bearer.
   */
  async function readerOf(request: FastifyRequest, attachmentId: number, token: string | undefined): Promise<number> {
    if (token !== undefined) {
      const signed = verifyFileToken(ctx.keys, token, attachmentId);
      const live = signed && (signed.sessionId === 0 || (await app.isSessionLive(signed)));
      if (!signed || !live)
        throw new AppError('token_not_valid', 'This link to the file has expired. Reload the page.');
      return signed.userId;
    }
    await app.authenticate(request);
    return callerOf(request).id;
  }

  app.post(
    '/attachments/',
    {
      ...signedIn,
      schema: {
        tags,
        summary: 'Attach a file to a task, a unit or a comment (multipart: `task`, `unit` or `comment`, then `file`)',
        description: `${hidden} The target field must come before \`file\`. The type is detected from the bytes. 413 past MAX_UPLOAD_MB or the workspace's WORKSPACE_QUOTA_MB; 429 past MAX_UPLOADS_IN_FLIGHT uploads of one user at once. An image's thumbnail is made after the answer (\`thumbnail_pending\`). Attaching to a comment is its author's alone.`,
        consumes: ['multipart/form-data'],
        security: bearer,
        response: { 201: ZAttachment },
      },
    },
    async (request, reply) => {
      if (!request.isMultipart()) throw new AppError('unsupported_media_type');
      const caller = callerOf(request);
      const release = uploadsInFlight.take(caller.id);
      try {
        return await receive(request, reply, caller);
      } finally {
        release();
      }
    },
  );

  /** Reads the multipart upload of a POST and stores its file. */
  async function receive(request: FastifyRequest, reply: FastifyReply, { id: userId, sessionId }: AuthUser) {
    let file;
    try {
      file = await request.file();
    } catch (error) {
      if ((error as { statusCode?: unknown }).statusCode === 413) throw fileTooLarge(ctx);
      throw new AppError('bad_request', 'The upload is not a valid multipart form.');
    }
    if (!file || file.fieldname !== 'file') throw new AppError('bad_request', 'Choose a file to upload.');
    const fields: Record<string, string> = {};
    for (const [name, value] of Object.entries(file.fields)) {
      const first = Array.isArray(value) ? value[0] : value;
      if (first && first.type === 'field' && typeof first.value === 'string') fields[name] = first.value;
    }
    const target = ZAttachmentTarget.safeParse(fields);
    if (!target.success) {
      file.file.resume();
      throw new FieldError({ task: ['Files belong to a task, a unit or a comment'] });
    }
    try {
      const stored = await storeAttachment(ctx, {
        userId,
        sessionId,
        target: target.data,
        name: file.filename,
        body: Readable.from(untruncated(file.file), { objectMode: false }),
      });
      return reply.status(201).send(stored);
    } catch (error) {
      file.file.resume();
      if (error instanceof AppError || error instanceof FieldError) throw error;
      const status = (error as { statusCode?: unknown }).statusCode;
      if (status === 413) throw fileTooLarge(ctx);
      if (typeof status === 'number' && status >= 400 && status < 500) {
        throw new AppError('bad_request', 'The upload is not a valid multipart form.');
      }
      throw error;
    }
  }

  app.get(
    '/attachments/',
    {
      ...signedIn,
      schema: {
        tags,
        summary: 'The files of a task or a unit, with the files of its comments, oldest first',
        description: `${hidden} Each file's \`content_url\` is signed for the caller for a few minutes.`,
        security: bearer,
        querystring: ZAttachmentListQuery,
        response: { 200: ZAttachmentList },
      },
    },
    async (request) => {
      const { id: userId, sessionId } = callerOf(request);
      return listAttachments(ctx, { userId, sessionId, query: request.query });
    },
  );

  app.get(
    '/attachments/:id/',
    {
      ...signedIn,
      schema: {
        tags,
        summary: 'One file',
        description: hidden,
        security: bearer,
        params: ZIdParams,
        response: { 200: ZAttachment },
      },
    },
    async (request) => {
      const { id: userId, sessionId } = callerOf(request);
      return getAttachment(ctx, { userId, sessionId, attachmentId: request.params.id });
    },
  );

  app.delete(
    '/attachments/:id/',
    {
      ...signedIn,
      schema: {
        tags,
        summary: 'Delete a file (its author, or Admin and above)',
        description: `${hidden} Others get 403.`,
        security: bearer,
        params: ZIdParams,
        response: { 204: z.null().describe('Done') },
      },
    },
    async (request, reply) => {
      await deleteAttachment(ctx, { userId: callerOf(request).id, attachmentId: request.params.id });
      return reply.status(204).send(null);
    },
  );

  async function serve(request: FastifyRequest, reply: FastifyReply, id: number, token: string | undefined) {
    const userId = await readerOf(request, id, token);
    const file = await readableAttachment(ctx.db, { userId, attachmentId: id });
    const range = parseRange(request.headers.range, file.size);
    // A download (not shown inline), from its start: an export of the audit log (decision 222).
    if (!isInline(file.contentType) && range !== 'unsatisfiable' && (!range || range.start === 0)) {
      await recordExport(ctx.db, {
        userId,
        workspaceId: file.workspaceId,
        action: 'export.file',
        target: { kind: 'attachment', id: file.id, name: file.name },
        details: { size: file.size, content_type: file.contentType },
      });
    }
    return sendStoredFile(ctx.storage, request, reply, file);
  }

  app.get(
    '/attachments/:id/content/',
    {
      compress: false,
      schema: {
        tags,
        summary: "A file's bytes (`Range` supported); `?token=` from `content_url`, or the bearer header",
        description: `${hidden} Images, PDF, MP4 and WebM inline; everything else (SVG and HTML too) as a download with a sandbox policy.`,
        security: bearer,
        params: ZIdParams,
        querystring: ZAttachmentContentQuery,
      },
    },
    async (request, reply) => serve(request, reply, request.params.id, request.query.token),
  );

  app.get(
    '/attachments/:id/thumbnail/',
    {
      compress: false,
      schema: {
        tags,
        summary: "An image's thumbnail (WebP, at most 320 px); `?token=` or the bearer header",
        description: `${hidden} 404 for files without one.`,
        security: bearer,
        params: ZIdParams,
        querystring: ZAttachmentContentQuery,
        produces: ['image/webp'],
      },
    },
    async (request, reply) => {
      const userId = await readerOf(request, request.params.id, request.query.token);
      const file = await readableAttachment(ctx.db, { userId, attachmentId: request.params.id });
      if (!file.thumbnail) throw new AppError('not_found');
      return reply
        .header('content-type', 'image/webp')
        .header('cache-control', 'private, max-age=600')
        .header('content-security-policy', sandboxPolicy)
        .send(file.thumbnail);
    },
  );

  app.get(
    '/workspaces/:id/file_types/',
    {
      ...signedIn,
      schema: {
        tags,
        summary: 'The groups of files the workspace takes (media, documents, archives, other)',
        description: `${hidden} Uploads of other groups are refused with 415 naming the type (decision 198).`,
        security: bearer,
        params: ZIdParams,
        response: { 200: ZFileTypes },
      },
    },
    async (request) => getFileTypes(ctx.db, { userId: callerOf(request).id, workspaceId: request.params.id }),
  );

  app.put(
    '/workspaces/:id/file_types/',
    {
      ...signedIn,
      schema: {
        tags,
        summary: 'Set the groups of files the workspace takes (Admin and above)',
        description: `${hidden} Members and Guests get 403. Applies to uploads from now on; stored files stay.`,
        security: bearer,
        params: ZIdParams,
        body: ZFileTypes,
        response: { 200: ZFileTypes },
      },
    },
    async (request) =>
      setFileTypes(ctx.db, {
        userId: callerOf(request).id,
        workspaceId: request.params.id,
        allowed: request.body.allowed,
      }),
  );
};
