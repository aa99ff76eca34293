import { randomBytes } from 'node:crypto';
import { inArray, sql } from 'drizzle-orm';
import { Limits } from '@stageline/shared';
import { schema, type Db } from '../../db';
import type { OAuthProfile } from './profile';

/**
 * The username a new OAuth account starts from: the provider's handle, else the e-mail's local
 * part, reduced to what ZUsername accepts (letters, digits, `. _ -`) and padded to the minimum.
 */
export function baseUsername(profile: Pick<OAuthProfile, 'username' | 'email'>): string {
  const raw = profile.username || profile.email?.split('@')[0] || 'user';
  let name = raw
    .normalize('NFKC')
    .replace(/[^\p{L}\p{N}_.-]+/gu, '_')
    .replace(/^[._-]+|[._-]+$/g, '')
    .slice(0, Limits.username.max - 5);
  if (!name) name = 'user';
  while (name.length < Limits.username.min) name += '_';
  return name;
}

/** `base`, or `base2`, `base3`… the first no account has (case-insensitively), else a random tail. */
export async function uniqueUsername(db: Db, base: string): Promise<string> {
  const candidates = [base, ...Array.from({ length: 20 }, (_, i) => `${base}${i + 2}`)];
  const taken = await db
    .select({ name: sql<string>`lower(${schema.users.username})` })
    .from(schema.users)
    .where(
      inArray(
        sql`lower(${schema.users.username})`,
        candidates.map((c) => c.toLowerCase()),
      ),
    );
  const used = new Set(taken.map((row) => row.name));
  return candidates.find((c) => !used.has(c.toLowerCase())) ?? `${base}_${randomBytes(3).toString('hex')}`;
}
