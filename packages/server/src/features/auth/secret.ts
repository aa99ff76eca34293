import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Config } from '../../config';
import { schema, type Db } from '../../db';

const secretName = 'jwt_signing_key';

/**
 * The secret tokens are signed with: SECRET_KEY when set, else one generated on first start and
 * kept in `app_secrets`, so every process on the same PostgreSQL signs and accepts the same tokens.
 */
export async function loadSigningSecret(db: Db, config: Config): Promise<string> {
  if (config.secretKey) return config.secretKey;
  await db
    .insert(schema.appSecrets)
    .values({ name: secretName, value: randomBytes(48).toString('base64url') })
    .onConflictDoNothing();
  const [row] = await db.select().from(schema.appSecrets).where(eq(schema.appSecrets.name, secretName));
  if (!row) throw new Error('Could not load the signing secret from app_secrets');
  return row.value;
}
