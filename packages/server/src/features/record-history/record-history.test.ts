import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { TRecordChange, TRecordChangePage, TUnit } from '@stageline/shared';
import { schema } from '../../db';
import { relaxedLimits } from '../../../test/accounts';
import { buildTestApp, type TestApp } from '../../../test/helpers';
import { act, buildFlow, buildUnit, ok, taskAt, type Flow } from '../../../test/units';
import { as, buildTeam, type Team } from '../../../test/workspaces';

/** The history of units and tasks (docs/history-and-audit.md), through HTTP. */

let t: TestApp;
let team: Team;
let flow: Flow;
let unit: TUnit;
let task: number;

beforeAll(async () => {
  t = await buildTestApp({ authLimits: relaxedLimits });
  team = await buildTeam(t);
  flow = await buildFlow(t, { workspace: team.workspace, stages: [{ assignees: [team.member] }, {}] });
  unit = await buildUnit(t, team.member, flow, 'SH010');
  task = taskAt(unit, flow, 0);
  // The project started a month ago, so yesterday may be logged.
  await t.database.db
    .update(schema.projects)
    .set({ createdAt: new Date(Date.now() - 30 * 86_400_000) })
    .where(eq(schema.projects.id, flow.project.id));
});
afterAll(async () => {
  await t?.close();
});

async function history(url: string, user: Team['member'] = team.guest): Promise<TRecordChange[]> {
  const response = await as(t, user)('GET', url);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<TRecordChangePage>().results;
}

describe('what a change writes', () => {
  test('a unit’s name and description, old → new, by whom', async () => {
    const patched = await as(t, team.member)('PATCH', `/api/units/${unit.id}/`, { name: 'SH020', description: 'Wide' });
    expect(patched.statusCode, patched.body).toBe(200);
    const entries = await history(`/api/units/${unit.id}/history/`);
    expect(entries.slice(0, 2).map(({ field, old, new: next, task: of }) => ({ field, old, new: next, of }))).toEqual([
      { field: 'description', old: '', new: 'Wide', of: null },
      { field: 'name', old: 'SH010', new: 'SH020', of: null },
    ]);
    expect(entries[0]!.actor).toMatchObject({ id: team.member.id, username: team.member.username });
  });

  test('a refused change writes nothing', async () => {
    const before = await history(`/api/units/${unit.id}/history/`);
    expect((await as(t, team.member)('PATCH', `/api/units/${unit.id}/`, { name: '' })).statusCode).toBe(400);
    expect((await as(t, team.guest)('PATCH', `/api/units/${unit.id}/`, { name: 'X' })).statusCode).toBe(403);
    expect(await history(`/api/units/${unit.id}/history/`)).toEqual(before);
  });

  test('a task’s status, people, due date and estimate', async () => {
    ok(await act(t, team.member, task, 'start'));
    ok(
      await as(t, team.member)('PATCH', `/api/tasks/${task}/`, {
        reviewers: [team.admin.id],
        due_date: '2030-01-15T00:00:00.000Z',
        estimate_hours: 6,
      }),
    );
    const entries = await history(`/api/tasks/${task}/history/`);
    const byField = new Map(entries.map((e) => [e.field, e]));
    expect(byField.get('status')).toMatchObject({ old: 'todo', new: 'in_progress', task, unit: unit.id });
    expect(byField.get('reviewers')).toMatchObject({ old: [], new: [team.admin.id] });
    expect(byField.get('due_date')).toMatchObject({ old: null, new: '2030-01-15T00:00:00.000Z' });
    expect(byField.get('estimate')).toMatchObject({ old: null, new: 6 });
    // The unit's history holds its tasks' changes too.
    const ofUnit = await history(`/api/units/${unit.id}/history/`);
    expect(ofUnit.filter((e) => e.task === task).length).toBe(entries.length);
  });

  test('time logs and comments edited or deleted', async () => {
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    const logged = await as(t, team.member)('POST', `/api/tasks/${task}/time/`, { date: yesterday, hours: 2 });
    expect(logged.statusCode, logged.body).toBe(201);
    const log = logged.json<{ id: number }>();
    expect((await as(t, team.member)('PATCH', `/api/time/${log.id}/`, { hours: 3 })).statusCode).toBe(200);
    expect((await as(t, team.member)('DELETE', `/api/time/${log.id}/`)).statusCode).toBe(204);
    const comment = await as(t, team.member)('POST', '/api/comments/', { task, text: 'first' });
    expect(comment.statusCode, comment.body).toBe(201);
    const commentId = comment.json<{ id: number }>().id;
    expect((await as(t, team.member)('PATCH', `/api/comments/${commentId}/`, { text: 'second' })).statusCode).toBe(200);
    expect((await as(t, team.member)('DELETE', `/api/comments/${commentId}/`)).statusCode).toBe(204);

    const entries = await history(`/api/tasks/${task}/history/`);
    const time = entries.filter((e) => e.field === 'time_logged').map((e) => [e.old, e.new]);
    const day = (hours: number) => ({ person: team.member.id, date: yesterday, hours });
    expect(time).toEqual([
      [day(3), day(0)],
      [day(2), day(3)],
      [day(0), day(2)],
    ]);
    expect(entries.find((e) => e.field === 'comment_edited')).toMatchObject({
      old: { id: commentId, text: 'first' },
      new: { id: commentId, text: 'second' },
    });
    expect(entries.find((e) => e.field === 'comment_deleted')).toMatchObject({ old: { text: 'second' }, new: null });
  });

  test('each change is a live `history` event in its transaction', async () => {
    const events = await t.database.db.select().from(schema.events).where(eq(schema.events.type, 'history'));
    expect(events.some((e) => (e.payload as { unit: number; tasks: number[] }).tasks.includes(task))).toBe(true);
    expect(events.every((e) => e.workspaceId === team.workspace.id)).toBe(true);
  });
});

describe('reading it', () => {
  test('only status, only fields, and keyset pages', async () => {
    const url = `/api/units/${unit.id}/history/`;
    expect((await history(`${url}?only=status`)).every((e) => e.field === 'status')).toBe(true);
    const fields = await history(`${url}?only=fields`);
    expect(fields.map((e) => e.field).sort()).toEqual(['description', 'due_date', 'estimate', 'name', 'reviewers']);
    const all = await history(`${url}?limit=200`);
    const pages: TRecordChange[] = [];
    let before: number | null = null;
    do {
      const response = await as(t, team.guest)('GET', `${url}?limit=2${before ? `&before=${before}` : ''}`);
      const page: TRecordChangePage = response.json<TRecordChangePage>();
      pages.push(...page.results);
      before = page.next;
    } while (before !== null);
    expect(pages.map((e) => e.id)).toEqual(all.map((e) => e.id));
  });

  test('anyone who sees the record; outsiders 404, signed out 401, bad filters 400', async () => {
    expect((await as(t, team.outsider)('GET', `/api/units/${unit.id}/history/`)).statusCode).toBe(404);
    expect((await as(t, team.outsider)('GET', `/api/tasks/${task}/history/`)).statusCode).toBe(404);
    expect((await as(t, null)('GET', `/api/units/${unit.id}/history/`)).statusCode).toBe(401);
    expect((await as(t, team.guest)('GET', '/api/units/999999/history/')).statusCode).toBe(404);
    const bad = await as(t, team.guest)('GET', `/api/units/${unit.id}/history/?only=names`);
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json<Record<string, unknown>>())).toContain('only');
  });
});
