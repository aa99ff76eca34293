/**
 * MAX_UPLOAD_MB as the server's configuration says (read at boot); unknown, the server decides. Its
 * own module, so the boot sets it without loading the uploads' code and the schemas it needs.
 */
let limitMb: number | null = null;

export function setUploadLimit(mb: number | null): void {
  limitMb = mb;
}

export function uploadLimitMb(): number | null {
  return limitMb;
}
