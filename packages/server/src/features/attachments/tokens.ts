import { Limits } from '@stageline/shared';
import { signJwt, verifyJwt, type TokenKeys } from '../auth';

/**
 * The token in a file's URL (docs/files.md, docs/security.md): `<img>` and `<video>` send no bearer
 * header, so the URL itself says who may read which file, for a few minutes. It is a JWT of its own
 * type, bound to one user, one attachment and the session that asked for it (`sid`, 0 for an API
 * token): signing out ends the links that session made. It is never accepted where an access token
 * is wanted.
 */
export function signFileToken(
  keys: TokenKeys,
  { userId, sessionId, attachmentId }: { userId: number; sessionId: number; attachmentId: number },
) {
  return signJwt(
    keys.jwt,
    { typ: 'file', sub: String(userId), sid: sessionId, att: attachmentId },
    {
      seconds: Limits.attachmentUrlMinutes * 60,
    },
  );
}

/**
 * The user and session a file token was signed for, when it is valid and made for this attachment;
 * else null. Whether the session is still live is the caller's to ask.
 */
export function verifyFileToken(
  keys: TokenKeys,
  token: string,
  attachmentId: number,
): { userId: number; sessionId: number } | null {
  const payload = verifyJwt(keys.jwt, token);
  if (payload?.typ !== 'file' || payload.att !== attachmentId) return null;
  const userId = Number(payload.sub);
  const sessionId = payload.sid;
  if (!Number.isSafeInteger(userId) || userId <= 0) return null;
  if (typeof sessionId !== 'number' || !Number.isSafeInteger(sessionId) || sessionId < 0) return null;
  return { userId, sessionId };
}
