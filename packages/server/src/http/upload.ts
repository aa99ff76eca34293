import { finished } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import '@fastify/multipart';
import { AppError } from './errors';

/**
 * The bytes of the one file of a multipart request, in field `field`. A request that is not
 * multipart is a 415; a form without a boundary, cut short or otherwise malformed is a 400 (the
 * parser throws plain errors for those, which would be 500s); a file over the route's limit stays
 * the parser's 413.
 */
export async function readUploadedFile(request: FastifyRequest, field: string): Promise<Buffer> {
  if (!request.isMultipart()) throw new AppError('unsupported_media_type');
  try {
    const file = await request.file();
    if (!file || file.fieldname !== field) throw new AppError('bad_request', 'Choose a file to upload.');
    return await file.toBuffer();
  } catch (error) {
    if (error instanceof AppError) throw error;
    const status = (error as { statusCode?: unknown }).statusCode;
    if (typeof status === 'number' && status >= 400 && status < 500) throw error;
    throw new AppError('bad_request', 'The upload is not a valid multipart form.');
  }
}

/**
 * A multipart form with one file (in field `field`) and text fields, in any order: what `read` makes
 * of the file as it arrives, and the fields by name (the first value of each). `read` may stop
 * early: what it leaves of the file is read here and dropped, so the request ends and the fields
 * after the file are read. A file over `maxBytes` is a 413 naming the limit, whatever `read` made
 * of its first `maxBytes`; other errors as `readUploadedFile`.
 */
export async function readUploadedForm<T>(
  request: FastifyRequest,
  { field, maxBytes, read }: { field: string; maxBytes: number; read: (file: AsyncIterable<Buffer>) => Promise<T> },
): Promise<{ file: T; fields: Record<string, string> }> {
  if (!request.isMultipart()) throw new AppError('unsupported_media_type');
  const tooLarge = new AppError('payload_too_large', 'A file can be at most {{mb}} MB.', {
    mb: Math.floor(maxBytes / (1024 * 1024)),
  });
  try {
    let file: { value: T } | undefined;
    const fields: Record<string, string> = {};
    for await (const part of request.parts({ limits: { fileSize: maxBytes } })) {
      if (part.type === 'file') {
        if (part.fieldname === field && file === undefined) {
          file = { value: await read(part.file.iterator({ destroyOnReturn: false }) as AsyncIterable<Buffer>) };
        }
        // Every file part must be read to its end, or the request never ends.
        part.file.resume();
        await finished(part.file);
        if (part.file.truncated) throw tooLarge;
      } else if (typeof part.value === 'string' && !(part.fieldname in fields)) {
        fields[part.fieldname] = part.value;
      }
    }
    if (!file) throw new AppError('bad_request', 'Choose a file to upload.');
    return { file: file.value, fields };
  } catch (error) {
    if (error instanceof AppError) throw error;
    if ((error as { code?: unknown }).code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge;
    const status = (error as { statusCode?: unknown }).statusCode;
    if (typeof status === 'number' && status >= 400 && status < 500) throw error;
    throw new AppError('bad_request', 'The upload is not a valid multipart form.');
  }
}
