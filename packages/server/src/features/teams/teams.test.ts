import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { TReviewMode, TStage, TTaskList, TTeam } from '@stageline/shared';
import { schema } from '../../db';
import { relaxedLimits } from '../../../test/accounts';
import { buildTestApp, type TestApp } from '../../../test/helpers';
import { act, buildFlow, buildUnit, ok, setStatus, taskAt } from '../../../test/units';
import { addMember, as, buildTeam, buildUser, type Team, type TestUser } from '../../../test/workspaces';

/**
 * Teams and review rules (docs/review-rules.md) over HTTP on the real database: team CRUD and
 * members, a stage's rules, team reviewers and "2 approvals", no self-review, team queues and
 * "Take", re-requesting review, rounds, and notifications that name the team.
 */

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ authLimits: relaxedLimits });
});
afterAll(async () => {
  await t?.close();
});

async function createTeam(ws: Team, name: string, members: TestUser[]): Promise<TTeam> {
  const created = await as(t, ws.admin)('POST', `/api/workspaces/${ws.workspace.id}/teams/`, { name });
  expect(created.statusCode, created.body).toBe(201);
  const team = created.json<TTeam>();
  if (members.length === 0) return team;
  const added = await as(t, ws.admin)('POST', `/api/teams/${team.id}/members/`, { users: members.map((m) => m.id) });
  expect(added.statusCode, added.body).toBe(200);
  return added.json<TTeam>();
}

/** A workspace with two more members (the "leads"), a team of the leads and the guest, one stage. */
async function scene(mode: TReviewMode = 'each_immediate') {
  const ws = await buildTeam(t);
  const [lead1, lead2] = await Promise.all([buildUser(t, { prefix: 'lead' }), buildUser(t, { prefix: 'lead' })]);
  await addMember(t, { workspace: ws.workspace, user: lead1, role: 'member', inviter: ws.owner });
  await addMember(t, { workspace: ws.workspace, user: lead2, role: 'member', inviter: ws.owner });
  const leads = await createTeam(ws, 'Lighting leads', [lead1, lead2, ws.member]);
  const flow = await buildFlow(t, { workspace: ws.workspace, stages: [{ reviewMode: mode, assignees: [ws.member] }] });
  return { ws, lead1: lead1, lead2: lead2, leads, flow, stage: flow.stages[0]! };
}

async function patchStage(user: TestUser, stage: number, body: object) {
  return as(t, user)('PATCH', `/api/stages/${stage}/`, body);
}

async function inReview(s: Awaited<ReturnType<typeof scene>>) {
  const unit = await buildUnit(t, s.ws.member, s.flow);
  const id = taskAt(unit, s.flow, 0);
  await setStatus(t, [id], 'in_progress');
  ok(await act(t, s.ws.member, id, 'submit'));
  return id;
}

describe('teams', () => {
  test('Admins create, rename, recolour and delete teams and manage members; everyone reads', async () => {
    const ws = await buildTeam(t);
    const team = await createTeam(ws, 'Compositing', [ws.guest, ws.member]);
    expect(team).toMatchObject({ name: 'Compositing', color: '#1c7ed6', workspace: ws.workspace.id });
    expect(team.members.map((m) => m.id).sort()).toEqual([ws.guest.id, ws.member.id].sort());

    const list = await as(t, ws.guest)('GET', `/api/workspaces/${ws.workspace.id}/teams/`);
    expect(list.json<TTeam[]>().map((x) => x.name)).toEqual(['Compositing']);
    expect(
      (await as(t, ws.member)('POST', `/api/workspaces/${ws.workspace.id}/teams/`, { name: 'X' })).statusCode,
    ).toBe(403);
    expect((await as(t, ws.outsider)('GET', `/api/teams/${team.id}/`)).statusCode).toBe(404);

    const renamed = await as(t, ws.admin)('PATCH', `/api/teams/${team.id}/`, { name: 'Comp', color: '#AABBCC' });
    expect(renamed.json()).toMatchObject({ name: 'Comp', color: '#aabbcc' });
    expect((await as(t, ws.admin)('DELETE', `/api/teams/${team.id}/members/${ws.guest.id}/`)).statusCode).toBe(204);
    expect((await as(t, ws.admin)('DELETE', `/api/teams/${team.id}/members/${ws.guest.id}/`)).statusCode).toBe(404);
    expect((await as(t, ws.admin)('GET', `/api/teams/${team.id}/`)).json<TTeam>().members.map((m) => m.id)).toEqual([
      ws.member.id,
    ]);
    expect((await as(t, ws.owner)('DELETE', `/api/teams/${team.id}/`)).statusCode).toBe(204);
    expect((await as(t, ws.owner)('GET', `/api/teams/${team.id}/`)).statusCode).toBe(404);
  });

  test('bad input is a translated field error, never a 500', async () => {
    const ws = await buildTeam(t);
    await createTeam(ws, 'Lighting', []);
    const taken = await as(t, ws.admin)('POST', `/api/workspaces/${ws.workspace.id}/teams/`, { name: 'lighting' });
    expect(taken.statusCode).toBe(400);
    expect(taken.json()).toMatchObject({ name: ['A team with this name already exists in the workspace.'] });
    const colour = await t.app.inject({
      method: 'POST',
      url: `/api/workspaces/${ws.workspace.id}/teams/`,
      payload: { name: 'Grading', color: 'red' },
      headers: { ...ws.admin.headers, 'accept-language': 'ru' },
    });
    expect(colour.statusCode).toBe(400);
    expect(colour.json()).toMatchObject({ color: ['Укажите цвет в виде #rrggbb.'] });
    const team = await createTeam(ws, 'Grading', []);
    const stranger = await as(t, ws.admin)('POST', `/api/teams/${team.id}/members/`, { users: [ws.outsider.id] });
    expect(stranger.statusCode).toBe(400);
    expect(stranger.json()).toMatchObject({ users: ['Only members of the workspace can be chosen.'] });
  });
});

describe('review rules of a stage', () => {
  test('PATCH stages/{id}/ sets and returns the rules; teams of another workspace are refused', async () => {
    const s = await scene();
    const response = await patchStage(s.ws.member, s.stage, {
      required_approvals: 2,
      team_rules: [{ team: s.leads.id, required: 1 }],
      default_reviewer_teams: [s.leads.id],
      allow_self_review: false,
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json<TStage>()).toMatchObject({
      required_approvals: 2,
      team_rules: [{ team: s.leads.id, required: 1 }],
      default_reviewer_teams: [s.leads.id],
      default_assignee_teams: [],
      allow_self_review: false,
    });
    const other = await scene();
    const foreign = await patchStage(s.ws.member, s.stage, { default_reviewer_teams: [other.leads.id] });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json()).toMatchObject({ default_reviewer_teams: ['Only teams of the workspace can be chosen.'] });
    const twice = await patchStage(s.ws.member, s.stage, {
      team_rules: [
        { team: s.leads.id, required: 1 },
        { team: s.leads.id, required: 2 },
      ],
    });
    expect(twice.json()).toMatchObject({ team_rules: ['Each team can have one rule.'] });
    expect((await patchStage(s.ws.member, s.stage, { required_approvals: 0 })).statusCode).toBe(400);
  });

  test('a reviewer team with "2 approvals": members but the assignee review; two accepts make it Done', async () => {
    const s = await scene('each_immediate');
    ok(await patchStage(s.ws.member, s.stage, { default_reviewer_teams: [s.leads.id], required_approvals: 2 }));
    const id = await inReview(s);
    const task = ok(await as(t, s.lead1)('GET', `/api/tasks/${id}/`));
    // The assignee (the member) is in the team but not a reviewer of the round.
    expect(task.reviewers.map((r) => r.id).sort()).toEqual([s.lead1.id, s.lead2.id].sort());
    expect(task.reviewer_teams).toEqual([{ id: s.leads.id, name: 'Lighting leads', color: '#1c7ed6' }]);
    expect([...task.team_reviewers!].sort()).toEqual([s.lead1.id, s.lead2.id].sort());
    expect(task.review_rules).toEqual([{ team: null, approved: 0, required: 2, met: false }]);

    const own = await act(t, s.ws.member, id, 'accept');
    expect(own.statusCode).toBe(403);
    expect(own.json()).toMatchObject({
      rule: 'self_review',
      detail: 'You are an assignee of this task: you cannot review your own work.',
    });
    const ownRu = await t.app.inject({
      method: 'POST',
      url: `/api/tasks/${id}/reject/`,
      headers: { ...s.ws.member.headers, 'accept-language': 'ru' },
    });
    expect(ownRu.json()).toMatchObject({ detail: 'Вы исполнитель этой задачи: проверять собственную работу нельзя.' });

    expect(ok(await act(t, s.lead1, id, 'accept')).review_rules).toEqual([
      { team: null, approved: 1, required: 2, met: false },
    ]);
    const done = ok(await act(t, s.lead2, id, 'accept'));
    expect(done).toMatchObject({ status: 'done', iteration: { outcome: 'done' } });

    // Lists: the leads see it under reviewer=me; the assignee does not.
    const unit2 = await inReview(s);
    const mine = async (user: TestUser) =>
      (await as(t, user)('GET', `/api/tasks/?reviewer=me&awaiting=true&pipeline=${s.flow.pipeline.id}`))
        .json<TTaskList>()
        .results.map((r) => r.id);
    expect(await mine(s.lead1)).toEqual([unit2]);
    expect(await mine(s.ws.member)).toEqual([]);
  });

  test('allow_self_review lets an assignee who is a reviewer react', async () => {
    const s = await scene('any');
    ok(await patchStage(s.ws.member, s.stage, { allow_self_review: true }));
    await t.database.db.insert(schema.stageDefaultReviewers).values({ stageId: s.stage, userId: s.ws.member.id });
    const id = await inReview(s);
    expect(ok(await act(t, s.ws.member, id, 'accept')).status).toBe('done');
  });

  test('"1 from the leads and 2 in total" with a team rule; each submission is a new round', async () => {
    const s = await scene('each_wait');
    ok(
      await patchStage(s.ws.member, s.stage, {
        default_reviewers: [s.ws.admin.id, s.ws.owner.id],
        default_reviewer_teams: [s.leads.id],
        required_approvals: 2,
        team_rules: [{ team: s.leads.id, required: 1 }],
      }),
    );
    const id = await inReview(s);
    ok(await act(t, s.ws.admin, id, 'accept'));
    const two = ok(await act(t, s.ws.owner, id, 'accept'));
    expect(two.status).toBe('review');
    expect(two.review_rules).toEqual([
      { team: { id: s.leads.id, name: 'Lighting leads', color: '#1c7ed6' }, approved: 0, required: 1, met: false },
      { team: null, approved: 2, required: 2, met: true },
    ]);
    // Both leads reject: the team rule can no longer be met, so each_wait closes the round at once.
    ok(await act(t, s.lead1, id, 'reject'));
    const edit = ok(await act(t, s.lead2, id, 'reject'));
    expect(edit).toMatchObject({ status: 'edit', iteration: { number: 1, outcome: 'edit' } });
    const again = ok(await act(t, s.ws.member, id, 'submit'));
    expect(again.iteration).toMatchObject({ number: 2, accepted_by: [], rejected_by: [], closed: false });
    ok(await act(t, s.lead1, id, 'accept'));
    expect(ok(await act(t, s.ws.admin, id, 'accept')).status).toBe('done');
    const rounds = new Set(again.history.map((h) => h.iteration));
    expect(rounds.has(1)).toBe(true);
  });
});

describe('team queues', () => {
  test('a task assigned to a team is in every member’s queue until one takes it', async () => {
    const s = await scene();
    await t.database.db.delete(schema.stageDefaultAssignees).where(eq(schema.stageDefaultAssignees.stageId, s.stage));
    ok(await patchStage(s.ws.member, s.stage, { default_assignee_teams: [s.leads.id] }));
    const unit = await buildUnit(t, s.ws.member, s.flow);
    const id = taskAt(unit, s.flow, 0);
    const queue = async (user: TestUser) =>
      (await as(t, user)('GET', '/api/tasks/?queue=team')).json<TTaskList>().results.filter((r) => r.id === id);
    expect(await queue(s.lead1)).toMatchObject([{ id, assignee_teams: [{ id: s.leads.id, name: 'Lighting leads' }] }]);
    expect(await queue(s.lead2)).toHaveLength(1);
    expect(await queue(s.ws.admin)).toHaveLength(0);
    expect(ok(await as(t, s.lead1)('GET', `/api/tasks/${id}/`)).abilities.take).toBe(true);
    expect(ok(await as(t, s.ws.admin)('GET', `/api/tasks/${id}/`)).abilities.take).toBe(false);

    const outsider = await as(t, s.ws.admin)('POST', `/api/tasks/${id}/take/`);
    expect(outsider.statusCode).toBe(403);
    expect(outsider.json()).toMatchObject({ detail: 'Only a member of a team this task is assigned to can take it.' });
    const taken = ok(await as(t, s.lead2)('POST', `/api/tasks/${id}/take/`));
    expect(taken).toMatchObject({ assignees: [{ id: s.lead2.id }], assignee_teams: [], use_stage_defaults: false });
    expect(await queue(s.lead1)).toHaveLength(0);
    const notified = await t.database.db
      .select()
      .from(schema.notifications)
      .where(and(eq(schema.notifications.taskId, id), eq(schema.notifications.kind, 'assigned')));
    expect(notified).toHaveLength(0); // taking is one's own action: nobody else is told they were assigned

    // The matrix filter by assignee accepts a team.
    const unit2 = await buildUnit(t, s.ws.member, s.flow);
    const matrix = await as(t, s.ws.guest)(
      'GET',
      `/api/units/matrix/?pipeline=${s.flow.pipeline.id}&assignee_team=${s.leads.id}`,
    );
    expect(matrix.statusCode, matrix.body).toBe(200);
    expect(matrix.json<{ rows: { unit: { id: number } }[] }>().rows.map((r) => r.unit.id)).toEqual([unit2.id]);
  });
});

describe('re-request review and notifications', () => {
  test('review requested names the team; the assignee reminds those who have not reacted, once an hour', async () => {
    const s = await scene('each_wait');
    ok(await patchStage(s.ws.member, s.stage, { default_reviewer_teams: [s.leads.id] }));
    const id = await inReview(s);
    const requests = async (user: TestUser) =>
      t.database.db
        .select({ text: schema.notifications.text })
        .from(schema.notifications)
        .where(
          and(
            eq(schema.notifications.taskId, id),
            eq(schema.notifications.userId, user.id),
            eq(schema.notifications.kind, 'review_requested'),
          ),
        );
    expect(await requests(s.lead1)).toEqual([{ text: 'Lighting leads' }]);
    const listed = await as(t, s.lead1)('GET', '/api/notifications/');
    expect(JSON.stringify(listed.json())).toContain('Lighting leads');

    ok(await act(t, s.lead1, id, 'accept'));
    expect((await as(t, s.lead1)('POST', `/api/tasks/${id}/remind/`)).statusCode).toBe(403);
    expect(ok(await as(t, s.ws.member)('GET', `/api/tasks/${id}/`)).abilities.remind).toBe(true);
    const reminded = ok(await as(t, s.ws.member)('POST', `/api/tasks/${id}/remind/`));
    expect(reminded.reminded_at).not.toBeNull();
    expect(reminded.abilities.remind).toBe(false);
    expect(await requests(s.lead1)).toHaveLength(1); // reacted already: not reminded
    expect(await requests(s.lead2)).toHaveLength(2);

    const soon = await t.app.inject({
      method: 'POST',
      url: `/api/tasks/${id}/remind/`,
      headers: { ...s.ws.member.headers, 'accept-language': 'ru' },
    });
    expect(soon.statusCode).toBe(429);
    expect(Number(soon.headers['retry-after'])).toBeGreaterThan(3500);
    expect(soon.json()).toMatchObject({ detail: 'Проверяющим напоминали меньше часа назад. Попробуйте позже.' });

    // An hour later it may remind again.
    await t.database.db
      .update(schema.tasks)
      .set({ remindedAt: new Date(Date.now() - 3_600_001) })
      .where(eq(schema.tasks.id, id));
    ok(await as(t, s.ws.member)('POST', `/api/tasks/${id}/remind/`));
    expect(await requests(s.lead2)).toHaveLength(3);

    ok(await act(t, s.lead2, id, 'accept'));
    const closed = await as(t, s.ws.member)('POST', `/api/tasks/${id}/remind/`);
    expect(closed.statusCode).toBe(409);
  });

  test('PATCH tasks/{id}/ sets a task’s own teams', async () => {
    const s = await scene();
    const unit = await buildUnit(t, s.ws.member, s.flow);
    const id = taskAt(unit, s.flow, 0);
    const patched = ok(
      await as(t, s.ws.member)('PATCH', `/api/tasks/${id}/`, {
        assignee_teams: [s.leads.id],
        reviewer_teams: [s.leads.id],
      }),
    );
    expect(patched).toMatchObject({
      use_stage_defaults: false,
      assignees: [{ id: s.ws.member.id }],
      assignee_teams: [{ id: s.leads.id }],
      reviewer_teams: [{ id: s.leads.id }],
    });
    expect(patched.reviewers.map((r) => r.id).sort()).toEqual([s.lead1.id, s.lead2.id].sort());
    const other = await scene();
    const foreign = await as(t, s.ws.member)('PATCH', `/api/tasks/${id}/`, { reviewer_teams: [other.leads.id] });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json()).toMatchObject({ reviewer_teams: ['Only teams of the workspace can be chosen.'] });
    const guest = await as(t, s.ws.guest)('PATCH', `/api/tasks/${id}/`, { reviewer_teams: [] });
    expect(guest.statusCode).toBe(403);
  });
});

/**
 * Issue 31, item 9 (docs/review-rules.md, "Skipping review"): Members may set any status, Done
 * included, and the history says so; a stage that enforces its review leaves that to Admins.
 */
describe('skipping review', () => {
  async function reviewed(s: Awaited<ReturnType<typeof scene>>) {
    ok(await patchStage(s.ws.member, s.stage, { default_reviewers: [s.lead1.id] }));
    return inReview(s);
  }
  const patchTask = (user: TestUser, id: number, body: object) => as(t, user)('PATCH', `/api/tasks/${id}/`, body);

  test('a Member who sets Done from review is recorded as skipping it', async () => {
    const s = await scene();
    const id = await reviewed(s);
    const stage = ok(await as(t, s.ws.member)('GET', `/api/stages/${s.stage}/`)) as unknown as TStage;
    expect(stage.enforce_review).toBe(false);
    expect(ok(await as(t, s.ws.member)('GET', `/api/tasks/${id}/`)).abilities.statuses).toContain('done');

    const done = ok(await patchTask(s.ws.member, id, { status: 'done' }));
    expect(done.status).toBe('done');
    const last = done.history.at(-1)!;
    expect(last).toMatchObject({ action: 'set_status', from: 'review', to: 'done', skipped_review: true });
    expect(last.actor?.id).toBe(s.ws.member.id);
    expect(done.history.filter((h) => h.skipped_review)).toHaveLength(1);
  });

  test('an enforcing stage refuses a Member (Done, self as reviewer) and lets an Admin through', async () => {
    const s = await scene();
    const id = await reviewed(s);
    // Only Admins turn it on or off; repeating the current value is fine.
    const byMember = await patchStage(s.ws.member, s.stage, { enforce_review: true });
    expect(byMember.statusCode).toBe(403);
    expect(byMember.json()).toMatchObject({ rule: 'enforced_review' });
    expect(ok(await patchStage(s.ws.admin, s.stage, { enforce_review: true }))).toMatchObject({ enforce_review: true });
    expect(ok(await patchStage(s.ws.member, s.stage, { enforce_review: true, required_approvals: 1 }))).toMatchObject({
      enforce_review: true,
    });

    const seen = ok(await as(t, s.ws.member)('GET', `/api/tasks/${id}/`));
    expect(seen.abilities.statuses).not.toContain('done');
    expect(seen.abilities.statuses).toContain('edit');
    expect(seen.abilities.self_reviewer).toBe(false);
    expect(ok(await as(t, s.ws.admin)('GET', `/api/tasks/${id}/`)).abilities).toMatchObject({ self_reviewer: true });

    const refused = await t.app.inject({
      method: 'PATCH',
      url: `/api/tasks/${id}/`,
      payload: { status: 'done' },
      headers: { ...s.ws.member.headers, 'accept-language': 'ru' },
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({
      rule: 'enforced_review',
      detail: 'Этот этап требует проверки: перевести задачу в «Готово» без неё могут только администраторы.',
    });
    const self = await patchTask(s.ws.member, id, { reviewers: [s.lead1.id, s.ws.member.id] });
    expect(self.statusCode).toBe(403);
    expect(self.json()).toMatchObject({
      rule: 'enforced_review',
      detail:
        'This stage enforces its review: only Admins can make themselves a reviewer of a task they are assigned to.',
    });
    const unchanged = ok(await as(t, s.ws.member)('GET', `/api/tasks/${id}/`));
    expect(unchanged).toMatchObject({ status: 'review', reviewers: [{ id: s.lead1.id }] });

    const admin = ok(await patchTask(s.ws.admin, id, { status: 'done' }));
    expect(admin.status).toBe('done');
    expect(admin.history.at(-1)).toMatchObject({ action: 'set_status', to: 'done', skipped_review: true });
    expect(admin.history.at(-1)!.actor?.id).toBe(s.ws.admin.id);
    // Other statuses stay open to Members (the spec lets them change any status).
    expect(ok(await patchTask(s.ws.member, id, { status: 'edit' })).status).toBe('edit');
  });
});
