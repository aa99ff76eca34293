/**
 * MAX_UPLOAD_MB and MAX_UPLOADS_IN_FLIGHT as the server's configuration says (read at boot); unknown,
 * the server decides. Its own module, so the boot sets them without loading the uploads' code and
 * the schemas it needs.
 */
let limitMb: number | null = null;
/** Uploads sent at once; the server answers 429 past its MAX_UPLOADS_IN_FLIGHT (docs/files.md). */
let atOnce = 4;
let sending = 0;
const waiting: (() => void)[] = [];

export function setUploadLimit(mb: number | null, uploadsAtOnce = 4): void {
  limitMb = mb;
  atOnce = Math.max(1, uploadsAtOnce);
}

export function uploadLimitMb(): number | null {
  return limitMb;
}

/**
 * Waits for one of the few places of an upload (files dropped together wait their turn rather than
 * be refused by the server); answers the function that frees it.
 */
export async function takeUploadPlace(): Promise<() => void> {
  if (sending < atOnce) sending += 1;
  else await new Promise<void>((resolve) => waiting.push(resolve));
  let freed = false;
  return () => {
    if (freed) return;
    freed = true;
    const next = waiting.shift();
    if (next) next();
    else sending -= 1;
  };
}
