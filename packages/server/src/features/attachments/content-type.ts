import type { TAttachmentPreview } from '@stageline/shared';

/** Bytes read before deciding the type (file-type's own sample size). */
export const sniffBytes = 4100;

const previews: Record<string, TAttachmentPreview> = {
  'image/png': 'image',
  'image/jpeg': 'image',
  'image/webp': 'image',
  'image/gif': 'image',
  'image/avif': 'image',
  'video/mp4': 'video',
  'video/webm': 'video',
  'application/pdf': 'pdf',
};

/**
 * The content type of a file from its first bytes, never from the client's word: file-type's magic
 * numbers, then the text formats it leaves out that matter for safety (SVG, HTML), then plain text.
 */
export async function detectContentType(head: Buffer): Promise<string> {
  // Loaded at the first upload, not when the server starts (docs/decisions.md, entry 152).
  const { fileTypeFromBuffer } = await import('file-type');
  const found = await fileTypeFromBuffer(head);
  if (found && found.mime !== 'application/xml') {
    return found.mime === 'audio/webm' && head.includes('V_VP') ? 'video/webm' : found.mime;
  }
  const text = head.toString('latin1', 0, Math.min(head.length, 1024)).trimStart().toLowerCase();
  if (/^(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*(<!doctype svg[^>]*>\s*)?<svg[\s>]/.test(text)) return 'image/svg+xml';
  if (/^(<!--[\s\S]*?-->\s*)*(<!doctype html|<html|<head|<body|<script)/.test(text)) return 'text/html';
  if (found) return found.mime;
  if (head.length > 0 && !head.includes(0) && isUtf8Prefix(head)) return 'text/plain';
  return 'application/octet-stream';
}

/** Whether the bytes are UTF-8, allowing a character cut at the end of the sample. */
function isUtf8Prefix(head: Buffer): boolean {
  for (let cut = 0; cut < 4 && cut < head.length; cut++) {
    try {
      new TextDecoder('utf-8', { fatal: true }).decode(head.subarray(0, head.length - cut));
      return true;
    } catch {
      // try without the last bytes
    }
  }
  return false;
}

/** How the web app shows a type, or null for a download. */
export function previewOf(contentType: string): TAttachmentPreview | null {
  return previews[contentType] ?? null;
}

/** Types a browser may show in place; every other file is served as a download. */
export function isInline(contentType: string): boolean {
  return previewOf(contentType) !== null;
}
