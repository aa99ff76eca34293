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
