import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { openDatabase, schema } from '../src/db';
import { killServers, listeningUrl, logLines, spawnServer as startServer, type ServerProcess } from './server-process';

/** The port of a started server, once it listens. */
async function listeningPort(server: ServerProcess, timeoutMs: number): Promise<number> {
  return Number(new URL(await listeningUrl(server, timeoutMs)).port);
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${what} took over ${ms} ms`)), ms).unref()),
  ]);
}

afterEach(killServers);

describe('the server process', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'stageline-shutdown-test-'));
  });
  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  test('serves, then on SIGTERM exits 0 and leaves the data directory usable', { timeout: 60_000 }, async () => {
    const server = startServer({ PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'info' });
    const port = await listeningPort(server, 40_000);

    const health = await fetch(`http://127.0.0.1:${port}/api/health/`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ status: 'ok', database: { kind: 'pglite', ok: true } });
    expect(existsSync(path.join(dataDir, '.lock'))).toBe(true);

    server.child.kill('SIGTERM');
    const { code, signal } = await withTimeout(server.exited, 15_000, 'Shutting down');
    expect({ code, signal }).toEqual({ code: 0, signal: null });
    expect(logLines(server.stdout())).toContainEqual(
      expect.objectContaining({ msg: 'shutting down', signal: 'SIGTERM' }),
    );
    expect(existsSync(path.join(dataDir, '.lock'))).toBe(false);

    const reopened = await openDatabase({ dataDir });
    try {
      expect(await reopened.db.select().from(schema.users)).toEqual([]);
    } finally {
      await reopened.close();
    }
  });

  test(
    'after kill -9, a restart takes the lock over at once and finds every acknowledged write',
    { timeout: 90_000 },
    async () => {
      // The data directory of the test above (made once: making one is a few seconds of CPU).
      const dir = dataDir;
      const env = { PORT: '0', HOST: '127.0.0.1', DATA_DIR: dir, LOG_LEVEL: 'info' };
      const first = startServer(env);
      const port = await listeningPort(first, 40_000);
      const written = await fetch(`http://127.0.0.1:${port}/api/users/register/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'survivor', email: 'survivor@example.com', password: 'long enough pass' }),
      });
      expect(written.status).toBe(201);
      first.child.kill('SIGKILL');
      await first.exited;

      // The lock file is still there, fresh: the restart must not wait for it to age.
      expect(existsSync(path.join(dir, '.lock'))).toBe(true);
      const second = startServer(env);
      const again = await listeningPort(second, 40_000);
      expect(logLines(second.stdout())).toContainEqual(
        expect.objectContaining({ msg: `took over the data directory's lock: process ${first.child.pid} is gone` }),
      );
      const taken = await fetch(`http://127.0.0.1:${again}/api/users/register/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'survivor', email: 'other@example.com', password: 'long enough pass' }),
      });
      expect(taken.status).toBe(400);
      expect(await taken.json()).toMatchObject({ username: [expect.any(String)] });
      second.child.kill('SIGTERM');
      await withTimeout(second.exited, 15_000, 'Shutting down');
    },
  );

  test('refuses a bad configuration with every problem and a non-zero exit', { timeout: 30_000 }, async () => {
    const server = startServer({ PORT: 'abc', DATABASE_URL: 'mysql://x', DATA_DIR: dataDir });
    const { code } = await withTimeout(server.exited, 20_000, 'Exiting');
    expect(code).not.toBe(0);
    expect(server.stderr()).toContain('Invalid configuration');
    expect(server.stderr()).toMatch(/- PORT: /);
    expect(server.stderr()).toMatch(/- DATABASE_URL: /);
  });
});
