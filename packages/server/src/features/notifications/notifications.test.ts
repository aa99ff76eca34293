import type { TNotification } from '@stageline/shared';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { relaxedLimits } from '../../../test/accounts';
import { buildTestApp, type TestApp } from '../../../test/helpers';
import { kindsOf, notificationsOf } from '../../../test/live';
import { act, buildFlow, buildUnit, ok, taskAt } from '../../../test/units';
import { as, buildTeam, buildUser } from '../../../test/workspaces';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ authLimits: relaxedLimits });
});
afterAll(async () => {
  await t?.close();
});

type Caller = { headers: { authorization: string } };

/** A team, a one-stage flow (review mode as given) and one unit whose task the member works on. */
async function scene(reviewMode: 'each_immediate' | 'each_wait' | 'any' = 'any') {
  const team = await buildTeam(t);
  const flow = await buildFlow(t, {
    workspace: team.workspace,
    stages: [{ reviewMode, assignees: [team.member], reviewers: [team.guest, team.admin] }],
    edges: [
      ['root', 0],
      [0, 'end'],
    ],
  });
  const unit = await buildUnit(t, team.owner, flow);
  return { team, flow, unit, task: taskAt(unit, flow, 0) };
}

/** Notifications of `user` about `task`, newest first. */
async function about(user: Caller, task: number): Promise<TNotification[]> {
  return (await notificationsOf(t, user)).results.filter((n) => n.task?.id === task);
}

describe('notifications of task changes', () => {
  test('assigned / reviewer_added when people newly become effective assignees or reviewers, never the actor', async () => {
    const { team, task, unit } = await scene();
    // The member and the guest and admin were already there through the stage defaults.
    const patch = await as(t, team.owner)('PATCH', `/api/tasks/${task}/`, {
      assignees: [team.member.id, team.owner.id, team.guest.id],
      reviewers: [team.admin.id, team.guest.id, team.member.id],
    });
    expect(patch.statusCode, patch.body).toBe(200);
    expect((await about(team.guest, task)).map((n) => n.kind)).toEqual(['assigned']);
    expect((await about(team.member, task)).map((n) => n.kind)).toEqual(['reviewer_added']);
    expect(await about(team.admin, task)).toEqual([]);
    expect(await about(team.owner, task)).toEqual([]);
    const [assigned] = await about(team.guest, task);
    expect(assigned).toMatchObject({
      kind: 'assigned',
      read: false,
      task: { id: task, unit: unit.name, stage: 'Stage 1' },
      unit: { id: unit.id, name: unit.name, project: unit.project },
      workspace: { id: team.workspace.id },
      actor: { id: team.owner.id, username: team.owner.username },
      comment: null,
      text: '',
    });

    // The same people again: nothing new. Back to the stage defaults: nobody is new either.
    ok(await as(t, team.owner)('PATCH', `/api/tasks/${task}/`, { assignees: [team.member.id, team.guest.id] }));
    ok(await as(t, team.owner)('PATCH', `/api/tasks/${task}/`, { use_stage_defaults: true }));
    expect(await about(team.guest, task)).toHaveLength(1);
    expect(await about(team.member, task)).toHaveLength(1);
  });

  test('review_requested to the reviewers when the task enters review; accepted to the assignees', async () => {
    const { team, task } = await scene('any');
    ok(await act(t, team.member, task, 'start'));
    ok(await act(t, team.member, task, 'submit'));
    expect((await about(team.guest, task)).map((n) => n.kind)).toEqual(['review_requested']);
    expect((await about(team.admin, task)).map((n) => n.kind)).toEqual(['review_requested']);
    expect(await about(team.member, task)).toEqual([]);

    ok(await act(t, team.guest, task, 'accept', { comment: 'Lovely' }));
    const [accepted] = await about(team.member, task);
    expect(accepted).toMatchObject({ kind: 'accepted', actor: { id: team.guest.id }, text: 'Lovely' });
    expect((await about(team.guest, task)).map((n) => n.kind)).toEqual(['review_requested']);
  });

  test('rejected to the assignees with the reject comment; each_wait tells when the round closes', async () => {
    const { team, task } = await scene('each_wait');
    ok(await act(t, team.member, task, 'start'));
    ok(await act(t, team.member, task, 'submit'));
    ok(await act(t, team.guest, task, 'reject', { comment: 'The title is wrong' }));
    expect(await about(team.member, task)).toEqual([]);
    expect(ok(await act(t, team.admin, task, 'accept')).status).toBe('edit');
    const [rejected] = await about(team.member, task);
    expect(rejected).toMatchObject({ kind: 'rejected', actor: { id: team.admin.id }, text: 'The title is wrong' });

    // A Member setting review by hand also asks the reviewers.
    ok(await as(t, team.owner)('PATCH', `/api/tasks/${task}/`, { status: 'review' }));
    expect((await about(team.guest, task)).map((n) => n.kind)).toEqual(['review_requested', 'review_requested']);
  });

  test('a reject that sends earlier stages back tells their assignees', async () => {
    const team = await buildTeam(t);
    const flow = await buildFlow(t, {
      workspace: team.workspace,
      stages: [{ assignees: [team.member] }, { reviewMode: 'any', assignees: [team.admin], reviewers: [team.guest] }],
      edges: [
        ['root', 0],
        [0, 1],
        [1, 'end'],
      ],
    });
    const unit = await buildUnit(t, team.owner, flow);
    const [first, second] = [taskAt(unit, flow, 0), taskAt(unit, flow, 1)];
    ok(await as(t, team.owner)('PATCH', `/api/tasks/${first}/`, { status: 'done' }));
    ok(await as(t, team.owner)('PATCH', `/api/tasks/${second}/`, { status: 'review' }));
    ok(await act(t, team.guest, second, 'reject', { comment: 'Start over', return_to: [flow.stages[0]] }));
    expect((await about(team.member, first)).map((n) => [n.kind, n.text])).toEqual([['rejected', 'Start over']]);
    expect((await about(team.admin, second)).map((n) => [n.kind, n.text])).toEqual([['rejected', 'Start over']]);
  });
});

describe('invited', () => {
  test('an existing account invited directly is notified; an e-mail without an account is not', async () => {
    const team = await buildTeam(t);
    const invitee = await buildUser(t, { prefix: 'invitee' });
    const response = await as(t, team.admin)('POST', `/api/workspaces/${team.workspace.id}/invite/`, {
      users: [invitee.username, 'nobody-yet@example.com'],
      role: 'member',
    });
    expect(response.json()).toMatchObject({ invited: 2, failed: 0 });
    const list = await notificationsOf(t, invitee);
    expect(list.results).toHaveLength(1);
    expect(list.results[0]).toMatchObject({
      kind: 'invited',
      workspace: { id: team.workspace.id },
      actor: { id: team.admin.id },
      task: null,
      unit: null,
    });
  });
});

describe('the notifications list', () => {
  test('newest first, ?read= filters, unread total; read, unread and read_all; another user gets 404', async () => {
    const { team, task } = await scene();
    ok(await as(t, team.owner)('PATCH', `/api/tasks/${task}/`, { assignees: [team.guest.id] }));
    ok(await act(t, team.owner, task, 'start'));
    ok(await act(t, team.owner, task, 'submit'));
    expect(await kindsOf(t, team.guest)).toEqual(['review_requested', 'assigned']);
    const all = await notificationsOf(t, team.guest);
    expect(all).toMatchObject({ count: 2, next: null, unread: 2 });
    const [newest, oldest] = all.results;

    const call = as(t, team.guest);
    expect((await call('POST', `/api/notifications/${oldest!.id}/read/`)).statusCode).toBe(204);
    expect((await call('POST', `/api/notifications/${oldest!.id}/read/`)).statusCode).toBe(204);
    expect(await notificationsOf(t, team.guest, '?read=false')).toMatchObject({
      count: 1,
      unread: 1,
      results: [{ id: newest!.id, read: false }],
    });
    expect(await notificationsOf(t, team.guest, '?read=true')).toMatchObject({
      count: 1,
      results: [{ id: oldest!.id, read: true }],
    });
    expect(await notificationsOf(t, team.guest, '?limit=1')).toMatchObject({ count: 2, next: 1 });

    for (const action of ['read', 'unread']) {
      expect((await as(t, team.admin)('POST', `/api/notifications/${newest!.id}/${action}/`)).statusCode).toBe(404);
      expect((await as(t, null)('POST', `/api/notifications/${newest!.id}/${action}/`)).statusCode).toBe(401);
    }
    expect((await call('POST', `/api/notifications/${oldest!.id}/unread/`)).statusCode).toBe(204);
    expect((await notificationsOf(t, team.guest)).unread).toBe(2);

    const adminBefore = (await notificationsOf(t, team.admin)).unread;
    expect(adminBefore).toBeGreaterThan(0);
    expect((await call('POST', '/api/notifications/read_all/')).statusCode).toBe(204);
    expect(await notificationsOf(t, team.guest)).toMatchObject({ unread: 0, count: 2 });
    expect((await notificationsOf(t, team.admin)).unread).toBe(adminBefore);
    expect((await call('GET', '/api/notifications/?read=maybe')).statusCode).toBe(400);
    expect((await call('POST', '/api/notifications/2147483647/read/')).statusCode).toBe(404);
  });

  test('read_all?task= marks only the notifications about that task read', async () => {
    const { team, task, flow } = await scene();
    const other = { task: taskAt(await buildUnit(t, team.owner, flow), flow, 0) };
    for (const id of [task, other.task]) {
      ok(await as(t, team.owner)('PATCH', `/api/tasks/${id}/`, { assignees: [team.guest.id] }));
    }
    expect(await notificationsOf(t, team.guest)).toMatchObject({ unread: 2 });
    expect((await as(t, team.guest)('POST', `/api/notifications/read_all/?task=${task}`)).statusCode).toBe(204);
    const after = await notificationsOf(t, team.guest);
    expect(after.unread).toBe(1);
    expect(after.results.map((n) => [n.task?.id, n.read])).toEqual([
      [other.task, false],
      [task, true],
    ]);
    expect((await as(t, team.guest)('POST', '/api/notifications/read_all/?task=abc')).statusCode).toBe(400);
  });
});
