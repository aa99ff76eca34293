import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { countStatements, openDatabase, type Database } from '../../db';
import { bearer, password, relaxedLimits } from '../../../test/accounts';
import { buildTestApp, type TestApp } from '../../../test/helpers';
import { sharedPostgresDatabase } from '../../../test/server-process';
import { buildUser, type TestUser } from '../../../test/workspaces';
import { SessionCache } from './session-cache';
import { revokeSession } from './sessions';

const onPostgres = Boolean(process.env.TEST_DATABASE_URL);

const me = (t: TestApp, user: { access: string }) =>
  t.app.inject({ method: 'GET', url: '/api/users/me/', headers: bearer(user) });

/** Polls `check` until it holds; answers how long that took, or fails after `ms`. */
async function within(ms: number, check: () => Promise<boolean>): Promise<number> {
  const start = Date.now();
  for (;;) {
    if (await check()) return Date.now() - start;
    if (Date.now() - start > ms) throw new Error(`Still not true after ${ms} ms`);
    await sleep(10);
  }
}

describe('the session cache on its own', () => {
  const expiresAt = new Date(Date.now() + 60_000);

  test('caches only while listening, for at most the TTL and the size bound', () => {
    const cache = new SessionCache({ ttlMs: 50, maxEntries: 2 });
    cache.remember(cache.snapshot(), { sessionId: 1, userId: 1, expiresAt });
    expect(cache.isLive(1, 1)).toBe(false);

    cache.listening(true);
    cache.remember(cache.snapshot(), { sessionId: 1, userId: 1, expiresAt });
    expect(cache.isLive(1, 1)).toBe(true);
    expect(cache.isLive(1, 2)).toBe(false);
    cache.remember(cache.snapshot(), { sessionId: 2, userId: 1, expiresAt });
    cache.remember(cache.snapshot(), { sessionId: 3, userId: 1, expiresAt });
    expect(cache.size).toBe(2);
    expect(cache.isLive(2, 1)).toBe(true);
    expect(cache.isLive(2, 1, Date.now() + 51)).toBe(false);
    // A session expiring before the TTL is cached until it expires.
    cache.remember(cache.snapshot(), { sessionId: 4, userId: 1, expiresAt: new Date(Date.now() + 10) });
    expect(cache.isLive(4, 1, Date.now() + 11)).toBe(false);

    cache.listening(false);
    expect(cache.size).toBe(0);
  });

  test('a revocation forgets the session, and an answer read while one arrived is not stored', () => {
    const cache = new SessionCache();
    cache.listening(true);
    cache.remember(cache.snapshot(), { sessionId: 5, userId: 1, expiresAt });
    cache.signal('session:5');
    expect(cache.isLive(5, 1)).toBe(false);

    const before = cache.snapshot();
    cache.signal('session:6');
    cache.remember(before, { sessionId: 6, userId: 1, expiresAt });
    expect(cache.isLive(6, 1)).toBe(false);

    cache.remember(cache.snapshot(), { sessionId: 7, userId: 1, expiresAt });
    cache.signal('42');
    expect(cache.isLive(7, 1)).toBe(true);
  });
});

describe('one app instance', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ authLimits: relaxedLimits });
  });
  afterAll(async () => {
    await t?.close();
  });

  test('a warm session costs no statement; logging out refuses the next request at once', async () => {
    const user = await buildUser(t);
    const cold = await countStatements(() => me(t, user.tokens));
    const warm = await countStatements(() => me(t, user.tokens));
    expect(cold.result.statusCode).toBe(200);
    expect(warm.result.statusCode).toBe(200);
    expect(warm.statements).toBe(cold.statements - 1);

    const out = await t.app.inject({
      method: 'POST',
      url: '/api/users/logout/',
      payload: { refresh: user.tokens.refresh },
    });
    expect(out.statusCode).toBe(204);
    expect((await me(t, user.tokens)).statusCode).toBe(401);
  });

  test('a reused refresh token revokes the family, and its access token stops at once', async () => {
    const user = await buildUser(t);
    expect((await me(t, user.tokens)).statusCode).toBe(200);
    const refresh = (payload: string) =>
      t.app.inject({ method: 'POST', url: '/api/token/refresh/', payload: { refresh: payload } });
    const rotated = await refresh(user.tokens.refresh);
    expect(rotated.statusCode, rotated.body).toBe(200);
    const fresh = rotated.json<{ access: string }>();
    expect((await me(t, fresh)).statusCode).toBe(200);
    expect((await refresh(user.tokens.refresh)).statusCode).toBe(401);
    expect((await me(t, fresh)).statusCode).toBe(401);
  });

  test('a session ended elsewhere (another cache, same database) stops here through the NOTIFY', async () => {
    const user = await buildUser(t);
    expect((await me(t, user.tokens)).statusCode).toBe(200);
    const sessionId = await sessionOf(t, user);
    // Another process: its own cache; only the NOTIFY can tell this app.
    const elsewhere = new SessionCache();
    expect(await revokeSession({ db: t.database.db, sessionCache: elsewhere }, { userId: user.id, sessionId })).toBe(
      true,
    );
    if (onPostgres) await within(1000, async () => (await me(t, user.tokens)).statusCode === 401);
    // PGlite delivers the NOTIFY before the revoking statement's answer: no wait at all.
    else expect((await me(t, user.tokens)).statusCode).toBe(401);
  });
});

/** The id of the session behind a user's tokens (the `current` one of their list). */
async function sessionOf(t: TestApp, user: TestUser): Promise<number> {
  const list = await t.app.inject({ method: 'GET', url: '/api/users/me/sessions/', headers: user.headers });
  const current = list.json<{ id: number; current: boolean }[]>().find((s) => s.current);
  return current!.id;
}

describe.skipIf(!onPostgres)('two app instances on one PostgreSQL', () => {
  let shared: Awaited<ReturnType<typeof sharedPostgresDatabase>>;
  let second: Database;
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    shared = await sharedPostgresDatabase();
    second = await openDatabase({ databaseUrl: shared.url, migrate: false, poolSize: 2 });
    a = await buildTestApp({ database: shared.database, authLimits: relaxedLimits });
    b = await buildTestApp({ database: second, authLimits: relaxedLimits });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await second?.close();
    await shared?.drop();
  });

  test('signed in through A, cached by B, revoked through A: B answers 401 within 1 s', async () => {
    const user = await buildUser(a);
    expect((await me(b, user.tokens)).statusCode).toBe(200);
    const warm = await countStatements(() => me(b, user.tokens));
    expect(warm.result.statusCode).toBe(200);
    const cold = await countStatements(() => me(a, user.tokens));
    // B answered from its cache: one statement fewer than A's first check of the session.
    expect(warm.statements).toBe(cold.statements - 1);

    const sessionId = await sessionOf(a, user);
    const other = await buildUserSession(a, user);
    const revoked = await a.app.inject({
      method: 'DELETE',
      url: `/api/users/me/sessions/${sessionId}/`,
      headers: other.headers,
    });
    expect(revoked.statusCode).toBe(204);
    expect((await me(a, user.tokens)).statusCode).toBe(401);
    const took = await within(1000, async () => (await me(b, user.tokens)).statusCode === 401);
    expect(took).toBeLessThan(1000);
    // The other session of the same user is untouched on both.
    expect((await me(b, other.tokens)).statusCode).toBe(200);
  });
});

/** A second session of the same user (another sign-in). */
async function buildUserSession(t: TestApp, user: TestUser) {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/users/login/',
    payload: { username: user.username, password },
  });
  expect(response.statusCode, response.body).toBe(200);
  const tokens = response.json<{ access: string; refresh: string }>();
  return { tokens, headers: bearer(tokens) };
}
