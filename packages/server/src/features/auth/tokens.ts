import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { Limits } from '@stageline/shared';
import { signJwt, verifyJwt } from './jwt';

/** Signing key of the JWTs and key of the hashes of codes and link tokens, from one secret. */
export type TokenKeys = { jwt: Uint8Array; hmac: Buffer };

export function createKeys(secret: string): TokenKeys {
  return {
    jwt: new TextEncoder().encode(secret),
    hmac: createHmac('sha256', secret).update('stageline:hmac').digest(),
  };
}

/**
 * The code step a sign-in waits for: verifying a new e-mail, the second factor, or the code an
 * account with too many failed sign-ins needs on top of its password.
 */
export type EphemeralPurpose = 'register' | 'login' | 'unlock';
const ephemeralPurposes: readonly string[] = ['register', 'login', 'unlock'] satisfies EphemeralPurpose[];

export type AccessClaims = { typ: 'access'; sub: string; sid: number };
export type RefreshClaims = { typ: 'refresh'; sub: string; sid: number; jti: string };
export type EphemeralClaims = { typ: 'ephemeral'; sub: string; purpose: EphemeralPurpose };
type Claims = AccessClaims | RefreshClaims | EphemeralClaims;

/** Lifetime of the token that links a login or sign-up to its code step. */
export const ephemeralTokenMinutes = 10;

export function signAccess(keys: TokenKeys, userId: number, sessionId: number): string {
  return signJwt(
    keys.jwt,
    { typ: 'access', sub: String(userId), sid: sessionId },
    {
      seconds: Limits.accessTokenMinutes * 60,
    },
  );
}

export function signRefresh(keys: TokenKeys, userId: number, sessionId: number, jti: string): string {
  return signJwt(
    keys.jwt,
    { typ: 'refresh', sub: String(userId), sid: sessionId, jti },
    {
      seconds: Limits.refreshTokenDays * 86_400,
    },
  );
}

export function signEphemeral(keys: TokenKeys, userId: number, purpose: EphemeralPurpose): string {
  return signJwt(keys.jwt, { typ: 'ephemeral', sub: String(userId), purpose }, { seconds: ephemeralTokenMinutes * 60 });
}

/**
 * The claims of a valid token of type `typ`, or null when it is expired, forged, of another type or
 * without `exp` (every token we sign expires; one that does not was not made by us as it should be).
 */
export function verifyToken<T extends Claims['typ']>(
  keys: TokenKeys,
  token: string,
  typ: T,
): (Extract<Claims, { typ: T }> & { userId: number; exp: number }) | null {
  const payload = verifyJwt(keys.jwt, token);
  if (!payload || payload.typ !== typ) return null;
  const userId = Number(payload.sub);
  if (typeof payload.sub !== 'string' || !Number.isSafeInteger(userId) || userId <= 0) return null;
  if (typ !== 'ephemeral' && !Number.isSafeInteger(payload.sid)) return null;
  if (typ === 'refresh' && typeof payload.jti !== 'string') return null;
  if (typ === 'ephemeral' && !ephemeralPurposes.includes(payload.purpose as string)) return null;
  return { ...(payload as unknown as Extract<Claims, { typ: T }>), userId, exp: payload.exp };
}

/** A keyed hash of a code or link token: what the database stores instead of the value. */
export function hashSecret(keys: TokenKeys, value: string): string {
  return createHmac('sha256', keys.hmac).update(value).digest('hex');
}

export function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}

/** A random URL-safe token for links (256 bits). */
export function randomToken(): string {
  return randomBytes(32).toString('base64url');
}
