import { and, asc, desc, eq, gt, isNull, lt, or, sql } from 'drizzle-orm';
import {
  ApiTokenPrefix,
  ApiTokenScopes,
  type TApiToken,
  type TApiTokenCreate,
  type TApiTokenCreated,
  type TApiTokenScope,
} from '@stageline/shared';
import { schema, type Db } from '../../db';
import { AppError } from '../../http/errors';
import { recordAccountAudit } from '../audit';
import { hashSecret, randomToken, type TokenKeys } from './tokens';

const { apiTokens } = schema;
type TokenRow = typeof apiTokens.$inferSelect;

const asScope = (value: string): TApiTokenScope => ApiTokenScopes.find((scope) => scope === value) ?? 'read';

function presentToken(row: TokenRow): TApiToken {
  return {
    id: row.id,
    name: row.name,
    scope: asScope(row.scope),
    created_at: row.createdAt.toISOString(),
    expires_at: row.expiresAt?.toISOString() ?? null,
    last_used_at: row.lastUsedAt?.toISOString() ?? null,
  };
}

/** Whether a bearer credential is an API token rather than a session's JWT. */
export const isApiToken = (credential: string) => credential.startsWith(ApiTokenPrefix);

/** POST users/me/tokens/: a new token; its secret is in this answer and nowhere else. */
export async function createApiToken(
  db: Db,
  keys: TokenKeys,
  { userId, input }: { userId: number; input: TApiTokenCreate },
): Promise<TApiTokenCreated> {
  const token = `${ApiTokenPrefix}${randomToken()}`;
  const row = await db.transaction(async (tx) => {
    const [inserted] = await tx
      .insert(apiTokens)
      .values({
        userId,
        name: input.name,
        scope: input.scope,
        tokenHash: hashSecret(keys, token),
        expiresAt: input.expires_at ? new Date(input.expires_at) : null,
      })
      .returning();
    await recordAccountAudit(tx, userId, {
      action: 'api_token.created',
      actorId: userId,
      target: { kind: 'api_token', id: inserted!.id, name: inserted!.name },
      details: { scope: inserted!.scope, expires_at: inserted!.expiresAt?.toISOString() ?? null },
    });
    return inserted!;
  });
  return { ...presentToken(row), token };
}

/** GET users/me/tokens/: newest first, without secrets. */
export async function listApiTokens(db: Db, userId: number): Promise<TApiToken[]> {
  const rows = await db
    .select()
    .from(apiTokens)
    .where(eq(apiTokens.userId, userId))
    .orderBy(desc(apiTokens.createdAt), desc(apiTokens.id));
  return rows.map(presentToken);
}

/** DELETE users/me/tokens/{id}/: revokes at once; another user's id is a 404. */
export async function revokeApiToken(db: Db, { userId, tokenId }: { userId: number; tokenId: number }) {
  await db.transaction(async (tx) => {
    const deleted = await tx
      .delete(apiTokens)
      .where(and(eq(apiTokens.id, tokenId), eq(apiTokens.userId, userId)))
      .returning({ id: apiTokens.id, name: apiTokens.name });
    if (deleted.length === 0) throw new AppError('not_found');
    await recordAccountAudit(tx, userId, {
      action: 'api_token.revoked',
      actorId: userId,
      target: { kind: 'api_token', id: tokenId, name: deleted[0]!.name },
    });
  });
}

/**
 * Revokes every token of a user (a password reset does, a password change when asked: after an
 * account takeover the attacker's token must stop working too; docs/security.md). Answers how many.
 */
export async function revokeUserApiTokens(db: Db, userId: number): Promise<number> {
  const deleted = await db.delete(apiTokens).where(eq(apiTokens.userId, userId)).returning({ id: apiTokens.id });
  if (deleted.length > 0) {
    await recordAccountAudit(db, userId, {
      action: 'api_token.revoked',
      actorId: userId,
      details: { all: deleted.length },
    });
  }
  return deleted.length;
}

/** The names of a user's tokens that still work (not expired), oldest first: the "password changed" mail lists them. */
export async function liveApiTokenNames(db: Db, userId: number): Promise<string[]> {
  const rows = await db
    .select({ name: apiTokens.name })
    .from(apiTokens)
    .where(and(eq(apiTokens.userId, userId), or(isNull(apiTokens.expiresAt), gt(apiTokens.expiresAt, sql`now()`))))
    .orderBy(asc(apiTokens.createdAt), asc(apiTokens.id));
  return rows.map((row) => row.name);
}

/**
 * The lookup of a token by its hash, on every request that carries one: a named prepared statement
 * (docs/architecture.md, "Statements"), so PostgreSQL plans it once per connection.
 */
export function prepareApiTokenLookup(db: Db) {
  return db
    .select({ id: apiTokens.id, userId: apiTokens.userId, scope: apiTokens.scope, expiresAt: apiTokens.expiresAt })
    .from(apiTokens)
    .where(eq(apiTokens.tokenHash, sql.placeholder('hash')))
    .prepare('auth_api_token');
}

export type ApiTokenLookup = ReturnType<typeof prepareApiTokenLookup>;

/**
 * The owner and scope of a live token (not revoked, not expired), or undefined. Records the use,
 * at most once a minute, so `last_used_at` is close without a write on every request.
 */
export async function findApiToken(
  { db, lookup }: { db: Db; lookup: ApiTokenLookup },
  keys: TokenKeys,
  token: string,
): Promise<{ id: number; userId: number; scope: TApiTokenScope; expiresAt: Date | null } | undefined> {
  const now = new Date();
  const [row] = await lookup.execute({ hash: hashSecret(keys, token) });
  if (!row || (row.expiresAt && row.expiresAt <= now)) return undefined;
  await db
    .update(apiTokens)
    .set({ lastUsedAt: now })
    .where(
      and(
        eq(apiTokens.id, row.id),
        or(isNull(apiTokens.lastUsedAt), lt(apiTokens.lastUsedAt, sql`now() - interval '1 minute'`)),
      ),
    );
  return { ...row, scope: asScope(row.scope) };
}
