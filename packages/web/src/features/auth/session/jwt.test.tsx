import { act, render } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jwtTimes, refreshDelay } from './jwt';
import { SessionKeeper } from './session-keeper';

const base64url = (value: object) =>
  btoa(JSON.stringify(value)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
const jwt = (claims: object) => `${base64url({ alg: 'HS256', typ: 'JWT' })}.${base64url(claims)}.signature`;

const now = Date.UTC(2025, 0, 1, 12, 0, 0);
const seconds = (ms: number) => Math.floor(ms / 1000);

describe('jwtTimes', () => {
  it('reads exp and iat from a base64url payload', () => {
    expect(jwtTimes(jwt({ exp: 1700000300, iat: 1700000000, sub: '1' }))).toEqual({ exp: 1700000300, iat: 1700000000 });
    // '-' and '_' of base64url, and no padding.
    expect(jwtTimes(jwt({ exp: 1, name: '??>>~~' }))).toEqual({ exp: 1 });
  });

  it.each(['', 'abc', 'a.b.c', `x.${base64url({ iat: 1 })}.y`, `x.${base64url({ exp: 'soon' })}.y`])(
    'gives null for %j',
    (token) => expect(jwtTimes(token)).toBeNull(),
  );
});

describe('refreshDelay', () => {
  it('refreshes a 5-minute token a minute before it expires', () => {
    const token = jwt({ iat: seconds(now), exp: seconds(now) + 300 });
    expect(refreshDelay(token, now)).toBe(240_000);
    expect(refreshDelay(token, now + 200_000)).toBe(40_000);
  });

  it('uses a fifth of a short lifetime, but at least 5 seconds', () => {
    expect(refreshDelay(jwt({ iat: seconds(now), exp: seconds(now) + 100 }), now)).toBe(80_000);
    expect(refreshDelay(jwt({ iat: seconds(now), exp: seconds(now) + 10 }), now)).toBe(5_000);
  });

  it('is due at once for a token that expired or is about to', () => {
    expect(refreshDelay(jwt({ iat: seconds(now) - 600, exp: seconds(now) - 300 }), now)).toBe(0);
    expect(refreshDelay(jwt({ iat: seconds(now) - 290, exp: seconds(now) + 10 }), now)).toBe(0);
  });

  it('is null without a readable expiry', () => {
    expect(refreshDelay('opaque', now)).toBeNull();
  });
});

describe('SessionKeeper', () => {
  const json = (status: number, body: unknown) =>
    new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
  let refreshes: string[];

  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    vi.setSystemTime(now);
    refreshes = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init: RequestInit) => {
        if (url === '/api/token/refresh/') {
          refreshes.push(init.body as string);
          const t = seconds(Date.now());
          return json(200, { access: jwt({ iat: t, exp: t + 300 }), refresh: `r${refreshes.length + 1}` });
        }
        return json(404, {});
      }),
    );
  });

  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('refreshes shortly before the access token expires, then schedules the next one', async () => {
    localStorage.setItem(
      'authTokens',
      JSON.stringify({ access: jwt({ iat: seconds(now), exp: seconds(now) + 300 }), refresh: 'r1' }),
    );
    render(<SessionKeeper />);

    await act(() => vi.advanceTimersByTimeAsync(239_000));
    expect(refreshes).toEqual([]);

    await act(() => vi.advanceTimersByTimeAsync(2_000));
    expect(refreshes).toEqual([JSON.stringify({ refresh: 'r1' })]);
    expect((JSON.parse(localStorage.getItem('authTokens')!) as { refresh: string }).refresh).toBe('r2');

    // The new token was issued at 240 s: its refresh is due at 480 s.
    await act(() => vi.advanceTimersByTimeAsync(238_000));
    expect(refreshes).toHaveLength(1);
    await act(() => vi.advanceTimersByTimeAsync(2_000));
    expect(refreshes).toEqual([JSON.stringify({ refresh: 'r1' }), JSON.stringify({ refresh: 'r2' })]);
  });

  it('refreshes at once a token that expired while the tab was closed', async () => {
    localStorage.setItem(
      'authTokens',
      JSON.stringify({ access: jwt({ iat: seconds(now) - 900, exp: seconds(now) - 600 }), refresh: 'r1' }),
    );
    render(<SessionKeeper />);
    await act(() => vi.advanceTimersByTimeAsync(0));
    expect(refreshes).toEqual([JSON.stringify({ refresh: 'r1' })]);
  });

  it('does nothing when signed out', async () => {
    render(<SessionKeeper />);
    await act(() => vi.advanceTimersByTimeAsync(600_000));
    expect(refreshes).toEqual([]);
  });
});
