import { matchRoutes, type RouteObject } from 'react-router';
import { paths } from '@stageline/shared';

/**
 * Where a reader of each page most likely goes next: a visitor of the landing page to /login, one
 * signing in or up to the app. Those chunks are fetched when the browser is idle.
 */
const nextLikely: Record<string, string> = {
  [paths.home()]: paths.login(),
  [paths.login()]: paths.app.dashboard(),
  [paths.register()]: paths.app.dashboard(),
};

/**
 * Starts loading the code of every route `path` matches (layouts and screen), so a later navigation
 * there does not wait for it. A failure is left to the navigation, which shows the route error screen.
 */
export function preloadPath(routes: RouteObject[], path: string, done = new Set<string>()): void {
  if (done.has(path)) return;
  done.add(path);
  for (const match of matchRoutes(routes, path) ?? []) {
    const lazy = match.route.lazy;
    if (typeof lazy === 'function') void Promise.resolve(lazy()).catch(() => undefined);
  }
}

/** The page most likely opened after `pathname`, or null. */
export function nextLikelyPath(pathname: string): string | null {
  return nextLikely[pathname] ?? null;
}

/**
 * Preloads a link's route when the pointer rests on it or it takes focus (one delegated listener for
 * the whole page), and the next likely route of each page once the browser is idle
 * (docs/decisions.md, "Web speed"). Returns the function that stops it.
 */
export function startPreloading(
  routes: RouteObject[],
  subscribe: (listener: (pathname: string) => void) => () => void,
): () => void {
  const done = new Set<string>();
  const onLink = (event: Event) => {
    const link = event.target instanceof Element ? event.target.closest('a[href]') : null;
    if (!(link instanceof HTMLAnchorElement) || link.origin !== window.location.origin) return;
    preloadPath(routes, link.pathname, done);
  };
  const whenIdle = (pathname: string) => {
    const next = nextLikelyPath(pathname);
    if (!next) return;
    const run = () => preloadPath(routes, next, done);
    if ('requestIdleCallback' in window) window.requestIdleCallback(run, { timeout: 3_000 });
    else setTimeout(run, 1_000);
  };
  document.addEventListener('pointerover', onLink, { passive: true });
  document.addEventListener('focusin', onLink);
  whenIdle(window.location.pathname);
  const stop = subscribe(whenIdle);
  return () => {
    document.removeEventListener('pointerover', onLink);
    document.removeEventListener('focusin', onLink);
    stop();
  };
}
