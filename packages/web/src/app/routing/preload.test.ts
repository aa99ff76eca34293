import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RouteObject } from 'react-router';
import { nextLikelyPath, preloadPath, startPreloading } from './preload';

/** A small route tree whose lazy loaders only count their calls. */
function tree() {
  const lazy = { layout: vi.fn(async () => ({})), login: vi.fn(async () => ({})), app: vi.fn(async () => ({})) };
  const routes: RouteObject[] = [
    {
      path: '/',
      children: [
        { lazy: lazy.layout, children: [{ path: 'login', lazy: lazy.login }] },
        { path: 'app', lazy: lazy.app },
      ],
    },
  ];
  return { routes, lazy };
}

afterEach(() => {
  document.body.innerHTML = '';
});

describe('preloadPath', () => {
  it("loads the matched layouts' and screen's chunks only, once", () => {
    const { routes, lazy } = tree();
    const done = new Set<string>();
    preloadPath(routes, '/login', done);
    preloadPath(routes, '/login', done);
    expect(lazy.layout).toHaveBeenCalledTimes(1);
    expect(lazy.login).toHaveBeenCalledTimes(1);
    expect(lazy.app).not.toHaveBeenCalled();
  });

  it('ignores a failing chunk (the navigation will report it)', async () => {
    const routes: RouteObject[] = [{ path: '/x', lazy: () => Promise.reject(new Error('offline')) }];
    expect(() => preloadPath(routes, '/x')).not.toThrow();
    await Promise.resolve();
  });
});

describe('startPreloading', () => {
  it('preloads the route of a link the pointer rests on, and nothing for another site', () => {
    const { routes, lazy } = tree();
    const stop = startPreloading(routes, () => () => undefined);
    document.body.innerHTML = '<a href="/app"><span>App</span></a><a href="https://example.org/login">x</a>';
    document.querySelector('span')!.dispatchEvent(new Event('pointerover', { bubbles: true }));
    document.querySelectorAll('a')[1]!.dispatchEvent(new Event('pointerover', { bubbles: true }));
    stop();
    expect(lazy.app).toHaveBeenCalledTimes(1);
    expect(lazy.login).not.toHaveBeenCalled();
  });

  it('knows the next likely page of the landing page and of /login', () => {
    expect(nextLikelyPath('/')).toBe('/login');
    expect(nextLikelyPath('/login')).toBe('/app');
    expect(nextLikelyPath('/app/profile')).toBeNull();
  });
});
