import { and, desc, eq, isNull } from 'drizzle-orm';
import type { TReviewLinkCreated } from '@stageline/shared/review-sessions';
import { schema, type Db } from '../../db';
import { AppError } from '../../http/errors';
import { hashPassword, hashSecret, randomToken, type TokenKeys } from '../auth';
import { presentLink } from './presenter';
import { authorizeSession } from './service';

const { reviewLinks, reviewSessions, users } = schema;

/** The web page a client opens (docs/review-sessions.md); the token is its only key. */
export const clientPath = (token: string) => `/review/${token}`;

/**
 * POST review_sessions/{id}/links/: a share link (Admins; Members where the workspace allows). The
 * token is answered once and stored as an HMAC; the password as an argon2id hash.
 */
export async function createLink(
  db: Db,
  keys: TokenKeys,
  {
    userId,
    sessionId,
    input,
  }: {
    userId: number;
    sessionId: number;
    input: { days: number; password?: string | undefined; may_comment: boolean; may_decide: boolean };
  },
): Promise<TReviewLinkCreated> {
  await authorizeSession(db, { userId, sessionId, action: 'share' });
  const token = randomToken();
  const [row] = await db
    .insert(reviewLinks)
    .values({
      sessionId,
      tokenHash: hashSecret(keys, token),
      passwordHash: input.password ? await hashPassword(input.password) : null,
      mayComment: input.may_comment,
      mayDecide: input.may_decide,
      expiresAt: new Date(Date.now() + input.days * 86_400_000),
      createdBy: userId,
    })
    .returning();
  const [creator] = await db.select().from(users).where(eq(users.id, userId));
  return { ...presentLink(row!, creator ?? null), token, path: clientPath(token) };
}

/** GET review_sessions/{id}/links/: every link of the session, the newest first, revoked ones too. */
export async function listLinks(db: Db, { userId, sessionId }: { userId: number; sessionId: number }) {
  await authorizeSession(db, { userId, sessionId, action: 'share' });
  const rows = await db
    .select({ link: reviewLinks, creator: users })
    .from(reviewLinks)
    .leftJoin(users, eq(users.id, reviewLinks.createdBy))
    .where(eq(reviewLinks.sessionId, sessionId))
    .orderBy(desc(reviewLinks.id));
  return { results: rows.map((r) => presentLink(r.link, r.creator)) };
}

/** POST review_links/{id}/revoke/: the link stops opening at once; it stays listed as revoked. */
export async function revokeLink(db: Db, { userId, linkId }: { userId: number; linkId: number }) {
  const [found] = await db
    .select({ sessionId: reviewLinks.sessionId })
    .from(reviewLinks)
    .innerJoin(reviewSessions, eq(reviewSessions.id, reviewLinks.sessionId))
    .where(eq(reviewLinks.id, linkId));
  if (!found) throw new AppError('not_found');
  await authorizeSession(db, { userId, sessionId: found.sessionId, action: 'share' });
  await db
    .update(reviewLinks)
    .set({ revokedAt: new Date(), revokedBy: userId })
    .where(and(eq(reviewLinks.id, linkId), isNull(reviewLinks.revokedAt)));
  const [row] = await db
    .select({ link: reviewLinks, creator: users })
    .from(reviewLinks)
    .leftJoin(users, eq(users.id, reviewLinks.createdBy))
    .where(eq(reviewLinks.id, linkId));
  return presentLink(row!.link, row!.creator);
}
