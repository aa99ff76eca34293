/**
 * What the server benchmarks share: a fresh database (PostgreSQL of `BENCH_DATABASE_URL`, or PGlite),
 * the app's config, calls through `app.inject`, and a seeded workspace with a project.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import type { TBatchUnits, TPipeline } from '@stageline/shared';
import type { App } from '../../packages/server/src/app';
import { loadConfig } from '../../packages/server/src/config';
import { openDatabase, schema, type Database, type Db } from '../../packages/server/src/db';
import { hashPassword } from '../../packages/server/src/features/auth';
import { rowsOf } from '../../packages/server/src/features/tasks';

/** Results go to stdout as markdown (no console: the linter keeps it for debugging). */
export const print = (line: string) => process.stdout.write(`${line}\n`);

export const thousands = (n: number) => n.toLocaleString('en-US');
export const password = 'bench password 1234';

export const config = loadConfig({
  PORT: '0',
  HOST: '127.0.0.1',
  DATA_DIR: '/nonexistent/stageline-bench',
  LOG_LEVEL: 'silent',
  NODE_ENV: 'test',
});

export type Headers = { authorization: string };

/** A fresh database: on the server of BENCH_DATABASE_URL (dropped after), or PGlite in a temp dir. */
export async function openBenchDatabase(): Promise<{
  database: Database;
  label: string;
  cleanup: () => Promise<void>;
  /** The environment that points the built server (`npm start`) at the same database. */
  serverEnv: Record<string, string>;
}> {
  const serverUrl = process.env.BENCH_DATABASE_URL;
  if (!serverUrl) {
    const dir = await mkdtemp(join(tmpdir(), 'stageline-bench-'));
    const database = await openDatabase({ dataDir: dir });
    // BENCH_KEEP=1 keeps the data directory (for `DATA_DIR=… npm run serve`, or a look at its memory).
    const cleanup =
      process.env.BENCH_KEEP === '1'
        ? async () => {
            print(`Kept the data directory ${dir} (BENCH_KEEP=1).`);
          }
        : () => rm(dir, { recursive: true, force: true });
    return { database, label: 'PGlite', cleanup, serverEnv: { DATA_DIR: dir } };
  }
  const name = `stageline_bench_${randomBytes(4).toString('hex')}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ databaseUrl: url.toString(), poolSize: 10 });
  const [version] = await rowsOf<{ server_version: string }>(database.db, sql`show server_version`);
  const label = `PostgreSQL ${version?.server_version ?? ''}`;
  // BENCH_KEEP=1 keeps the database for a look at the plans afterwards (`EXPLAIN ANALYZE` in psql).
  const keep = process.env.BENCH_KEEP === '1';
  const cleanup = keep
    ? async () => {
        print(`Kept the database ${name} (BENCH_KEEP=1).`);
      }
    : () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  return { database, label, cleanup, serverEnv: { DATABASE_URL: url.toString() } };
}

export async function call<T>(
  app: App,
  headers: Headers,
  method: 'GET' | 'POST' | 'PUT' | 'PATCH',
  url: string,
  payload?: object,
) {
  const response = await app.inject({ method, url, headers, payload });
  if (response.statusCode >= 300)
    throw new Error(`${method} ${url}: ${response.statusCode} ${response.body.slice(0, 300)}`);
  return response.json<T>();
}

/**
 * Two people ("me", the owner, and a reviewer, a guest) signed in, a workspace with a project, and
 * helpers making pipelines (a chain of stages) and batches of units in it.
 */
export async function seedWorkspace(app: App, db: Db) {
  // People: the owner ("me", assignee of 1,000 tasks) and a second reviewer.
  const hash = await hashPassword(password);
  const tag = randomBytes(3).toString('hex');
  const people = await db
    .insert(schema.users)
    .values(
      ['me', 'reviewer'].map((p) => ({
        username: `${p}${tag}`,
        email: `${p}${tag}@example.com`,
        passwordHash: hash,
        emailVerified: true,
      })),
    )
    .returning({ id: schema.users.id, username: schema.users.username });
  const headersOf = async (username: string): Promise<Headers> => {
    const tokens = await call<{ access: string }>(app, {} as Headers, 'POST', '/api/users/login/', {
      username,
      password,
    });
    return { authorization: `Bearer ${tokens.access}` };
  };
  const [me, reviewer] = people as [{ id: number; username: string }, { id: number; username: string }];
  const meHeaders = await headersOf(me.username);
  const reviewerHeaders = await headersOf(reviewer.username);
  const workspace = await call<{ id: number }>(app, meHeaders, 'POST', '/api/workspaces/', { name: 'Bench' });
  await db
    .insert(schema.memberships)
    .values({ workspaceId: workspace.id, userId: reviewer.id, role: 'guest', invitedBy: 'link' });
  const project = await call<{ id: number }>(app, meHeaders, 'POST', '/api/projects/', {
    workspace: workspace.id,
    name: 'Film',
  });

  /** A pipeline of `stages` stages in a chain, with default people on every stage when given. */
  const pipelineOf = async (name: string, stages: number, defaults: object = {}) => {
    const created = await call<TPipeline>(app, meHeaders, 'POST', '/api/pipelines/', { project: project.id, name });
    const [root, end] = created.nodes as [TPipeline['nodes'][number], TPipeline['nodes'][number]];
    const ids = Array.from({ length: stages }, (_, i) => `s${i}`);
    const saved = await call<TPipeline & { id_map: Record<string, number> }>(
      app,
      meHeaders,
      'PUT',
      `/api/pipelines/${created.id}/graph/`,
      {
        version: 0,
        nodes: [
          { id: root.id, kind: 'root', name: 'Start', x: 0, y: 0 },
          ...ids.map((tmp_id, i) => ({
            tmp_id,
            kind: 'stage',
            name: `Stage ${i + 1}`,
            x: 0,
            y: 100 * (i + 1),
            ...defaults,
          })),
          { id: end.id, kind: 'end', name: 'End', x: 0, y: 100 * (stages + 1) },
        ],
        edges: [root.id, ...ids, end.id]
          .slice(1)
          .map((target, i) => ({ source: [root.id, ...ids, end.id][i]!, target })),
      },
    );
    return { id: created.id, stages: ids.map((id) => saved.id_map[id]!) };
  };
  const batch = (pipeline: number, count: number, template = 'Shot {count}') =>
    call<{ created: number; units: { id: number }[] }>(app, meHeaders, 'POST', '/api/units/batch/', {
      project: project.id,
      pipeline,
      template,
      count,
      start: 1,
      step: 1,
    } satisfies TBatchUnits);
  /** Signs "me" in again: an access token lives minutes, and a big seed can take longer. */
  const signIn = () => headersOf(me.username);
  return { me, reviewer, meHeaders, reviewerHeaders, workspace, project, pipelineOf, batch, signIn };
}
