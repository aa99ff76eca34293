import { randomUUID } from 'node:crypto';
import { and, desc, eq, gt, isNull, ne, sql, type SQL } from 'drizzle-orm';
import { Limits, type TSession, type TTokenPair } from '@stageline/shared';
import { NotifyChannel, schema, type Db } from '../../db';
import { AppError } from '../../http/errors';
import { recordAccountAudit } from '../audit';
import type { AuthContext, ClientInfo } from './context';
import { sessionEndedPrefix, type SessionCache } from './session-cache';
import { signAccess, signRefresh, verifyToken, type TokenKeys } from './tokens';

const refreshLifetimeMs = Limits.refreshTokenDays * 86_400_000;

function tokenPair(keys: TokenKeys, userId: number, sessionId: number, jti: string): TTokenPair {
  return { access: signAccess(keys, userId, sessionId), refresh: signRefresh(keys, userId, sessionId, jti) };
}

/** How a user proved who they are: what the audit log's sign-in entry says. */
export type SignInMethod = 'password' | 'code' | 'oauth';

/**
 * Opens a session (a refresh-token family) for a user who has proven who they are, and answers its
 * tokens. Every way of signing in ends here: password, e-mail code, and OAuth. The sign-in is an
 * entry of the audit log of each of the user's workspaces, in the same transaction (decision 221).
 */
export async function issueSession(
  ctx: Pick<AuthContext, 'db' | 'keys'>,
  { userId, client, method = 'password' }: { userId: number; client: ClientInfo; method?: SignInMethod },
): Promise<TTokenPair> {
  const jti = randomUUID();
  const session = await ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(schema.sessions)
      .values({
        userId,
        refreshJti: jti,
        userAgent: client.userAgent,
        ip: client.ip,
        expiresAt: new Date(Date.now() + refreshLifetimeMs),
      })
      .returning({ id: schema.sessions.id });
    await recordAccountAudit(tx, userId, {
      action: 'auth.sign_in',
      actorId: userId,
      target: { kind: 'session', id: row!.id },
      details: { method },
    });
    return row!;
  });
  return tokenPair(ctx.keys, userId, session.id, jti);
}

/**
 * Rotates a refresh token. A validly signed token of the family whose jti is no longer the current
 * one was used before: someone holds a copy, so the whole family is revoked (docs/rules.md §Accounts).
 */
export async function rotateRefreshToken(
  ctx: AuthContext,
  { refresh, client }: { refresh: string; client: ClientInfo },
) {
  const claims = verifyToken(ctx.keys, refresh, 'refresh');
  if (!claims) throw new AppError('token_not_valid');
  const now = new Date();
  const jti = randomUUID();
  const rotated = await ctx.db
    .update(schema.sessions)
    .set({
      refreshJti: jti,
      rotations: sql`${schema.sessions.rotations} + 1`,
      lastUsedAt: now,
      expiresAt: new Date(now.getTime() + refreshLifetimeMs),
      ip: client.ip,
      userAgent: client.userAgent,
    })
    .where(
      and(
        eq(schema.sessions.id, claims.sid),
        eq(schema.sessions.userId, claims.userId),
        eq(schema.sessions.refreshJti, claims.jti),
        isNull(schema.sessions.revokedAt),
        gt(schema.sessions.expiresAt, now),
      ),
    )
    .returning({ id: schema.sessions.id });
  if (rotated.length === 0) {
    // Reuse of an older token of a live family: revoke it (no-op when already revoked or expired).
    await endSessions(
      ctx,
      and(
        eq(schema.sessions.id, claims.sid),
        eq(schema.sessions.userId, claims.userId),
        ne(schema.sessions.refreshJti, claims.jti),
      ),
    );
    throw new AppError('token_not_valid');
  }
  return tokenPair(ctx.keys, claims.userId, claims.sid, jti);
}

/** Logout: revokes the family of a refresh token. Unknown or invalid tokens change nothing. */
export async function revokeByRefreshToken(ctx: AuthContext, refresh: string): Promise<void> {
  const claims = verifyToken(ctx.keys, refresh, 'refresh');
  if (!claims) return;
  await revokeSession(ctx, { userId: claims.userId, sessionId: claims.sid });
}

/** What ending sessions needs: the database, and this instance's cache of live sessions. */
export type SessionsContext = Pick<AuthContext, 'db' | 'sessionCache'>;

/**
 * The one way a session ends: marks the not yet revoked sessions matching `where` revoked and, in
 * the same statement, NOTIFYs `session:<id>` for each, so every process forgets it once this commits
 * (docs/security.md, "Tokens"); this instance forgets them at once. Answers the ended ids.
 */
async function endSessions({ db, sessionCache }: SessionsContext, where: SQL | undefined): Promise<number[]> {
  const ended = db.$with('ended').as(
    db
      .update(schema.sessions)
      .set({ revokedAt: new Date() })
      .where(and(isNull(schema.sessions.revokedAt), where))
      .returning({ id: schema.sessions.id }),
  );
  const rows = await db
    .with(ended)
    .select({
      id: ended.id,
      notified: sql`pg_notify(${NotifyChannel}, ${sessionEndedPrefix}::text || ${ended.id}::text)`,
    })
    .from(ended);
  const ids = rows.map((row) => row.id);
  sessionCache.forget(ids);
  return ids;
}

/** Revokes one session of a user; false when the user has no such live session. */
export async function revokeSession(
  ctx: SessionsContext,
  { userId, sessionId }: { userId: number; sessionId: number },
) {
  const ended = await endSessions(ctx, and(eq(schema.sessions.id, sessionId), eq(schema.sessions.userId, userId)));
  return ended.length > 0;
}

/** Signs a user out everywhere, or everywhere but the session `exceptSessionId`; how many ended. */
export async function revokeUserSessions(
  ctx: SessionsContext,
  { userId, exceptSessionId }: { userId: number; exceptSessionId?: number },
): Promise<number> {
  const ended = await endSessions(
    ctx,
    and(
      eq(schema.sessions.userId, userId),
      exceptSessionId === undefined ? undefined : ne(schema.sessions.id, exceptSessionId),
    ),
  );
  return ended.length;
}

/**
 * The session check of a request with an access token when the cache has no answer: a named
 * prepared statement (docs/architecture.md, "Statements"); it answers the session's expiry.
 */
export function prepareSessionLookup(db: Db) {
  return db
    .select({ expiresAt: schema.sessions.expiresAt })
    .from(schema.sessions)
    .where(
      and(
        eq(schema.sessions.id, sql.placeholder('sessionId')),
        eq(schema.sessions.userId, sql.placeholder('userId')),
        isNull(schema.sessions.revokedAt),
        gt(schema.sessions.expiresAt, sql`now()`),
      ),
    )
    .prepare('auth_live_session');
}

export type SessionLookup = ReturnType<typeof prepareSessionLookup>;

/**
 * Whether an access token's session is live, from this instance's cache or else the database (whose
 * "live" answer is then cached: `SessionCache`).
 */
export async function isSessionLiveCached(
  { sessionCache, lookup }: { sessionCache: SessionCache; lookup: SessionLookup },
  { userId, sessionId }: { userId: number; sessionId: number },
): Promise<boolean> {
  if (sessionCache.isLive(sessionId, userId)) return true;
  const snapshot = sessionCache.snapshot();
  const [row] = await lookup.execute({ sessionId, userId });
  if (row) sessionCache.remember(snapshot, { sessionId, userId, expiresAt: row.expiresAt });
  return Boolean(row);
}

/** The user's live sessions, most recently used first; `current` marks the caller's. */
export async function listSessions(db: Db, { userId, currentSessionId }: { userId: number; currentSessionId: number }) {
  const rows = await db
    .select()
    .from(schema.sessions)
    .where(
      and(
        eq(schema.sessions.userId, userId),
        isNull(schema.sessions.revokedAt),
        gt(schema.sessions.expiresAt, new Date()),
      ),
    )
    .orderBy(desc(schema.sessions.lastUsedAt), desc(schema.sessions.id));
  return rows.map((row): TSession => ({
    id: row.id,
    created_at: row.createdAt.toISOString(),
    last_used_at: row.lastUsedAt.toISOString(),
    user_agent: row.userAgent,
    ip: row.ip,
    current: row.id === currentSessionId,
  }));
}

/**
 * Whether the account with this e-mail has signed in from `ip` (one of its sessions, live or ended,
 * last came from there): the reset budget of an e-mail spares its owner's own addresses
 * (docs/security.md, "Password reset").
 */
export async function hasSignedInFrom(db: Db, { email, ip }: { email: string; ip: string }): Promise<boolean> {
  const [row] = await db
    .select({ id: schema.sessions.id })
    .from(schema.sessions)
    .innerJoin(schema.users, eq(schema.users.id, schema.sessions.userId))
    .where(
      and(sql`lower(${schema.users.email}) = ${email.trim().toLowerCase()}`, eq(schema.sessions.ip, ip.slice(0, 64))),
    )
    .limit(1);
  return Boolean(row);
}
