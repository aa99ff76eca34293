import { randomUUID } from 'node:crypto';
import { and, desc, eq, gt, isNull, ne, sql } from 'drizzle-orm';
import { Limits, type TSession, type TTokenPair } from '@stageline/shared';
import { schema, type Db } from '../../db';
import { AppError } from '../../http/errors';
import type { AuthContext, ClientInfo } from './context';
import { signAccess, signRefresh, verifyToken, type TokenKeys } from './tokens';

const refreshLifetimeMs = Limits.refreshTokenDays * 86_400_000;

function tokenPair(keys: TokenKeys, userId: number, sessionId: number, jti: string): TTokenPair {
  return { access: signAccess(keys, userId, sessionId), refresh: signRefresh(keys, userId, sessionId, jti) };
}

/**
 * Opens a session (a refresh-token family) for a user who has proven who they are, and answers its
 * tokens. Every way of signing in ends here: password, e-mail code, and OAuth.
 */
export async function issueSession(
  ctx: Pick<AuthContext, 'db' | 'keys'>,
  { userId, client }: { userId: number; client: ClientInfo },
): Promise<TTokenPair> {
  const jti = randomUUID();
  const [session] = await ctx.db
    .insert(schema.sessions)
    .values({
      userId,
      refreshJti: jti,
      userAgent: client.userAgent,
      ip: client.ip,
      expiresAt: new Date(Date.now() + refreshLifetimeMs),
    })
    .returning({ id: schema.sessions.id });
  return tokenPair(ctx.keys, userId, session!.id, jti);
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
    await ctx.db
      .update(schema.sessions)
      .set({ revokedAt: now })
      .where(
        and(
          eq(schema.sessions.id, claims.sid),
          eq(schema.sessions.userId, claims.userId),
          ne(schema.sessions.refreshJti, claims.jti),
          isNull(schema.sessions.revokedAt),
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
  await revokeSession(ctx.db, { userId: claims.userId, sessionId: claims.sid });
}

/** Revokes one session of a user; false when the user has no such live session. */
export async function revokeSession(db: Db, { userId, sessionId }: { userId: number; sessionId: number }) {
  const revoked = await db
    .update(schema.sessions)
    .set({ revokedAt: new Date() })
    .where(
      and(eq(schema.sessions.id, sessionId), eq(schema.sessions.userId, userId), isNull(schema.sessions.revokedAt)),
    )
    .returning({ id: schema.sessions.id });
  return revoked.length > 0;
}

/** Signs a user out everywhere, or everywhere but the session `exceptSessionId`. */
export async function revokeUserSessions(
  db: Db,
  { userId, exceptSessionId }: { userId: number; exceptSessionId?: number },
) {
  await db
    .update(schema.sessions)
    .set({ revokedAt: new Date() })
    .where(
      and(
        eq(schema.sessions.userId, userId),
        isNull(schema.sessions.revokedAt),
        exceptSessionId === undefined ? undefined : ne(schema.sessions.id, exceptSessionId),
      ),
    );
}

/** Whether an access token's session is still live (not revoked, not expired). */
export async function isSessionLive(db: Db, { userId, sessionId }: { userId: number; sessionId: number }) {
  const [row] = await db
    .select({ id: schema.sessions.id })
    .from(schema.sessions)
    .where(
      and(
        eq(schema.sessions.id, sessionId),
        eq(schema.sessions.userId, userId),
        isNull(schema.sessions.revokedAt),
        gt(schema.sessions.expiresAt, new Date()),
      ),
    );
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
