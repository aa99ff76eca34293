import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { openDatabase, schema } from '../src/db';
import { serverRoot } from '../src/package-paths';

const repoRoot = path.resolve(serverRoot, '../..');
const mainTs = path.join(serverRoot, 'src', 'main.ts');

type Started = {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
};

const children: ChildProcess[] = [];

/** Runs `src/main.ts` as production would (minus the bundle), with only the variables given. */
function startServer(env: Record<string, string>): Started {
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(
      ([key]) => !['DATABASE_URL', 'PUBLIC_URL', 'MAINTENANCE', 'PORT', 'HOST', 'DATA_DIR', 'LOG_LEVEL'].includes(key),
    ),
  );
  const child = spawn(process.execPath, ['--import', 'tsx', mainTs], {
    cwd: repoRoot,
    env: { ...inherited, NODE_ENV: 'test', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let out = '';
  let err = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal }));
  });
  return { child, stdout: () => out, stderr: () => err, exited };
}

type LogLine = { msg?: string; level?: number; signal?: string };

function logLines(text: string): LogLine[] {
  return text
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as LogLine);
}

/** Resolves with the port from Fastify's "Server listening at" log line. */
async function listeningPort(server: Started, timeoutMs: number): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    for (const line of logLines(server.stdout())) {
      const match = /^Server listening at http:\/\/127\.0\.0\.1:(\d+)$/.exec(line.msg ?? '');
      if (match?.[1]) return Number(match[1]);
    }
    if (server.child.exitCode !== null) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`The server did not start.\nstdout:\n${server.stdout()}\nstderr:\n${server.stderr()}`);
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${what} took over ${ms} ms`)), ms).unref()),
  ]);
}

afterEach(() => {
  for (const child of children.splice(0)) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
});

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

  test('refuses a bad configuration with every problem and a non-zero exit', { timeout: 30_000 }, async () => {
    const server = startServer({ PORT: 'abc', DATABASE_URL: 'mysql://x', DATA_DIR: dataDir });
    const { code } = await withTimeout(server.exited, 20_000, 'Exiting');
    expect(code).not.toBe(0);
    expect(server.stderr()).toContain('Invalid configuration');
    expect(server.stderr()).toMatch(/- PORT: /);
    expect(server.stderr()).toMatch(/- DATABASE_URL: /);
  });
});
