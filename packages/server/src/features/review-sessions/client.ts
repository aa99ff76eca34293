import { eq } from 'drizzle-orm';
import {
  ReviewSessionLimits,
  ReviewSessionMessages,
  type TClientFeedbackCreate,
  type TClientSession,
} from '@stageline/shared/review-sessions';
import { schema, type Db } from '../../db';
import { AppError, FieldError } from '../../http/errors';
import { clearCount, countHit, peekCount } from '../../http/rate-limit';
import { latestRoundRows, previewOf, type FilesContext } from '../attachments';
import { hashSecret, signJwt, verifyJwt, verifyPassword, type TokenKeys } from '../auth';
import { presentFeedback } from './presenter';
import { feedbackOf, itemOf, itemsOf } from './service';

/**
 * A client's side of a review link (docs/review-sessions.md): no account, only the link's token in
 * the path, and once opened (with the password when it has one) a short-lived `access` JWT of type
 * `review` bound to that link. Nothing here names a member of the workspace.
 */

const { reviewLinks, reviewSessions, clientFeedback, tasks } = schema;

type LinkRow = typeof schema.reviewLinks.$inferSelect;
export type OpenLink = { link: LinkRow; session: typeof schema.reviewSessions.$inferSelect };

/** The audience of a client's access token: never accepted where an access or file token is wanted. */
const accessAudience = 'review-link';

/**
 * The link a token names, when it still opens: 404 for an unknown one, 403 with the reason for a
 * revoked or expired one (the person holds a real link, so they are told why it stopped).
 */
export async function linkOf(db: Db, keys: TokenKeys, token: string): Promise<OpenLink> {
  const [row] = await db
    .select({ link: reviewLinks, session: reviewSessions })
    .from(reviewLinks)
    .innerJoin(reviewSessions, eq(reviewSessions.id, reviewLinks.sessionId))
    .where(eq(reviewLinks.tokenHash, hashSecret(keys, token)));
  if (!row) throw new AppError('not_found', ReviewSessionMessages.linkUnknown);
  if (row.link.revokedAt) throw new AppError('permission_denied', ReviewSessionMessages.linkRevoked);
  if (row.link.expiresAt <= new Date()) throw new AppError('permission_denied', ReviewSessionMessages.linkExpired);
  return row;
}

/** The counter of wrong passwords of one link (shared by every process, in PostgreSQL). */
const failuresKey = (linkId: number) => `review-link-password:${linkId}`;
const lockRule = { max: ReviewSessionLimits.passwordTries, windowSeconds: ReviewSessionLimits.lockMinutes * 60 };

function locked(retryAfter: number): AppError {
  return new AppError(
    'rate_limited',
    ReviewSessionMessages.locked,
    { minutes: ReviewSessionLimits.lockMinutes },
    { 'retry-after': String(retryAfter) },
  );
}

/**
 * POST client/{token}/open/: checks the password (when the link has one) and answers an access
 * token. Wrong passwords are counted per link; at `passwordTries` the link refuses every try,
 * right ones included, until the window ends (429).
 */
export async function openLink(db: Db, keys: TokenKeys, token: string, password: string | undefined) {
  const { link } = await linkOf(db, keys, token);
  if (link.passwordHash !== null) {
    const before = await peekCount(db, failuresKey(link.id));
    if (before.hits >= lockRule.max) throw locked(before.retryAfter);
    if (!password) throw new FieldError({ password: [ReviewSessionMessages.passwordRequired] });
    if (!(await verifyPassword(link.passwordHash, password))) {
      const after = await countHit(db, failuresKey(link.id), lockRule);
      if (after.hits >= lockRule.max) throw locked(after.retryAfter);
      throw new FieldError({ password: [ReviewSessionMessages.wrongPassword] });
    }
    await clearCount(db, failuresKey(link.id));
  }
  const seconds = Math.max(
    1,
    Math.min(ReviewSessionLimits.accessMinutes * 60, Math.floor((link.expiresAt.getTime() - Date.now()) / 1000)),
  );
  const access = signJwt(keys.jwt, { typ: 'review', lnk: link.id }, { seconds, audience: accessAudience });
  return { access, expires_at: new Date(Date.now() + seconds * 1000).toISOString() };
}

/** The link of a token whose access token is valid for it: 401 asking to open it again otherwise. */
export async function accessedLink(db: Db, keys: TokenKeys, token: string, access: string | undefined) {
  const open = await linkOf(db, keys, token);
  const claims = access ? verifyJwt(keys.jwt, access, { audience: accessAudience }) : null;
  if (claims?.typ !== 'review' || claims.lnk !== open.link.id)
    throw new AppError('token_not_valid', ReviewSessionMessages.accessExpired);
  return open;
}

/** The URL of a file for a client: their link's path, their access token. */
const fileUrl = (token: string, access: string, fileId: number) =>
  `/api/client/${encodeURIComponent(token)}/files/${fileId}/content/?access=${encodeURIComponent(access)}`;

/** GET client/{token}/session/: the session's items with their latest round of files, and no people. */
export async function clientSession(
  db: Db,
  { link, session }: OpenLink,
  { token, access }: { token: string; access: string },
): Promise<TClientSession> {
  const items = await itemsOf(db, session.id);
  const taskIds = items.map((i) => i.taskId);
  const [files, feedback] = await Promise.all([latestRoundRows(db, taskIds), feedbackOf(db, taskIds, link.id)]);
  return {
    name: session.name,
    may_comment: link.mayComment,
    may_decide: link.mayDecide,
    expires_at: link.expiresAt.toISOString(),
    items: items.map((item) => ({
      id: item.id,
      position: item.position,
      unit: item.unitName,
      stage: item.stageName,
      round: item.round,
      files: (files.get(item.taskId)?.rows ?? []).map((f) => ({
        id: f.id,
        name: f.name,
        size: f.size,
        content_type: f.contentType,
        preview: previewOf(f.contentType),
        round: f.round,
        content_url: fileUrl(token, access, f.id),
      })),
      feedback: (feedback.get(item.taskId) ?? []).map(({ session: _session, ...rest }) => rest),
    })),
  };
}

/** A file a client may read: one shown in their session (an item's latest round), else 404. */
export async function clientFile(ctx: FilesContext, { session }: OpenLink, fileId: number) {
  const items = await itemsOf(ctx.db, session.id);
  const files = await latestRoundRows(
    ctx.db,
    items.map((i) => i.taskId),
  );
  for (const { rows } of files.values()) {
    const file = rows.find((r) => r.id === fileId);
    if (file) return file;
  }
  throw new AppError('not_found');
}

/**
 * POST client/{token}/items/{item}/feedback/: a comment, an approval or a request for changes on an
 * item, recorded on its task as a client decision of the task's current round.
 */
export async function giveFeedback(
  db: Db,
  { link, session }: OpenLink,
  {
    itemId,
    input,
  }: { itemId: number; input: Required<Pick<TClientFeedbackCreate, 'kind' | 'name'>> & { text: string } },
) {
  if (input.kind === 'comment' && !link.mayComment)
    throw new AppError('permission_denied', ReviewSessionMessages.mayNotComment);
  if (input.kind !== 'comment' && !link.mayDecide)
    throw new AppError('permission_denied', ReviewSessionMessages.mayNotDecide);
  const item = await itemOf(db, session.id, itemId);
  const [task] = await db.select({ round: tasks.iterationNumber }).from(tasks).where(eq(tasks.id, item.taskId));
  const [row] = await db
    .insert(clientFeedback)
    .values({
      workspaceId: session.workspaceId,
      taskId: item.taskId,
      linkId: link.id,
      sessionId: session.id,
      round: task!.round,
      kind: input.kind,
      name: input.name,
      text: input.text,
    })
    .returning();
  const { session: _session, ...presented } = presentFeedback(row!, session.name);
  return presented;
}
