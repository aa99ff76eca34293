import { Limits, type TComment, type TCommentList } from '@stageline/shared';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { relaxedLimits } from '../../../test/accounts';
import { buildTestApp, type TestApp } from '../../../test/helpers';
import { buildComment, notificationsOf } from '../../../test/live';
import { buildFlow, buildUnit, taskAt } from '../../../test/units';
import { as, buildTeam, type Team } from '../../../test/workspaces';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ authLimits: relaxedLimits });
});
afterAll(async () => {
  await t?.close();
});

/** A team and a one-stage flow whose stage has the member as assignee and the guest as reviewer. */
async function scene(team?: Team) {
  team ??= await buildTeam(t);
  const flow = await buildFlow(t, {
    workspace: team.workspace,
    stages: [{ assignees: [team.member], reviewers: [team.guest] }, {}],
    edges: [
      ['root', 0],
      [0, 1],
      [1, 'end'],
    ],
  });
  const unit = await buildUnit(t, team.member, flow);
  return { team, flow, unit, task: taskAt(unit, flow, 0), otherTask: taskAt(unit, flow, 1) };
}

describe('comments', () => {
  test('a guest comments; members read oldest first, paginated; outsiders 404, signed out 401', async () => {
    const { team, task } = await scene();
    const first = await buildComment(t, team.guest, { task }, 'First **bold**');
    expect(first).toMatchObject({
      task,
      unit: null,
      author: { id: team.guest.id, username: team.guest.username },
      text: 'First **bold**',
      mentions: [],
      edited_at: null,
    });
    const second = await buildComment(t, team.member, { task }, 'Second <script>alert(1)</script>');
    expect(second.text).toBe('Second <script>alert(1)</script>');

    const page = await as(t, team.admin)('GET', `/api/comments/?task=${task}&limit=1`);
    expect(page.statusCode).toBe(200);
    expect(page.json<TCommentList>()).toMatchObject({ count: 2, next: 1, results: [{ id: first.id }] });
    const rest = await as(t, team.guest)('GET', `/api/comments/?task=${task}&offset=1`);
    expect(rest.json<TCommentList>()).toMatchObject({ count: 2, next: null, results: [{ id: second.id }] });

    expect((await as(t, team.outsider)('GET', `/api/comments/?task=${task}`)).statusCode).toBe(404);
    expect((await as(t, team.outsider)('POST', '/api/comments/', { task, text: 'Hi' })).statusCode).toBe(404);
    expect((await as(t, null)('POST', '/api/comments/', { task, text: 'Hi' })).statusCode).toBe(401);
    expect((await as(t, team.member)('POST', '/api/comments/', { task: 2147483647, text: 'Hi' })).statusCode).toBe(404);
  });

  test('bounds: one target, a text of 1–20,000 characters', async () => {
    const { team, task, unit } = await scene();
    const post = as(t, team.member);
    expect((await post('POST', '/api/comments/', { task, unit: unit.id, text: 'x' })).statusCode).toBe(400);
    const neither = await t.app.inject({
      method: 'POST',
      url: '/api/comments/',
      payload: { text: 'x' },
      headers: { ...team.member.headers, 'accept-language': 'ru' },
    });
    expect(neither.statusCode).toBe(400);
    expect(neither.json()).toEqual({ task: ['Комментарий относится к задаче или к юниту'] });
    expect((await post('POST', '/api/comments/', { task, text: '   ' })).statusCode).toBe(400);
    expect((await post('POST', '/api/comments/', { task, text: 'x'.repeat(Limits.comment.max + 1) })).statusCode).toBe(
      400,
    );
    expect((await post('POST', '/api/comments/', { task, text: 'x'.repeat(Limits.comment.max) })).statusCode).toBe(201);
    expect((await post('GET', `/api/comments/?task=${task}&unit=${unit.id}`)).statusCode).toBe(400);
    expect((await post('GET', '/api/comments/')).statusCode).toBe(400);
  });

  test('the author edits (edited_at); others cannot; the author or an admin deletes', async () => {
    const { team, task } = await scene();
    const mine = await buildComment(t, team.guest, { task }, 'Typo hre');
    expect((await as(t, team.member)('PATCH', `/api/comments/${mine.id}/`, { text: 'Hacked' })).statusCode).toBe(403);
    expect((await as(t, team.owner)('PATCH', `/api/comments/${mine.id}/`, { text: 'Hacked' })).statusCode).toBe(403);
    expect((await as(t, team.outsider)('PATCH', `/api/comments/${mine.id}/`, { text: 'Hacked' })).statusCode).toBe(404);
    const edited = await as(t, team.guest)('PATCH', `/api/comments/${mine.id}/`, { text: 'Typo here' });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json<TComment>()).toMatchObject({ id: mine.id, text: 'Typo here' });
    expect(edited.json<TComment>().edited_at).not.toBeNull();

    expect((await as(t, team.member)('DELETE', `/api/comments/${mine.id}/`)).statusCode).toBe(403);
    expect((await as(t, team.outsider)('DELETE', `/api/comments/${mine.id}/`)).statusCode).toBe(404);
    expect((await as(t, team.admin)('DELETE', `/api/comments/${mine.id}/`)).statusCode).toBe(204);
    expect((await as(t, team.admin)('DELETE', `/api/comments/${mine.id}/`)).statusCode).toBe(404);

    const own = await buildComment(t, team.member, { task });
    expect((await as(t, team.guest)('DELETE', `/api/comments/${own.id}/`)).statusCode).toBe(403);
    expect((await as(t, team.member)('DELETE', `/api/comments/${own.id}/`)).statusCode).toBe(204);
    const list = await as(t, team.member)('GET', `/api/comments/?task=${task}`);
    expect(list.json<TCommentList>().count).toBe(0);
  });

  test('comments on units', async () => {
    const { team, unit } = await scene();
    const comment = await buildComment(t, team.guest, { unit: unit.id }, 'On the unit');
    expect(comment).toMatchObject({ unit: unit.id, task: null });
    const list = await as(t, team.guest)('GET', `/api/comments/?unit=${unit.id}`);
    expect(list.json<TCommentList>().results.map((c) => c.id)).toEqual([comment.id]);
    expect((await as(t, team.outsider)('GET', `/api/comments/?unit=${unit.id}`)).statusCode).toBe(404);
  });

  test('mentions resolve case-insensitively to members only; non-members and unknown names are ignored', async () => {
    const { team, task } = await scene();
    const text = `@${team.admin.username.toUpperCase()} look, and @${team.outsider.username}, @nobody_here, mail a@${team.owner.username}.com, \`@${team.owner.username}\``;
    const comment = await buildComment(t, team.member, { task }, text);
    expect(comment.mentions.map((m) => m.id)).toEqual([team.admin.id]);

    const admin = await notificationsOf(t, team.admin);
    expect(admin.results.filter((n) => n.comment === comment.id).map((n) => n.kind)).toEqual(['mention']);
    expect((await notificationsOf(t, team.outsider)).count).toBe(0);
    expect((await notificationsOf(t, team.owner)).results.filter((n) => n.comment === comment.id)).toEqual([]);

    // An edit notifies only people newly mentioned.
    const edited = await as(t, team.member)('PATCH', `/api/comments/${comment.id}/`, {
      text: `${text} and @${team.owner.username}`,
    });
    expect(edited.json<TComment>().mentions.map((m) => m.id)).toEqual([team.admin.id, team.owner.id]);
    const owner = await notificationsOf(t, team.owner);
    expect(owner.results.filter((n) => n.comment === comment.id).map((n) => n.kind)).toEqual(['mention']);
    const adminAgain = await notificationsOf(t, team.admin);
    expect(adminAgain.results.filter((n) => n.comment === comment.id)).toHaveLength(1);
  });

  test('a comment notifies the assignees, reviewers and earlier commenters, never the author, mention first', async () => {
    const { team, task, otherTask, unit } = await scene();
    await buildComment(t, team.admin, { task }, 'Earlier');
    const long = `@${team.member.username} ${'word '.repeat(200)}`;
    const comment = await buildComment(t, team.owner, { task }, long);
    const about = async (user: { headers: { authorization: string } }) =>
      (await notificationsOf(t, user)).results.filter((n) => n.comment === comment.id);

    const member = await about(team.member);
    expect(member.map((n) => n.kind)).toEqual(['mention']);
    expect([...member[0]!.text].length).toBeLessThanOrEqual(300);
    expect(member[0]!.text.startsWith(`@${team.member.username} word`)).toBe(true);
    expect((await about(team.guest)).map((n) => n.kind)).toEqual(['comment']);
    expect((await about(team.admin)).map((n) => n.kind)).toEqual(['comment']);
    expect(await about(team.owner)).toEqual([]);
    expect((await about(team.guest))[0]).toMatchObject({
      actor: { id: team.owner.id, username: team.owner.username },
      task: { id: task, unit: unit.name, stage: 'Stage 1' },
      unit: { id: unit.id, name: unit.name },
      workspace: { id: team.workspace.id },
      read: false,
    });

    // A unit comment reaches the people of any of its tasks and earlier unit commenters.
    await buildComment(t, team.owner, { unit: unit.id }, 'Unit, first');
    const onUnit = await buildComment(t, team.admin, { unit: unit.id }, 'Unit, second');
    const unitKinds = async (user: { headers: { authorization: string } }) =>
      (await notificationsOf(t, user)).results.filter((n) => n.comment === onUnit.id).map((n) => n.kind);
    expect(await unitKinds(team.member)).toEqual(['comment']);
    expect(await unitKinds(team.guest)).toEqual(['comment']);
    expect(await unitKinds(team.owner)).toEqual(['comment']);
    expect(await unitKinds(team.admin)).toEqual([]);
    // The other task has nobody: a comment on it reaches only earlier commenters of that task.
    const lonely = await buildComment(t, team.guest, { task: otherTask }, 'Anyone?');
    for (const user of [team.member, team.admin, team.owner]) {
      expect((await notificationsOf(t, user)).results.filter((n) => n.comment === lonely.id)).toEqual([]);
    }
  });
});
