import { personName } from '@stageline/shared';
import { type TClientFeedback, type TReviewLink } from '@stageline/shared/review-sessions';
import type { schema } from '../../db';

type FeedbackRow = typeof schema.clientFeedback.$inferSelect;
type LinkRow = typeof schema.reviewLinks.$inferSelect;

/** What a client said, as the team sees it (the session named when it still exists). */
export function presentFeedback(row: FeedbackRow, sessionName: string | null): TClientFeedback {
  return {
    id: row.id,
    kind: row.kind,
    name: row.name,
    text: row.text,
    round: row.round,
    created_at: row.createdAt.toISOString(),
    session: row.sessionId !== null && sessionName !== null ? { id: row.sessionId, name: sessionName } : null,
  };
}

/** A share link as the team lists it: never its token (only its HMAC is stored) nor its password. */
export function presentLink(
  row: LinkRow,
  creator: { id: number; firstName: string; lastName: string; username: string } | null,
  now = new Date(),
): TReviewLink {
  return {
    id: row.id,
    session: row.sessionId,
    has_password: row.passwordHash !== null,
    may_comment: row.mayComment,
    may_decide: row.mayDecide,
    expires_at: row.expiresAt.toISOString(),
    created_at: row.createdAt.toISOString(),
    created_by: creator ? { id: creator.id, name: personName(creator) } : null,
    revoked_at: row.revokedAt?.toISOString() ?? null,
    active: row.revokedAt === null && row.expiresAt > now,
  };
}
