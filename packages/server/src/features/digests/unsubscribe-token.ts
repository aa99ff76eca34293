import { jwtVerify, SignJWT } from 'jose';
import type { TokenKeys } from '../auth';

/**
 * The token of a digest's unsubscribe link: a JWT signed with the app's key (like the session
 * tokens of `features/auth`, told apart by `typ`), naming the user. It lives long, since people
 * unsubscribe from old mails too; it only ever turns e-mail off, so it needs no single use.
 */
export const unsubscribeTokenDays = 90;

export function signUnsubscribe(keys: TokenKeys, userId: number): Promise<string> {
  return new SignJWT({ typ: 'unsubscribe', sub: String(userId) })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt()
    .setExpirationTime(Math.floor(Date.now() / 1000) + unsubscribeTokenDays * 86_400)
    .sign(keys.jwt);
}

/** The user id of a valid unsubscribe token, or null when it is expired, forged or of another kind. */
export async function verifyUnsubscribe(keys: TokenKeys, token: string): Promise<number | null> {
  try {
    const { payload } = await jwtVerify(token, keys.jwt, { algorithms: ['HS256'], requiredClaims: ['exp'] });
    if (payload.typ !== 'unsubscribe') return null;
    const userId = Number(payload.sub);
    return Number.isSafeInteger(userId) && userId > 0 ? userId : null;
  } catch {
    return null;
  }
}
