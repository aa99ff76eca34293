import { jwtVerify, SignJWT } from 'jose';
import { Limits } from '@stageline/shared';
import type { TokenKeys } from '../auth';

/**
 * The token in a file's URL (docs/files.md, docs/security.md): `<img>` and `<video>` send no bearer
 * header, so the URL itself says who may read which file, for a few minutes. It is a JWT of its own
 * type, bound to one user and one attachment; it is never accepted where an access token is wanted.
 */
export function signFileToken(keys: TokenKeys, { userId, attachmentId }: { userId: number; attachmentId: number }) {
  return new SignJWT({ typ: 'file', sub: String(userId), att: attachmentId })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt()
    .setExpirationTime(Math.floor(Date.now() / 1000) + Limits.attachmentUrlMinutes * 60)
    .sign(keys.jwt);
}

/** The user a file token was signed for, when it is valid and made for this attachment; else null. */
export async function verifyFileToken(keys: TokenKeys, token: string, attachmentId: number): Promise<number | null> {
  try {
    const { payload } = await jwtVerify(token, keys.jwt, { algorithms: ['HS256'], requiredClaims: ['exp'] });
    if (payload.typ !== 'file' || payload.att !== attachmentId) return null;
    const userId = Number(payload.sub);
    return Number.isSafeInteger(userId) && userId > 0 ? userId : null;
  } catch {
    return null;
  }
}
