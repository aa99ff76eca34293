import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { inject } from 'vitest';
import { openDatabase, type Database } from '../src/db';
import { serverRoot } from '../src/package-paths';
import { databaseUrlFor, quoteIdent, withServerClient } from './helpers';

/**
 * Real server processes for tests that need more than `app.inject()`: `src/main.ts` run with tsx
 * (production minus the bundle), a signal away from a crash, and several of them on one database.
 */

const repoRoot = path.resolve(serverRoot, '../..');
const mainTs = path.join(serverRoot, 'src', 'main.ts');
/** Variables of the test run that must not leak into a server started with its own. */
const owned = ['DATABASE_URL', 'PUBLIC_URL', 'MAINTENANCE', 'PORT', 'HOST', 'DATA_DIR', 'LOG_LEVEL', 'TRUST_PROXY'];

export type ServerProcess = {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
};

export type LogLine = { msg?: string; level?: number; signal?: string };

/** The JSON lines a server logged. */
export function logLines(text: string): LogLine[] {
  return text
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as LogLine);
}

const running = new Set<ChildProcess>();

/** Starts `src/main.ts` with only the variables given (plus the test run's others); does not wait. */
export function spawnServer(env: Record<string, string>): ServerProcess {
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([key]) => !owned.includes(key)));
  const child = spawn(process.execPath, ['--import', 'tsx', mainTs], {
    cwd: repoRoot,
    env: { ...inherited, NODE_ENV: 'test', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  let out = '';
  let err = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('exit', (code, signal) => {
      running.delete(child);
      resolve({ code, signal });
    });
  });
  return { child, stdout: () => out, stderr: () => err, exited };
}

/** The base URL from Fastify's "Server listening at" line, once it is logged. */
export async function listeningUrl(server: ServerProcess, timeoutMs = 60_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(server.stdout());
    if (match?.[1]) return match[1];
    if (server.child.exitCode !== null) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`The server did not start.\nstdout:\n${server.stdout()}\nstderr:\n${server.stderr()}`);
}

/** Starts a server on a free port of 127.0.0.1 and answers it with its base URL. */
export async function startServer(env: Record<string, string>): Promise<ServerProcess & { url: string }> {
  const server = spawnServer({ PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env });
  return { ...server, url: await listeningUrl(server) };
}

/** SIGKILLs every server a test left running (afterEach / afterAll). */
export async function killServers(): Promise<void> {
  const left = [...running];
  for (const child of left) child.kill('SIGKILL');
  await Promise.all(left.map((child) => new Promise((resolve) => child.once('exit', resolve))));
}

/**
 * A database of its own on the test run's PostgreSQL server, copied from the migrated template,
 * for processes to share (only when the run is on PostgreSQL); `drop()` removes it.
 */
export async function sharedPostgresDatabase(): Promise<{ url: string; database: Database; drop(): Promise<void> }> {
  const template = inject('testTemplate');
  if (template.kind !== 'postgres') throw new Error('Expected a PostgreSQL template (TEST_DATABASE_URL)');
  const name = `${template.prefix}${randomBytes(6).toString('hex')}`;
  await withServerClient(template.serverUrl, (client) =>
    client.query(`CREATE DATABASE ${quoteIdent(name)} TEMPLATE ${quoteIdent(template.template)}`),
  );
  const url = databaseUrlFor(template.serverUrl, name);
  const database = await openDatabase({ databaseUrl: url, migrate: false, poolSize: 2 });
  return {
    url,
    database,
    drop: async () => {
      await database.close();
      await withServerClient(template.serverUrl, (client) =>
        client.query(`DROP DATABASE IF EXISTS ${quoteIdent(name)} WITH (FORCE)`),
      );
    },
  };
}
