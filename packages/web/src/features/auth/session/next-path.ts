import { paths } from '@stageline/shared';

/** Screens that must not be returned to after signing in: they would sign out or loop. */
const authPaths = [paths.login(), paths.register(), paths.resetPassword(), paths.logout(), paths.oauth()];

/**
 * The `next` of `/login?next=…`, if it is safe to go to: a relative path of this site starting
 * with a single '/', never an absolute or protocol-relative URL (`//evil.example`, `/\evil`) nor
 * an auth screen. Anything else gives null, and the caller goes to /app.
 */
export function sanitizeNext(raw: string | null | undefined): string | null {
  if (!raw || raw.length > 2048 || !raw.startsWith('/') || raw.startsWith('//')) return null;
  // Browsers treat '\' as '/' and drop tabs and newlines, so '/\evil' or '/\t/evil' leave the site.
  if ([...raw].some((char) => char === '\\' || char.charCodeAt(0) < 0x20 || char.charCodeAt(0) === 0x7f)) return null;
  const base = 'http://stageline.invalid';
  let url: URL;
  try {
    url = new URL(raw, base);
  } catch {
    return null;
  }
  if (url.origin !== base) return null;
  const path = url.pathname.replace(/\/+$/, '') || '/';
  if (authPaths.includes(path) || path.startsWith(`${paths.oauth()}/`)) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}

/** `/login`, with `?next=` when `next` is a place worth coming back to. */
export function loginPath(next?: string | null): string {
  const safe = sanitizeNext(next);
  return safe ? `${paths.login()}?next=${encodeURIComponent(safe)}` : paths.login();
}

/** `/register`, keeping `next` as `loginPath` does: signing up on the way to an invite lands on it. */
export function registerPath(next?: string | null): string {
  const safe = sanitizeNext(next);
  return safe ? `${paths.register()}?next=${encodeURIComponent(safe)}` : paths.register();
}
