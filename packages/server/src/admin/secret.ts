import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';

/** The header the CLI sends the running server's admin secret in. */
export const AdminSecretHeader = 'x-stageline-admin';
/** The file in the data directory that holds it, readable by the server's own OS user only. */
export const AdminSecretFile = 'admin.secret';

/** Writes a new admin secret into the data directory at the server's start (`route.ts`). */
export async function writeAdminSecret(dataDir: string): Promise<string> {
  const secret = randomBytes(32).toString('base64url');
  await writeFile(path.join(dataDir, AdminSecretFile), `${secret}\n`, { mode: 0o600 });
  return secret;
}
