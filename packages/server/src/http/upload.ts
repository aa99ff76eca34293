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
 * A multipart form with one file (in field `field`) and text fields, in any order: the file's
 * bytes and the fields by name (the first value of each). Errors as `readUploadedFile`.
 */
export async function readUploadedForm(
  request: FastifyRequest,
  field: string,
): Promise<{ file: Buffer; fields: Record<string, string> }> {
  if (!request.isMultipart()) throw new AppError('unsupported_media_type');
  try {
    let file: Buffer | undefined;
    const fields: Record<string, string> = {};
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        // Every file part must be drained, or the request never ends.
        const bytes = await part.toBuffer();
        if (part.fieldname === field && file === undefined) file = bytes;
      } else if (typeof part.value === 'string' && !(part.fieldname in fields)) {
        fields[part.fieldname] = part.value;
      }
    }
    if (!file) throw new AppError('bad_request', 'Choose a file to upload.');
    return { file, fields };
  } catch (error) {
    if (error instanceof AppError) throw error;
    const status = (error as { statusCode?: unknown }).statusCode;
    if (typeof status === 'number' && status >= 400 && status < 500) throw error;
    throw new AppError('bad_request', 'The upload is not a valid multipart form.');
  }
}
