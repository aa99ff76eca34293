import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * HS256 JWTs with `node:crypto` (docs/decisions.md, decision 99): every token we sign ourselves
 * (access, refresh, ephemeral, file, unsubscribe, OAuth flow) goes through here. A synchronous HMAC
 * costs a few microseconds where jose's WebCrypto path cost a promise chain per request. The format
 * is the standard one (base64url `header.payload.signature`, header `{"alg":"HS256","typ":"JWT"}`), so
 * tokens signed before, or by any JWT library with the same key, verify.
 */

/** The claims of a verified token: any JSON object, whose `exp` (epoch seconds) is in the future. */
export type JwtPayload = { [claim: string]: unknown; exp: number };

const encodedHeader = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');
const base64url = /^[A-Za-z0-9_-]+$/;

function signature(key: Uint8Array, signingInput: string): string {
  return createHmac('sha256', key).update(signingInput).digest('base64url');
}

/** A JSON object from a base64url segment, or null when it is not one. */
function decodeObject(segment: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(Buffer.from(segment, 'base64url').toString('utf8'));
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

/** Signs `claims` with `iat` now and `exp` in `seconds`; `audience` sets `aud`. */
export function signJwt(
  key: Uint8Array,
  claims: Record<string, unknown>,
  { seconds, audience }: { seconds: number; audience?: string },
): string {
  const now = Math.floor(Date.now() / 1000);
  const payload = { ...claims, ...(audience === undefined ? {} : { aud: audience }), iat: now, exp: now + seconds };
  const signingInput = `${encodedHeader}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}`;
  return `${signingInput}.${signature(key, signingInput)}`;
}

/**
 * The claims of a token signed with `key`, or null when it is malformed, forged, not HS256, without
 * `exp` or expired, not yet valid (`nbf`), or (with `audience`) made for another audience. The
 * signature is checked, in constant time, before anything of the token is parsed.
 */
export function verifyJwt(key: Uint8Array, token: string, { audience }: { audience?: string } = {}): JwtPayload | null {
  const parts = token.split('.');
  if (parts.length !== 3 || !parts.every((part) => base64url.test(part))) return null;
  const [header, body, given] = parts as [string, string, string];
  const expected = Buffer.from(signature(key, `${header}.${body}`));
  const received = Buffer.from(given);
  if (received.length !== expected.length || !timingSafeEqual(received, expected)) return null;

  const protectedHeader = decodeObject(header);
  // `crit` names extensions we would have to understand: we understand none (RFC 7515 §4.1.11).
  if (!protectedHeader || protectedHeader.alg !== 'HS256' || 'crit' in protectedHeader) return null;
  const payload = decodeObject(body);
  if (!payload) return null;
  const now = Math.floor(Date.now() / 1000);
  const { exp, nbf, iat, aud } = payload;
  if (typeof exp !== 'number' || !Number.isFinite(exp) || exp <= now) return null;
  if (nbf !== undefined && (typeof nbf !== 'number' || nbf > now)) return null;
  if (iat !== undefined && typeof iat !== 'number') return null;
  if (audience !== undefined && !(aud === audience || (Array.isArray(aud) && aud.includes(audience)))) return null;
  return { ...payload, exp };
}
