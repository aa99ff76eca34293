/** The claims of a JWT the client reads: its expiry and issue time, in seconds since the epoch. */
export type TJwtTimes = { exp: number; iat?: number };

/** The longest delay `setTimeout` honours (about 24.8 days); longer ones fire at once. */
export const maxTimerDelayMs = 2 ** 31 - 1;

/**
 * Reads `exp` (and `iat`) from a JWT's payload without verifying it: the server verifies, the
 * client only needs to know when to refresh. Anything unreadable gives null.
 */
export function jwtTimes(token: string): TJwtTimes | null {
  const payload = token.split('.')[1];
  if (!payload) return null;
  try {
    const base64 = payload.replace(/-/g, '+').replace(/_/g, '/');
    const padded = base64 + '='.repeat((4 - (base64.length % 4)) % 4);
    const claims: unknown = JSON.parse(atob(padded));
    if (typeof claims !== 'object' || claims === null) return null;
    const { exp, iat } = claims as { exp?: unknown; iat?: unknown };
    if (typeof exp !== 'number' || !Number.isFinite(exp)) return null;
    return typeof iat === 'number' && Number.isFinite(iat) ? { exp, iat } : { exp };
  } catch {
    return null;
  }
}

/**
 * How long to wait before refreshing `access` proactively: a fifth of its lifetime ahead of the
 * expiry, between 5 s and 60 s (a minute for the 5-minute tokens of docs/rules.md §Limits). Zero when it
 * is already due; null when the token has no readable expiry (the 401 path still refreshes it).
 */
export function refreshDelay(access: string, now: number): number | null {
  const times = jwtTimes(access);
  if (!times) return null;
  const expiresAt = times.exp * 1000;
  const lifetime = times.iat !== undefined ? expiresAt - times.iat * 1000 : 5 * 60_000;
  const lead = Math.min(60_000, Math.max(5_000, lifetime / 5));
  return Math.max(0, Math.round(expiresAt - lead - now));
}
