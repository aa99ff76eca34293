import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';
import { Limits } from '@stageline/shared';

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

async function sign(keys: TokenKeys, claims: Record<string, unknown>, seconds: number): Promise<string> {
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt()
    .setExpirationTime(Math.floor(Date.now() / 1000) + seconds)
    .sign(keys.jwt);
}

export function signAccess(keys: TokenKeys, userId: number, sessionId: number): Promise<string> {
  return sign(keys, { typ: 'access', sub: String(userId), sid: sessionId }, Limits.accessTokenMinutes * 60);
}

export function signRefresh(keys: TokenKeys, userId: number, sessionId: number, jti: string): Promise<string> {
  return sign(keys, { typ: 'refresh', sub: String(userId), sid: sessionId, jti }, Limits.refreshTokenDays * 86_400);
}

export function signEphemeral(keys: TokenKeys, userId: number, purpose: EphemeralPurpose): Promise<string> {
  return sign(keys, { typ: 'ephemeral', sub: String(userId), purpose }, ephemeralTokenMinutes * 60);
}

/**
 * The claims of a valid token of type `typ`, or null when it is expired, forged, of another type or
 * without `exp` (every token we sign expires; one that does not was not made by us as it should be).
 */
export async function verifyToken<T extends Claims['typ']>(
  keys: TokenKeys,
  token: string,
  typ: T,
): Promise<(Extract<Claims, { typ: T }> & { userId: number; exp?: number }) | null> {
  try {
    const { payload } = await jwtVerify(token, keys.jwt, { algorithms: ['HS256'], requiredClaims: ['exp'] });
    if (payload.typ !== typ) return null;
    const userId = Number(payload.sub);
    if (!Number.isSafeInteger(userId) || userId <= 0) return null;
    if (typ !== 'ephemeral' && !Number.isSafeInteger(payload.sid)) return null;
    if (typ === 'refresh' && typeof payload.jti !== 'string') return null;
    if (typ === 'ephemeral' && !ephemeralPurposes.includes(payload.purpose as string)) return null;
    return { ...(payload as unknown as Extract<Claims, { typ: T }>), userId };
  } catch {
    return null;
  }
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
