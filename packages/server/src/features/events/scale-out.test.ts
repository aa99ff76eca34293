import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { TComment } from '@stageline/shared';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { openDatabase, schema, type Database } from '../../db';
import { serverRoot } from '../../package-paths';
import { password, relaxedLimits } from '../../../test/accounts';
import { buildTestApp, databaseUrlFor, quoteIdent, withServerClient, type TestApp } from '../../../test/helpers';
import { buildComment, listening, openStream, type Message, type Stream } from '../../../test/live';
import { buildFlow, buildUnit } from '../../../test/units';
import { buildTeam } from '../../../test/workspaces';
import { hashPassword } from '../auth';
import { publish } from './publish';

/**
 * Live events across server processes and concurrent transactions: they need a PostgreSQL server
 * (TEST_DATABASE_URL), as CI has; PGlite is one process and one connection.
 */
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
if (!onPostgres) {
  // eslint-disable-next-line no-console -- the skip must say why
  console.info('scale-out.test.ts skipped: set TEST_DATABASE_URL to run it on PostgreSQL.');
}

const commentEvent = (id: number) => (m: Message) =>
  m.event === 'comment' && (m.data as { comment: TComment }).comment.id === id;

describe.skipIf(!onPostgres)('live events on PostgreSQL', () => {
  let t: TestApp;
  let base: string;
  const streams: Stream[] = [];
  beforeAll(async () => {
    t = await buildTestApp({ authLimits: relaxedLimits });
    base = await listening(t);
  });
  afterAll(async () => {
    for (const s of streams) s.close();
    await t?.close();
  });

  test('events committed out of id order reach a stream in id order', async () => {
    const team = await buildTeam(t);
    const flow = await buildFlow(t, { workspace: team.workspace, stages: [{}] });
    const unit = await buildUnit(t, team.owner, flow);
    const stream = await openStream(base, team.member);
    streams.push(stream);

    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let written!: (id: number) => void;
    const heldId = new Promise<number>((resolve) => (written = resolve));
    const slow = t.database.db.transaction(async (tx) => {
      written(
        await publish(
          tx,
          { workspace: team.workspace.id },
          { type: 'units', data: { pipeline: flow.pipeline.id, project: flow.project.id } },
        ),
      );
      await gate;
    });
    const earlierId = await heldId;
    const comment = await buildComment(t, team.owner, { unit: unit.id }, 'Committed first');
    // The later id waits for the earlier one (still in flight) rather than overtaking it.
    expect(await stream.quiet(400)).toEqual([]);
    release();
    await slow;
    await stream.next(commentEvent(comment.id));
    const ids = stream.messages.map((m) => m.id);
    expect(ids[0]).toBe(earlierId);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
  });

  test('the listening connection, when killed, comes back and catches up with what it missed', async () => {
    const team = await buildTeam(t);
    const flow = await buildFlow(t, { workspace: team.workspace, stages: [{}] });
    const unit = await buildUnit(t, team.owner, flow);
    const stream = await openStream(base, team.member);
    streams.push(stream);
    const killed = await t.database.db.execute(
      sql`select pg_terminate_backend(pid) from pg_stat_activity
        where datname = current_database() and query ilike 'LISTEN%' and pid <> pg_backend_pid()`,
    );
    expect((killed as { rows: unknown[] }).rows.length).toBeGreaterThan(0);
    const during = await buildComment(t, team.owner, { unit: unit.id }, 'While it was away');
    await stream.next(commentEvent(during.id), 15_000);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const after = await buildComment(t, team.owner, { unit: unit.id }, 'Back again');
    await stream.next(commentEvent(after.id), 5_000);
  });
});

describe.skipIf(!onPostgres)('two server processes on one PostgreSQL', () => {
  const children: ChildProcess[] = [];
  let database: Database | undefined;
  let name = '';
  let serverUrl = '';

  afterAll(async () => {
    const running = children.filter((child) => child.exitCode === null);
    for (const child of running) child.kill('SIGTERM');
    await Promise.all(running.map((child) => new Promise((resolve) => child.once('exit', resolve))));
    await database?.close();
    if (name)
      await withServerClient(serverUrl, (client) =>
        client.query(`DROP DATABASE IF EXISTS ${quoteIdent(name)} WITH (FORCE)`),
      );
  });

  /** Runs `src/main.ts` with tsx, as production would minus the bundle, and answers its base URL. */
  async function startServer(databaseUrl: string): Promise<string> {
    const inherited = Object.fromEntries(
      Object.entries(process.env).filter(([key]) => !['PUBLIC_URL', 'MAINTENANCE', 'DATA_DIR'].includes(key)),
    );
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(serverRoot, 'src', 'main.ts')], {
      cwd: path.resolve(serverRoot, '../..'),
      env: {
        ...inherited,
        NODE_ENV: 'test',
        DATABASE_URL: databaseUrl,
        PORT: '0',
        HOST: '127.0.0.1',
        LOG_LEVEL: 'info',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    let out = '';
    let err = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline) {
      const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (match?.[1]) return match[1];
      if (child.exitCode !== null) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`The server did not start.\nstdout:\n${out}\nstderr:\n${err}`);
  }

  async function signIn(url: string, username: string) {
    const response = await fetch(`${url}/api/users/login/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username, password }),
    });
    expect(response.status).toBe(200);
    const { access } = (await response.json()) as { access: string };
    return { headers: { authorization: `Bearer ${access}` } };
  }

  test('an event made through one process reaches an SSE client of the other', { timeout: 120_000 }, async () => {
    const template = inject('testTemplate');
    if (template.kind !== 'postgres') throw new Error('Expected a PostgreSQL template');
    serverUrl = template.serverUrl;
    name = `${template.prefix}${randomBytes(6).toString('hex')}`;
    await withServerClient(serverUrl, (client) =>
      client.query(`CREATE DATABASE ${quoteIdent(name)} TEMPLATE ${quoteIdent(template.template)}`),
    );
    const databaseUrl = databaseUrlFor(serverUrl, name);
    database = await openDatabase({ databaseUrl, migrate: false, poolSize: 2 });
    const db = database.db;
    const passwordHash = await hashPassword(password);
    const [alice, bob] = await db
      .insert(schema.users)
      .values(
        ['alice', 'bob'].map((who) => {
          const username = `${who}${randomBytes(3).toString('hex')}`;
          return { username, email: `${username}@example.com`, passwordHash, emailVerified: true };
        }),
      )
      .returning();
    const [workspace] = await db
      .insert(schema.workspaces)
      .values({ name: 'Two processes', ownerId: alice!.id })
      .returning();
    await db.insert(schema.memberships).values([
      { workspaceId: workspace!.id, userId: alice!.id, role: 'owner' },
      { workspaceId: workspace!.id, userId: bob!.id, role: 'member', invitedBy: 'user', inviterId: alice!.id },
    ]);
    const [project] = await db.insert(schema.projects).values({ workspaceId: workspace!.id, name: 'P' }).returning();
    const [pipeline] = await db.insert(schema.pipelines).values({ projectId: project!.id, name: 'F' }).returning();
    const [unit] = await db
      .insert(schema.units)
      .values({ projectId: project!.id, pipelineId: pipeline!.id, name: 'U' })
      .returning();

    const a = await startServer(databaseUrl);
    const b = await startServer(databaseUrl);
    expect(a).not.toBe(b);
    const asAlice = await signIn(a, alice!.username);
    const asBob = await signIn(b, bob!.username);

    const stream = await openStream(b, asBob);
    expect(stream.response.status).toBe(200);
    const posted = await fetch(`${a}/api/comments/`, {
      method: 'POST',
      headers: { ...asAlice.headers, 'content-type': 'application/json' },
      body: JSON.stringify({ unit: unit!.id, text: `Hello @${bob!.username}` }),
    });
    expect(posted.status).toBe(201);
    const comment = (await posted.json()) as TComment;
    const seen = await stream.next(commentEvent(comment.id), 15_000);
    expect(seen.data).toMatchObject({ action: 'created', comment: { id: comment.id, author: { id: alice!.id } } });
    const mention = await stream.next((m) => m.event === 'notification', 15_000);
    expect(mention.data).toMatchObject({ kind: 'mention', comment: comment.id });
    stream.close();
  });
});
