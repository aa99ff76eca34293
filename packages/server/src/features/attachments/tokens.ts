import { Limits } from '@stageline/shared';
import { signJwt, verifyJwt, type TokenKeys } from '../auth';

/**
 * The token in a file's URL (docs/files.md, docs/security.md): `<img>` and `<video>` send no bearer
 * header, so the URL itself says who may read which file, for a few minutes. It is a JWT of its own
 * type, bound to one user and one attachment; it is never accepted where an access token is wanted.
 */
export function signFileToken(keys: TokenKeys, { userId, attachmentId }: { userId: number; attachmentId: number }) {
  return signJwt(
    keys.jwt,
    { typ: 'file', sub: String(userId), att: attachmentId },
    {
      seconds: Limits.attachmentUrlMinutes * 60,
    },
  );
}

/** The user a file token was signed for, when it is valid and made for this attachment; else null. */
export function verifyFileToken(keys: TokenKeys, token: string, attachmentId: number): number | null {
  const payload = verifyJwt(keys.jwt, token);
  if (payload?.typ !== 'file' || payload.att !== attachmentId) return null;
  const userId = Number(payload.sub);
  return Number.isSafeInteger(userId) && userId > 0 ? userId : null;
}
