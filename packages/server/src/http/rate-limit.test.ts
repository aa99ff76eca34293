import { afterAll, describe, expect, test } from 'vitest';
import { createTestDatabase } from '../../test/helpers';
import { killServers, sharedPostgresDatabase, startServer } from '../../test/server-process';
import { countHit, peekCount, pruneRateLimits } from './rate-limit';

/**
 * Rate limits live in the database, so every process behind a load balancer counts against one
 * budget (docs/security.md). The two-process case needs PostgreSQL (TEST_DATABASE_URL), as CI has.
 */
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
if (!onPostgres) {
  // eslint-disable-next-line no-console -- the skip must say why
  console.info('rate-limit.test.ts: the two-process test needs TEST_DATABASE_URL (PGlite is one process).');
}

describe('counters', () => {
  test('count in a window, concurrently exact, then reset and prune', async () => {
    const database = await createTestDatabase();
    try {
      const rule = { max: 5, windowSeconds: 60 };
      const counts = await Promise.all(Array.from({ length: 20 }, () => countHit(database.db, 'k', rule)));
      expect(counts.map((c) => c.hits).sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
      expect(Math.max(...counts.map((c) => c.retryAfter))).toBeLessThanOrEqual(60);
      expect((await peekCount(database.db, 'k')).hits).toBe(20);

      const short = { max: 5, windowSeconds: 0.2 };
      await countHit(database.db, 'short', short);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect((await peekCount(database.db, 'short')).hits).toBe(0);
      expect((await countHit(database.db, 'short', short)).hits).toBe(1);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(await pruneRateLimits(database.db)).toBe(1);
    } finally {
      await database.close();
    }
  });
});

describe.skipIf(!onPostgres)('two server processes on one PostgreSQL', () => {
  let shared: Awaited<ReturnType<typeof sharedPostgresDatabase>> | undefined;
  afterAll(async () => {
    await killServers();
    await shared?.drop();
  });

  test('share one sign-in budget per address', { timeout: 120_000 }, async () => {
    shared = await sharedPostgresDatabase();
    const [a, b] = await Promise.all([
      startServer({ DATABASE_URL: shared.url }),
      startServer({ DATABASE_URL: shared.url }),
    ]);
    const statuses: number[] = [];
    // 40 failed sign-ins from one address, alternating between the processes (30 a minute allowed).
    for (let i = 0; i < 40; i++) {
      const response = await fetch(`${(i % 2 === 0 ? a : b).url}/api/users/login/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: `nobody-${i}`, password: 'wrong password' }),
      });
      statuses.push(response.status);
    }
    // In each process's memory, each would have allowed 30: 40 answers of 400.
    expect(statuses.filter((status) => status === 400)).toHaveLength(30);
    expect(statuses.slice(30)).toEqual(Array.from({ length: 10 }, () => 429));
  });
});
