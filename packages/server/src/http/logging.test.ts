import { Writable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/helpers';
import { password, relaxedLimits } from '../../test/accounts';
import { createLogger, safeUrl } from './logging';

/**
 * The log never carries passwords, hashes, tokens or codes (docs/security.md). Read through the
 * app's own logger, on requests that make it log: a database error whose statement had a password
 * hash as a parameter, an unhandled one, and URLs with tokens in their path and query.
 */

const secretHash = '$argon2id$v=19$m=19456,t=2,p=1$c2VjcmV0LXNhbHQ$secret-hash-value';
const lines: string[] = [];
let t: TestApp;

beforeAll(async () => {
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString().split('\n').filter(Boolean));
      done();
    },
  });
  t = await buildTestApp({ logger: createLogger('info', sink), authLimits: relaxedLimits });
  // Two routes that fail the way a bug would, with a secret among the statement's parameters.
  t.app.get('/api/test/refused/', async () => t.database.db.execute(sql`select ${secretHash}::int`));
  t.app.get('/api/test/broken/', async () =>
    t.database.db.execute(sql`select 1 / 0 where ${secretHash} = ${secretHash}`),
  );
});
afterAll(async () => {
  await t?.close();
});

describe('the log', () => {
  test('keeps the statement of a failed query, never its parameters', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/test/refused/' })).statusCode).toBe(400);
    expect((await t.app.inject({ method: 'GET', url: '/api/test/broken/' })).statusCode).toBe(500);
    const log = lines.join('\n');
    expect(log).toContain('database refused the input');
    expect(log).toContain('unhandled error');
    expect(log).toContain('select 1 / 0 where');
    expect(log).not.toContain('secret-hash-value');
  });

  test('hides tokens in paths and queries, and the bodies of sign-ins', async () => {
    const token = 'a'.repeat(20) + 'B_c-'.repeat(6);
    await t.app.inject({ method: 'GET', url: `/api/invites/${token}/` });
    await t.app.inject({ method: 'POST', url: `/api/users/unsubscribe/?token=${token}`, payload: {} });
    await t.app.inject({
      method: 'POST',
      url: '/api/users/login/',
      payload: { username: 'someone', password },
      headers: { authorization: `Bearer ${token}` },
    });
    const log = lines.join('\n');
    expect(log).toContain('/api/invites/[redacted]/');
    expect(log).not.toContain(token);
    expect(log).not.toContain(password);
  });

  test('safeUrl keeps what is not secret', () => {
    expect(safeUrl('/api/tasks/12/?status=review&token=abc')).toBe('/api/tasks/12/?status=review&token=%5Bredacted%5D');
    expect(safeUrl('/api/workspaces/3/users/')).toBe('/api/workspaces/3/users/');
  });
});
