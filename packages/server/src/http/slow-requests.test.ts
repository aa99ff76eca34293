import { Writable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { countStatements } from '../db';
import { buildTestApp, type TestApp } from '../../test/helpers';
import { createLogger } from './logging';

/** Slow requests are logged with their statements' count and time (docs/operations.md, "Slow requests"). */
const lines: Record<string, unknown>[] = [];
let t: TestApp;

beforeAll(async () => {
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean))
        lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  t = await buildTestApp({ logger: createLogger('info', sink), config: { slowRequestMs: 300 } });
  // Three statements, one of them 0.4 s in the database; one route that waits in JavaScript only.
  t.app.post('/api/test/slow-sql/:n/', async () => {
    await t.database.db.execute(sql`select 1`);
    await t.database.db.execute(sql`select pg_sleep(0.4)`);
    await t.database.db.execute(sql`select 2`);
    return { ok: true };
  });
  t.app.get('/api/test/slow-js/', async () => {
    await new Promise((resolve) => setTimeout(resolve, 350));
    return { ok: true };
  });
  t.app.get('/api/test/fast/', async () => ({ ok: true }));
  await t.app.ready(); // its start-up statements are no request's
});
afterAll(async () => {
  await t?.close();
});

const slowLines = () => lines.filter((line) => line.msg === 'slow request');

describe('the slow-request log', () => {
  test('names the route pattern, the time, and the statements with their time in the database', async () => {
    const { result, statements } = await countStatements(() =>
      t.app.inject({ method: 'POST', url: '/api/test/slow-sql/7/', payload: {} }),
    );
    expect(result.statusCode).toBe(200);
    const [line] = slowLines().filter((l) => l.route === '/api/test/slow-sql/:n/');
    expect(line).toMatchObject({ route: '/api/test/slow-sql/:n/', status: 200, statements: 3 });
    expect(statements).toBe(3); // the test's own count, around the request's, still sees them
    expect(line!.statementMs as number).toBeGreaterThanOrEqual(380);
    expect(line!.ms as number).toBeGreaterThanOrEqual(line!.statementMs as number);
  });

  test('a request slow in JavaScript shows no database time; a fast one is not logged', async () => {
    await t.app.inject({ method: 'GET', url: '/api/test/slow-js/' });
    await t.app.inject({ method: 'GET', url: '/api/test/fast/' });
    const js = slowLines().find((l) => l.route === '/api/test/slow-js/');
    expect(js).toMatchObject({ statements: 0, statementMs: 0 });
    expect(slowLines().some((l) => l.route === '/api/test/fast/')).toBe(false);
  });
});
