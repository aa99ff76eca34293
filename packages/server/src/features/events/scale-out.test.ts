import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { TComment } from '@stageline/shared';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { schema } from '../../db';
import { password, relaxedLimits } from '../../../test/accounts';
import { buildTestApp, type TestApp } from '../../../test/helpers';
import { killServers, sharedPostgresDatabase, startServer } from '../../../test/server-process';
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
    // The later id waits for the earlier one (still in flight) rather than overtaking it. An event of
    // the setup, older than the held one, may still arrive meanwhile (under load).
    expect((await stream.quiet(400)).filter((message) => message.id > earlierId)).toEqual([]);
    release();
    await slow;
    await stream.next(commentEvent(comment.id));
    // The stream may open with an event of the setup still on its way (under load); what matters is
    // that the held event came, and that nothing overtook it.
    const ids = stream.messages.map((m) => m.id);
    expect(ids).toContain(earlierId);
    expect(ids.filter((id) => id > earlierId).length).toBeGreaterThan(0);
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
  let shared: Awaited<ReturnType<typeof sharedPostgresDatabase>> | undefined;

  afterAll(async () => {
    await killServers();
    await shared?.drop();
  });

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
    shared = await sharedPostgresDatabase();
    const db = shared.database.db;
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

    const a = (await startServer({ DATABASE_URL: shared.url })).url;
    const b = (await startServer({ DATABASE_URL: shared.url })).url;
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
