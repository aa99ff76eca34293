import { desc, eq, lte, sql } from 'drizzle-orm';
import type { TComment } from '@stageline/shared';
import { decodeJwt, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { schema } from '../../db';
import { relaxedLimits } from '../../../test/accounts';
import { buildTestApp, type TestApp } from '../../../test/helpers';
import { buildComment, listening, openStream, type Message, type Stream } from '../../../test/live';
import { buildFlow, buildUnit, taskAt } from '../../../test/units';
import { as, buildTeam } from '../../../test/workspaces';
import { createKeys, loadSigningSecret } from '../auth';
import { publish, pruneEvents } from './publish';
import { HeartbeatMs } from './routes';

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

async function open(...args: Parameters<typeof openStream>) {
  const stream = await openStream(...args);
  streams.push(stream);
  return stream;
}

async function scene() {
  const team = await buildTeam(t);
  const flow = await buildFlow(t, {
    workspace: team.workspace,
    stages: [{ assignees: [team.member], reviewers: [team.guest] }],
    edges: [
      ['root', 0],
      [0, 'end'],
    ],
  });
  const unit = await buildUnit(t, team.owner, flow);
  return { team, flow, unit, task: taskAt(unit, flow, 0) };
}

const commentEvent = (id: number) => (m: Message) =>
  m.event === 'comment' && (m.data as { comment: TComment }).comment.id === id;

/** The ids of the event rows `userId` may see, in order. */
async function visibleIds(userId: number, workspaceId: number): Promise<number[]> {
  const rows = await t.database.db
    .select({ id: schema.events.id })
    .from(schema.events)
    .where(sql`${schema.events.userId} = ${userId} or ${schema.events.workspaceId} = ${workspaceId}`)
    .orderBy(schema.events.id);
  return rows.map((r) => r.id);
}

describe('GET events/', () => {
  test('a stream of text/event-stream, uncompressed, for proxies; 401 without a token', async () => {
    const { team } = await scene();
    const response = await fetch(`${base}/api/events/`, {
      headers: { ...team.member.headers, 'accept-encoding': 'gzip, br' },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(response.headers.get('cache-control')).toContain('no-cache');
    expect(response.headers.get('x-accel-buffering')).toBe('no');
    expect(response.headers.get('content-encoding')).toBeNull();
    expect(Number(response.headers.get('last-event-id'))).toBeGreaterThanOrEqual(0);
    const reader = response.body!.getReader();
    const chunk = (await reader.read()).value as Uint8Array;
    const first = new TextDecoder().decode(chunk);
    expect(first).toBe('retry: 3000\n\n');
    await reader.cancel();
    expect((await fetch(`${base}/api/events/`)).status).toBe(401);
    const doc = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(doc.statusCode).toBe(200);
    const paths = doc.json<{ paths: Record<string, Record<string, { summary?: string }>> }>().paths;
    expect(paths['/api/events/']?.get?.summary).toContain('text/event-stream');
    expect(Object.keys(paths)).toEqual(expect.arrayContaining(['/api/comments/', '/api/notifications/']));
    expect((await fetch(`${base}/api/events/`, { headers: { authorization: 'Bearer nope' } })).status).toBe(401);
  });

  test('comments, tasks, units and notifications made through the API reach the right streams', async () => {
    const { team, task, unit, flow } = await scene();
    const member = await open(base, team.member);
    const guest = await open(base, team.guest);
    const outsider = await open(base, team.outsider);

    const comment = await buildComment(t, team.owner, { task }, 'Hello');
    const seen = await member.next(commentEvent(comment.id));
    expect(seen.data).toMatchObject({ action: 'created', comment: { id: comment.id, text: 'Hello' } });
    const note = await member.next((m) => m.event === 'notification');
    expect(note.data).toMatchObject({ kind: 'comment', comment: comment.id, actor: { id: team.owner.id } });
    // Both were written in the comment's transaction.
    expect(Math.abs(note.id - seen.id)).toBeLessThan(5);
    await guest.next(commentEvent(comment.id));

    const patched = await as(t, team.member)('PATCH', `/api/tasks/${task}/`, { status: 'in_progress' });
    expect(patched.statusCode, patched.body).toBe(200);
    const taskEvent = await guest.next((m) => m.event === 'task');
    expect(taskEvent.data).toEqual({
      id: task,
      unit: unit.id,
      stage: flow.stages[0],
      pipeline: flow.pipeline.id,
      status: 'in_progress',
    });

    const batch = await as(t, team.member)('POST', '/api/units/batch/', {
      project: flow.project.id,
      pipeline: flow.pipeline.id,
      template: 'B{count}',
      count: 3,
      start: 1,
      step: 1,
    });
    expect(batch.statusCode, batch.body).toBe(201);
    await guest.next((m) => m.event === 'units');
    expect(await guest.quiet(300)).toEqual([]);
    expect(guest.messages.filter((m) => m.event === 'units')).toEqual([
      expect.objectContaining({ data: { pipeline: flow.pipeline.id, project: flow.project.id } }),
    ]);
    expect((await as(t, team.admin)('DELETE', `/api/units/${unit.id}/`)).statusCode).toBe(204);
    const created = guest.messages.find((m) => m.event === 'units')!;
    await guest.next((m) => m.event === 'units' && m.id > created.id);
    expect(guest.messages.filter((m) => m.event === 'units')).toHaveLength(2);
    // Ids only go up on a stream; the outsider saw nothing of this workspace.
    const ids = guest.messages.map((m) => m.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(outsider.messages).toEqual([]);
  });

  test('resuming with Last-Event-ID replays what was missed, in order, without loss or duplicates', async () => {
    const { team, task } = await scene();
    const first = await open(base, team.member);
    const a = await buildComment(t, team.owner, { task }, 'A');
    const b = await buildComment(t, team.owner, { task }, 'B');
    await first.next(commentEvent(b.id));
    const lastSeen = first.messages.at(-1)!.id;
    first.close();

    const c = await buildComment(t, team.guest, { task }, 'C');
    const other = await scene();
    await buildComment(t, other.team.owner, { unit: other.unit.id }, 'Elsewhere');
    const d = await buildComment(t, team.owner, { task }, 'D');

    const resumed = await open(base, team.member, { lastEventId: lastSeen });
    await resumed.next(commentEvent(d.id));
    const e = await buildComment(t, team.owner, { task }, 'E');
    await resumed.next(commentEvent(e.id));
    await resumed.quiet(200);

    const all = [...first.messages.filter((m) => m.id <= lastSeen), ...resumed.messages];
    const ids = all.map((m) => m.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual([...ids].sort((x, y) => x - y));
    const expected = (await visibleIds(team.member.id, team.workspace.id)).filter((id) => id >= first.messages[0]!.id);
    expect(ids).toEqual(expected);
    for (const id of [a.id, b.id, c.id, d.id, e.id]) expect(all.some(commentEvent(id))).toBe(true);

    // The query parameter works as the header does.
    const byQuery = await open(base, team.member, { query: `?last_event_id=${lastSeen}` });
    await byQuery.next(commentEvent(e.id));
    expect(byQuery.messages[0]!.id).toBe(resumed.messages[0]!.id);
  });

  test('an id older than the kept events answers one reset, then the stream goes on', async () => {
    const { team, task } = await scene();
    await buildComment(t, team.owner, { task }, 'Old');
    const [row] = await t.database.db
      .select({ id: schema.events.id })
      .from(schema.events)
      .orderBy(desc(schema.events.id))
      .limit(1);
    await t.database.db
      .update(schema.events)
      .set({ createdAt: new Date(Date.now() - 2 * 24 * 3600 * 1000) })
      .where(lte(schema.events.id, row!.id));
    expect(await pruneEvents(t.database.db, new Date(Date.now() - 24 * 3600 * 1000))).toBeGreaterThan(0);
    // The hub learns of an event through NOTIFY, a moment after its commit: a stream opened before
    // that would (rightly) deliver it after the reset. Wait until a live stream has it.
    const watcher = await open(base, team.member);
    const fresh = await buildComment(t, team.owner, { task }, 'Fresh');
    await watcher.next(commentEvent(fresh.id));
    watcher.close();

    const stream = await open(base, team.member, { lastEventId: 1 });
    const reset = await stream.next((m) => m.event === 'reset');
    expect(reset.data).toEqual({});
    expect(stream.messages[0]!.event).toBe('reset');
    expect(stream.messages.some(commentEvent(fresh.id))).toBe(false);
    const after = await buildComment(t, team.owner, { task }, 'After');
    await stream.next(commentEvent(after.id));
  });

  test('a backlog of more than 1,000 events answers reset instead of a replay', async () => {
    const { team, task } = await scene();
    const stream = await open(base, team.member);
    await buildComment(t, team.owner, { task }, 'Live');
    await stream.next((m) => m.event === 'comment');
    stream.close();
    const [mark] = await t.database.db
      .select({ id: schema.events.id })
      .from(schema.events)
      .orderBy(desc(schema.events.id))
      .limit(1);
    await t.database.db.execute(
      sql`insert into events (workspace_id, type, payload)
        select ${team.workspace.id}, 'units', '{"pipeline": 0, "project": 0}'::jsonb from generate_series(1, 1001)`,
    );
    const resumed = await open(base, team.member, { lastEventId: mark!.id });
    const reset = await resumed.next((m) => m.event === 'reset');
    expect(resumed.messages.indexOf(reset)).toBe(0);
  });

  test('a member removed from the workspace stops receiving its events at once', async () => {
    const { team, task } = await scene();
    const stream = await open(base, team.guest);
    const member = await open(base, team.member);
    const before = await buildComment(t, team.owner, { task }, 'Before');
    await stream.next(commentEvent(before.id));
    const removed = await as(t, team.admin)('POST', `/api/workspaces/${team.workspace.id}/remove_users/`, {
      users: [team.guest.id],
    });
    expect(removed.json()).toMatchObject({ succeeded: 1 });
    const after = await buildComment(t, team.owner, { task }, 'After');
    // Another member's stream gets it, so it was delivered; the removed guest's does not.
    await member.next(commentEvent(after.id));
    expect(await stream.quiet(300)).toEqual([]);
    expect(stream.messages.some(commentEvent(after.id))).toBe(false);
    // Nor can it catch up by resuming.
    const resumed = await open(base, team.guest, { lastEventId: stream.messages.at(-1)!.id });
    expect(await resumed.quiet(300)).toEqual([]);
  });

  test('a rolled-back change is never streamed, and the gap it leaves holds later events only briefly', async () => {
    const { team, task, flow } = await scene();
    // The scene's own `units` event may still reach a stream opened now (a fresh stream starts where
    // the hub has got to): only one newer than it would be the rolled-back change.
    const [scenes] = await t.database.db.select({ id: sql<string>`max(${schema.events.id})` }).from(schema.events);
    const stream = await open(base, team.member);
    await expect(
      t.database.db.transaction(async (tx) => {
        await publish(
          tx,
          { workspace: team.workspace.id },
          { type: 'units', data: { pipeline: flow.pipeline.id, project: flow.project.id } },
        );
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    const started = Date.now();
    const after = await buildComment(t, team.owner, { task }, 'After the gap');
    await stream.next(commentEvent(after.id), 10_000);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(stream.messages.some((m) => m.event === 'units' && m.id > Number(scenes!.id))).toBe(false);
  });

  test('closing the app ends open streams at once', async () => {
    const own = await buildTestApp({ authLimits: relaxedLimits });
    const url = await listening(own);
    const { owner } = await buildTeam(own);
    const stream = await openStream(url, owner);
    expect(stream.response.status).toBe(200);
    const started = Date.now();
    await own.app.close();
    await stream.ended;
    expect(Date.now() - started).toBeLessThan(2000);
    await own.database.close();
  });

  test('pruneEvents deletes rows older than the given moment only', async () => {
    const { team, task } = await scene();
    await buildComment(t, team.owner, { task }, 'Kept');
    const [newest] = await t.database.db
      .select({ id: schema.events.id })
      .from(schema.events)
      .orderBy(desc(schema.events.id))
      .limit(1);
    expect(await pruneEvents(t.database.db, new Date(Date.now() - 24 * 3600 * 1000))).toBe(0);
    const [still] = await t.database.db.select().from(schema.events).where(eq(schema.events.id, newest!.id));
    expect(still).toBeDefined();
  });

  test('a stream ends when the token that opened it expires; the client resumes with a fresh one', async () => {
    const { team } = await scene();
    const claims = decodeJwt(team.member.headers.authorization.replace(/^Bearer /, ''));
    const keys = createKeys(await loadSigningSecret(t.database.db, t.config));
    const shortLived = await new SignJWT({ typ: 'access', sub: claims.sub, sid: claims.sid })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setExpirationTime(Math.floor(Date.now() / 1000) + 2)
      .sign(keys.jwt);
    const stream = await open(base, { headers: { authorization: `Bearer ${shortLived}` } });
    expect(stream.response.status).toBe(200);
    const endedAt = await Promise.race([
      stream.ended.then(() => Date.now()),
      new Promise<null>((resolve) => setTimeout(() => resolve(null), 8_000)),
    ]);
    expect(endedAt).not.toBeNull();
  });

  test('a revoked session stops receiving at the next heartbeat', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      const { team, task } = await scene();
      const stream = await open(base, team.member);
      // Signed out the real way: the revoke's NOTIFY reaches the session cache the heartbeat reads.
      const out = await t.app.inject({
        method: 'POST',
        url: '/api/users/logout/',
        payload: { refresh: team.member.tokens.refresh },
      });
      expect(out.statusCode).toBe(204);
      await vi.waitFor(async () => expect((await as(t, team.member)('GET', '/api/users/me/')).statusCode).toBe(401));
      vi.advanceTimersByTime(HeartbeatMs);
      await stream.ended;
      expect(stream.messages.filter((m) => m.event === 'comment')).toEqual([]);
      // Made after the revocation: it never reaches the closed stream.
      await buildComment(t, team.owner, { task });
      expect(stream.messages.filter((m) => m.event === 'comment')).toEqual([]);
    } finally {
      vi.useRealTimers();
    }
  });
});
