import { signJwt, verifyJwt, type TokenKeys } from '../auth';

/**
 * The token of a digest's unsubscribe link: a JWT signed with the app's key (like the session
 * tokens of `features/auth`, told apart by `typ`), naming the user. It lives long, since people
 * unsubscribe from old mails too; it only ever turns e-mail off, so it needs no single use.
 */
export const unsubscribeTokenDays = 90;

export function signUnsubscribe(keys: TokenKeys, userId: number): string {
  return signJwt(keys.jwt, { typ: 'unsubscribe', sub: String(userId) }, { seconds: unsubscribeTokenDays * 86_400 });
}

/** The user id of a valid unsubscribe token, or null when it is expired, forged or of another kind. */
export function verifyUnsubscribe(keys: TokenKeys, token: string): number | null {
  const payload = verifyJwt(keys.jwt, token);
  if (payload?.typ !== 'unsubscribe') return null;
  const userId = Number(payload.sub);
  return Number.isSafeInteger(userId) && userId > 0 ? userId : null;
}
