import { and, eq, gt, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { TReviewMode, TTask } from '@stageline/shared';
import { schema } from '../../db';
import { relaxedLimits } from '../../../test/accounts';
import { buildTestApp, type TestApp } from '../../../test/helpers';
import { act, buildFlow, buildUnit, ok, setStatus, taskAt } from '../../../test/units';
import { as, buildTeam, type Team } from '../../../test/workspaces';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ authLimits: relaxedLimits });
});
afterAll(async () => {
  await t?.close();
});

const get = async (user: Team['member'], id: number) => ok(await as(t, user)('GET', `/api/tasks/${id}/`));

/** A one-stage flow reviewed by the guest and the admin, and one unit; the task already in review. */
async function inReview(mode: TReviewMode) {
  const team = await buildTeam(t);
  const flow = await buildFlow(t, {
    workspace: team.workspace,
    stages: [{ reviewMode: mode, reviewers: [team.guest, team.admin] }],
    edges: [
      ['root', 0],
      [0, 'end'],
    ],
  });
  const unit = await buildUnit(t, team.member, flow);
  const id = taskAt(unit, flow, 0);
  expect(ok(await act(t, team.member, id, 'start')).status).toBe('in_progress');
  const submitted = ok(await act(t, team.member, id, 'submit'));
  expect(submitted).toMatchObject({ status: 'review', iteration: { number: 1, accepted_by: [], closed: false } });
  return { team, flow, unit, id };
}

describe('abilities sent with the task', () => {
  test('each caller gets what they may do now, and the statuses their stage allows', async () => {
    const s = await inReview('each_immediate');
    const guest = await get(s.team.guest, s.id);
    expect(guest.abilities).toEqual({
      start: false,
      submit: false,
      review: true,
      self_review: false,
      reacted: false,
      accept_outcome: 'wait',
      statuses: [],
      update: false,
      self_reviewer: false,
      take: false,
      remind: false,
      // A reviewer logs time whatever their role (docs/time.md).
      log_time: true,
    });
    const member = await get(s.team.member, s.id);
    expect(member.abilities).toMatchObject({
      review: false,
      statuses: ['todo', 'in_progress', 'review', 'edit', 'done'],
    });
    ok(await act(t, s.team.guest, s.id, 'accept'));
    expect((await get(s.team.guest, s.id)).abilities).toMatchObject({ review: false, reacted: true });
    expect((await get(s.team.admin, s.id)).abilities).toMatchObject({ review: true, accept_outcome: 'done' });

    // A stage with To do switched off never offers it, and the server refuses it.
    const team = await buildTeam(t);
    const flow = await buildFlow(t, {
      workspace: team.workspace,
      stages: [{ todoEnabled: false }],
      edges: [
        ['root', 0],
        [0, 'end'],
      ],
    });
    const unit = await buildUnit(t, team.member, flow);
    const id = taskAt(unit, flow, 0);
    const task = await get(team.member, id);
    expect(task.abilities).toMatchObject({
      start: false,
      submit: true,
      statuses: ['in_progress', 'review', 'edit', 'done'],
    });
    const refused = await as(t, team.member)('PATCH', `/api/tasks/${id}/`, { status: 'todo' });
    expect(refused.statusCode).toBe(409);
  });
});

describe('review modes with two reviewers', () => {
  test("a round shows its own task's reactions only, not those of another task's round of the same number", async () => {
    const first = await inReview('each_wait');
    const second = await inReview('each_wait');
    ok(await act(t, first.team.guest, first.id, 'accept'));
    expect((await get(first.team.member, first.id)).iteration).toMatchObject({
      number: 1,
      accepted_by: [first.team.guest.id],
    });
    expect((await get(second.team.member, second.id)).iteration).toMatchObject({ number: 1, accepted_by: [] });
  });

  test('each_immediate: done once both accept; the first rejection sends to edit', async () => {
    const s = await inReview('each_immediate');
    const first = ok(await act(t, s.team.guest, s.id, 'accept', { comment: 'Fine by me' }));
    expect(first).toMatchObject({ status: 'review', iteration: { accepted_by: [s.team.guest.id], closed: false } });
    const again = await act(t, s.team.guest, s.id, 'accept');
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'conflict', rule: 'already_reacted' });
    const done = ok(await act(t, s.team.admin, s.id, 'accept'));
    expect(done).toMatchObject({ status: 'done', iteration: { closed: true, outcome: 'done' } });
    expect(done.iteration!.accepted_by.sort()).toEqual([s.team.guest.id, s.team.admin.id].sort());

    const r = await inReview('each_immediate');
    expect(ok(await act(t, r.team.admin, r.id, 'reject', { comment: 'Redo' })).status).toBe('edit');
    const late = await act(t, r.team.guest, r.id, 'accept');
    expect(late.statusCode).toBe(409);
    expect(late.json()).toMatchObject({ rule: 'invalid_transition' });
  });

  test('each_wait: waits for both; any rejection then sends to edit', async () => {
    const s = await inReview('each_wait');
    expect(ok(await act(t, s.team.guest, s.id, 'reject')).status).toBe('review');
    const closed = ok(await act(t, s.team.admin, s.id, 'accept'));
    expect(closed).toMatchObject({
      status: 'edit',
      iteration: { accepted_by: [s.team.admin.id], rejected_by: [s.team.guest.id], outcome: 'edit' },
    });
    const w = await inReview('each_wait');
    ok(await act(t, w.team.guest, w.id, 'accept'));
    expect(ok(await act(t, w.team.admin, w.id, 'accept')).status).toBe('done');
  });

  test('any: the first reaction decides', async () => {
    const a = await inReview('any');
    expect(ok(await act(t, a.team.guest, a.id, 'accept')).status).toBe('done');
    expect((await act(t, a.team.admin, a.id, 'reject')).statusCode).toBe(409);
    const r = await inReview('any');
    expect(ok(await act(t, r.team.admin, r.id, 'reject')).status).toBe('edit');
  });

  test('a new round after edit starts with empty lists; history records every step with names', async () => {
    const s = await inReview('each_immediate');
    ok(await act(t, s.team.guest, s.id, 'reject', { comment: 'Too dark' }));
    const again = ok(await act(t, s.team.member, s.id, 'submit'));
    expect(again.iteration).toMatchObject({ number: 2, accepted_by: [], rejected_by: [], closed: false });
    const task = await get(s.team.guest, s.id);
    expect(task.history.map((h) => [h.action, h.from, h.to, h.iteration])).toEqual([
      ['start', 'todo', 'in_progress', null],
      ['submit', 'in_progress', 'review', 1],
      ['reject', 'review', 'edit', 1],
      ['submit', 'edit', 'review', 2],
    ]);
    expect(task.history[2]).toMatchObject({ actor: { id: s.team.guest.id }, comment: 'Too dark' });
    expect(task.history[0]!.actor!.username).toBe(s.team.member.username);
    expect(task.role).toBe('guest');
  });

  test('removing the reviewer each_wait waits for closes the round', async () => {
    const s = await inReview('each_wait');
    ok(await act(t, s.team.guest, s.id, 'accept'));
    const patched = ok(await as(t, s.team.member)('PATCH', `/api/tasks/${s.id}/`, { reviewers: [s.team.guest.id] }));
    expect(patched).toMatchObject({ status: 'done', use_stage_defaults: false });
    expect(patched.reviewers.map((r) => r.id)).toEqual([s.team.guest.id]);
  });
});

describe('who may do what', () => {
  test('guest reviewers accept; guests who are not reviewers and members who are not get 403; outsiders 404', async () => {
    const s = await inReview('each_immediate');
    const outsider = await act(t, s.team.outsider, s.id, 'accept');
    expect(outsider.statusCode).toBe(404);
    const member = await act(t, s.team.member, s.id, 'accept');
    expect(member.statusCode).toBe(403);
    expect(member.json()).toMatchObject({ code: 'permission_denied', rule: 'not_a_reviewer' });
    expect((await act(t, s.team.guest, s.id, 'accept')).statusCode).toBe(200);

    const other = await buildFlow(t, { workspace: s.team.workspace, stages: [{ reviewers: [s.team.admin] }] });
    const unit = await buildUnit(t, s.team.member, other);
    const id = taskAt(unit, other, 0);
    await setStatus(t, [id], 'in_progress');
    ok(await act(t, s.team.admin, id, 'submit'));
    expect((await act(t, s.team.guest, id, 'accept')).statusCode).toBe(403);
    expect((await act(t, s.team.guest, id, 'reject')).statusCode).toBe(403);
    expect((await as(t, s.team.outsider)('GET', `/api/tasks/${id}/`)).statusCode).toBe(404);
    expect((await as(t, null)('GET', `/api/tasks/${id}/`)).statusCode).toBe(401);
  });

  test('start and submit: assignees (a guest too) and members; other guests 403', async () => {
    const team = await buildTeam(t);
    const flow = await buildFlow(t, { workspace: team.workspace, stages: [{ assignees: [team.guest] }, {}] });
    const unit = await buildUnit(t, team.member, flow);
    const [mine, other] = [taskAt(unit, flow, 0), taskAt(unit, flow, 1)];
    expect(ok(await act(t, team.guest, mine, 'start')).status).toBe('in_progress');
    expect((await act(t, team.guest, other, 'start')).statusCode).toBe(403);
    expect(ok(await act(t, team.member, other, 'start')).status).toBe('in_progress');
    expect((await act(t, team.guest, other, 'submit')).statusCode).toBe(403);
    const again = await act(t, team.member, other, 'start');
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'conflict', rule: 'invalid_transition' });
  });

  test('members set any status (recorded in history); guests cannot; people must be members', async () => {
    const team = await buildTeam(t);
    const flow = await buildFlow(t, { workspace: team.workspace, stages: [{}] });
    const unit = await buildUnit(t, team.member, flow);
    const id = taskAt(unit, flow, 0);
    const url = `/api/tasks/${id}/`;
    expect((await as(t, team.guest)('PATCH', url, { status: 'done' })).statusCode).toBe(403);
    expect((await as(t, team.outsider)('PATCH', url, { status: 'done' })).statusCode).toBe(404);
    for (const status of ['review', 'done', 'edit', 'todo', 'in_progress'] as const) {
      expect(ok(await as(t, team.member)('PATCH', url, { status })).status).toBe(status);
    }
    const task = await get(team.member, id);
    expect(task.history.map((h) => h.to)).toEqual(['review', 'done', 'edit', 'todo', 'in_progress']);
    expect(task.history.every((h) => h.action === 'set_status')).toBe(true);
    const stranger = await as(t, team.member)('PATCH', url, { assignees: [team.outsider.id] });
    expect(stranger.statusCode).toBe(400);
    expect(stranger.json()).toEqual({ assignees: ['Only members of the workspace can be chosen.'] });
    expect((await as(t, team.guest)('PATCH', url, { assignees: [team.guest.id] })).statusCode).toBe(403);
  });
});

describe('stage options', () => {
  test('skip review: no reviewers, submit goes to done', async () => {
    const team = await buildTeam(t);
    const flow = await buildFlow(t, { workspace: team.workspace, stages: [{ skipReviewIfNoReviewers: true }, {}] });
    const unit = await buildUnit(t, team.member, flow);
    const [skip, plain] = [taskAt(unit, flow, 0), taskAt(unit, flow, 1)];
    await setStatus(t, [skip, plain], 'in_progress');
    expect(ok(await act(t, team.member, skip, 'submit')).status).toBe('done');
    expect(ok(await act(t, team.member, plain, 'submit')).status).toBe('review');
  });

  test('accept edit as done: after a rejection, the fix goes straight to done', async () => {
    const team = await buildTeam(t);
    const flow = await buildFlow(t, {
      workspace: team.workspace,
      stages: [{ acceptEditAsDone: true, reviewers: [team.admin] }],
    });
    const unit = await buildUnit(t, team.member, flow);
    const id = taskAt(unit, flow, 0);
    await setStatus(t, [id], 'in_progress');
    ok(await act(t, team.member, id, 'submit'));
    expect(ok(await act(t, team.admin, id, 'reject')).status).toBe('edit');
    expect(ok(await act(t, team.member, id, 'submit')).status).toBe('done');
  });

  test('To do disabled: tasks start in progress, start is refused, and To do cannot be set', async () => {
    const team = await buildTeam(t);
    const flow = await buildFlow(t, { workspace: team.workspace, stages: [{ todoEnabled: false }, {}] });
    const unit = await buildUnit(t, team.member, flow);
    expect(unit.tasks.map((c) => c.status)).toEqual(['in_progress', 'todo']);
    const id = taskAt(unit, flow, 0);
    expect((await act(t, team.member, id, 'start')).statusCode).toBe(409);
    const todo = await as(t, team.member)('PATCH', `/api/tasks/${id}/`, { status: 'todo' });
    expect(todo.statusCode).toBe(409);
    expect(todo.json()).toMatchObject({ rule: 'invalid_transition' });
  });
});

describe('reject with return_to', () => {
  /** A and B feed C; A and B done, C in review by the admin. */
  async function join() {
    const team = await buildTeam(t);
    const flow = await buildFlow(t, {
      workspace: team.workspace,
      stages: [{ name: 'A' }, { name: 'B' }, { name: 'C', reviewers: [team.admin] }],
      edges: [
        ['root', 0],
        ['root', 1],
        [0, 2],
        [1, 2],
        [2, 'end'],
      ],
    });
    const unit = await buildUnit(t, team.member, flow);
    const [a, b, c] = [0, 1, 2].map((i) => taskAt(unit, flow, i)) as [number, number, number];
    expect((await get(team.member, c)).ready).toBe(false);
    for (const id of [a, b]) ok(await as(t, team.member)('PATCH', `/api/tasks/${id}/`, { status: 'done' }));
    const ready = await get(team.member, c);
    expect(ready.ready).toBe(true);
    expect(ready.predecessors.map((p) => [p.stage_name, p.status])).toEqual([
      ['A', 'done'],
      ['B', 'done'],
    ]);
    ok(await act(t, team.member, c, 'start'));
    ok(await act(t, team.member, c, 'submit'));
    return { team, flow, a, b, c };
  }

  test('with two predecessors the choice is required and must be a predecessor', async () => {
    const s = await join();
    const none = await act(t, s.team.admin, s.c, 'reject');
    expect(none.statusCode).toBe(400);
    expect(none.json()).toMatchObject({ code: 'bad_request', rule: 'return_to_required' });
    const foreign = await act(t, s.team.admin, s.c, 'reject', { return_to: [s.flow.pipeline.root] });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json()).toMatchObject({ rule: 'return_to_not_predecessor' });
    expect((await get(s.team.member, s.c)).status).toBe('review');
  });

  test('sending A back: A to edit, B stays done, C back to its start and not ready', async () => {
    const s = await join();
    const [stageA] = s.flow.stages;
    const c = ok(await act(t, s.team.admin, s.c, 'reject', { return_to: [stageA], comment: 'Fix A' }));
    expect(c).toMatchObject({
      status: 'todo',
      ready: false,
      iteration: { outcome: 'returned', closed: true, return_to: [stageA] },
    });
    const a = await get(s.team.member, s.a);
    expect(a.status).toBe('edit');
    expect(a.history.at(-1)).toMatchObject({ action: 'send_back', from: 'done', to: 'edit', comment: 'Fix A' });
    expect((await get(s.team.member, s.b)).status).toBe('done');
    expect(c.predecessors.map((p) => p.status)).toEqual(['edit', 'done']);
    // The fix: A done again makes C ready again.
    ok(await as(t, s.team.member)('PATCH', `/api/tasks/${s.a}/`, { status: 'done' }));
    expect((await get(s.team.member, s.c)).ready).toBe(true);
  });

  test('sending A and B back: both to edit, C back to its start, and three live task events', async () => {
    const s = await join();
    const [stageA, stageB] = s.flow.stages;
    const [{ last } = { last: 0 }] = await t.database.db
      .select({ last: sql<number>`coalesce(max(${schema.events.id}), 0)::int` })
      .from(schema.events);
    const c = ok(await act(t, s.team.admin, s.c, 'reject', { return_to: [stageA, stageB], comment: 'Both need work' }));
    expect(c).toMatchObject({
      status: 'todo',
      ready: false,
      iteration: { outcome: 'returned', closed: true, return_to: [stageA, stageB] },
    });
    for (const id of [s.a, s.b]) {
      const back = await get(s.team.member, id);
      expect(back.status).toBe('edit');
      expect(back.history.at(-1)).toMatchObject({
        action: 'send_back',
        from: 'done',
        to: 'edit',
        comment: 'Both need work',
      });
    }
    expect(c.predecessors.map((p) => p.status)).toEqual(['edit', 'edit']);
    // One live event per changed task, to the workspace: A, B and C.
    const published = await t.database.db
      .select({ type: schema.events.type, payload: schema.events.payload })
      .from(schema.events)
      .where(and(gt(schema.events.id, last), eq(schema.events.workspaceId, s.team.workspace.id)));
    const taskIds = published
      .filter((event) => event.type.startsWith('task'))
      .map(
        (event) =>
          (event.payload as { task?: { id?: number }; id?: number }).task?.id ?? (event.payload as { id?: number }).id,
      );
    expect(new Set(taskIds)).toEqual(new Set([s.a, s.b, s.c]));
    expect(taskIds).toHaveLength(3);
    // Only A done again leaves C waiting for B.
    ok(await as(t, s.team.member)('PATCH', `/api/tasks/${s.a}/`, { status: 'done' }));
    expect((await get(s.team.member, s.c)).ready).toBe(false);
    ok(await as(t, s.team.member)('PATCH', `/api/tasks/${s.b}/`, { status: 'done' }));
    expect((await get(s.team.member, s.c)).ready).toBe(true);
  });

  test('an explicit [] sends this task to edit', async () => {
    const s = await join();
    expect(ok(await act(t, s.team.admin, s.c, 'reject', { return_to: [] })).status).toBe('edit');
  });
});

describe('readiness, due dates and overdue', () => {
  test('days after ready count from when the predecessor is done; overdue is computed at read', async () => {
    const team = await buildTeam(t);
    const flow = await buildFlow(t, {
      workspace: team.workspace,
      stages: [{}, { dueDays: 2, assignees: [team.member] }],
      edges: [
        ['root', 0],
        [0, 1],
      ],
    });
    const unit = await buildUnit(t, team.member, flow);
    const [first, second] = [taskAt(unit, flow, 0), taskAt(unit, flow, 1)];
    expect(unit.tasks.map((c) => c.ready)).toEqual([true, false]);
    const waiting = await get(team.member, second);
    expect(waiting).toMatchObject({ ready: false, due_date: null, overdue: false });
    expect(waiting.assignees.map((a) => a.id)).toEqual([team.member.id]);
    const before = Date.now();
    ok(await as(t, team.member)('PATCH', `/api/tasks/${first}/`, { status: 'done' }));
    const ready = await get(team.member, second);
    expect(ready.ready).toBe(true);
    const due = new Date(ready.due_date!).getTime();
    expect(due).toBeGreaterThanOrEqual(before + 2 * 86_400_000 - 1000);
    expect(due).toBeLessThanOrEqual(Date.now() + 2 * 86_400_000 + 1000);
    expect(ready.overdue).toBe(false);

    const past = new Date(Date.now() - 60_000).toISOString();
    const own = ok(await as(t, team.member)('PATCH', `/api/tasks/${second}/`, { due_date: past }));
    expect(own).toMatchObject({ overdue: true, use_stage_defaults: false, due_date: past });
    // Switching to own values keeps the effective people it had.
    expect(own.assignees.map((a) => a.id)).toEqual([team.member.id]);
    expect(ok(await as(t, team.member)('PATCH', `/api/tasks/${second}/`, { status: 'done' })).overdue).toBe(false);
    const back = ok(await as(t, team.member)('PATCH', `/api/tasks/${second}/`, { use_stage_defaults: true }));
    expect(back.use_stage_defaults).toBe(true);
  });
});

describe('database guards', () => {
  test('a second reaction of one reviewer in one round is refused by the database too', async () => {
    const s = await inReview('each_wait');
    ok(await act(t, s.team.guest, s.id, 'accept'));
    await expect(
      t.database.db
        .insert(schema.taskReactions)
        .values({ taskId: s.id, iteration: 1, userId: s.team.guest.id, verdict: 'reject' }),
    ).rejects.toThrow();
    const [row] = await t.database.db.select().from(schema.tasks).where(eq(schema.tasks.id, s.id));
    expect(row!.status).toBe('review');
    const task: TTask = await get(s.team.admin, s.id);
    expect(task.iteration!.accepted_by).toEqual([s.team.guest.id]);
  });
});
