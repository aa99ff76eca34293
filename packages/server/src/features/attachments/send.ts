import type { FastifyReply, FastifyRequest } from 'fastify';
import { isInline } from './content-type';
import type { FileStorage } from './storage';

/** Served files never run: no scripts, no plugins, no forms, not even same-origin (docs/files.md). */
export const sandboxPolicy = "default-src 'none'; img-src 'self'; media-src 'self'; style-src 'unsafe-inline'; sandbox";

/** What sending a stored file needs of its row. */
export type StoredFile = { name: string; contentType: string; size: number; storageKey: string };

/**
 * The single range of a `Range` header for a file of `size` bytes: undefined for the whole file (no
 * header, several ranges or another unit), 'unsatisfiable' for a range past the end.
 */
export function parseRange(
  header: string | undefined,
  size: number,
): { start: number; end: number } | 'unsatisfiable' | undefined {
  if (!header) return undefined;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === '' && match[2] === '')) return undefined;
  let start: number;
  let end: number;
  if (match[1] === '') {
    const suffix = Number(match[2]);
    if (suffix === 0) return 'unsatisfiable';
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(match[1]);
    end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  }
  if (start >= size || start > end) return 'unsatisfiable';
  return { start, end };
}

/** `Content-Disposition` with the Unicode name (RFC 6266) and an ASCII fallback. */
export function contentDisposition(kind: 'inline' | 'attachment', name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/**
 * Sends a stored file's bytes with the headers every file answer has (docs/files.md): inline only
 * for previewable types, `nosniff`, the sandbox policy but for PDFs, and one `Range`. The caller has
 * decided the reader may read it: the team's routes by membership, a client's by their link.
 */
export async function sendStoredFile(
  storage: FileStorage,
  request: FastifyRequest,
  reply: FastifyReply,
  file: StoredFile,
) {
  const inline = isInline(file.contentType);
  reply.header('content-type', file.contentType);
  reply.header('content-disposition', contentDisposition(inline ? 'inline' : 'attachment', file.name));
  reply.header('x-content-type-options', 'nosniff');
  // The browser's PDF viewer does not run in a sandboxed document; a PDF keeps the app's policy.
  if (file.contentType !== 'application/pdf') reply.header('content-security-policy', sandboxPolicy);
  reply.header('cache-control', 'private, max-age=600');
  reply.header('accept-ranges', 'bytes');
  const range = parseRange(request.headers.range, file.size);
  if (range === 'unsatisfiable') {
    return reply.status(416).header('content-range', `bytes */${file.size}`).send('');
  }
  if (range) {
    reply.status(206).header('content-range', `bytes ${range.start}-${range.end}/${file.size}`);
    reply.header('content-length', range.end - range.start + 1);
    return reply.send(await storage.get(file.storageKey, range));
  }
  reply.header('content-length', file.size);
  if (file.size === 0) return reply.send('');
  return reply.send(await storage.get(file.storageKey));
}
