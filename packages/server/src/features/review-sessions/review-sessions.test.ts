// One file for the feature's HTTP journeys (sessions, decisions, links, clients, drawings): they share one built scene, which is most of its time.
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import type { TTask } from '@stageline/shared';
import type {
  TClientAccess,
  TClientFeedback,
  TClientSession,
  TReviewLinkCreated,
  TReviewSession,
} from '@stageline/shared/review-sessions';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { relaxedLimits } from '../../../test/accounts';
import { attach } from '../../../test/files';
import { buildTestApp, type TestApp } from '../../../test/helpers';
import { act, buildFlow, buildUnit, ok, taskAt } from '../../../test/units';
import { as, buildTeam, type Team } from '../../../test/workspaces';
import { schema } from '../../db';

/** Review sessions, decisions from them, client links and what clients say (docs/review-sessions.md), through HTTP. */

let t: TestApp;
const routes = new Set<string>();
beforeAll(async () => {
  t = await buildTestApp({
    authLimits: relaxedLimits,
    clientLimits: { perIp: { max: 100_000, windowSeconds: 60 }, openPerIp: { max: 100_000, windowSeconds: 60 } },
    onRoute: (route) => {
      for (const method of [route.method].flat()) routes.add(`${method} ${route.url}`);
    },
  });
});
afterAll(async () => {
  await t?.close();
});

const png = () =>
  sharp({ create: { width: 16, height: 16, channels: 3, background: { r: 200, g: 40, b: 90 } } })
    .png()
    .toBuffer();

/**
 * A team and a flow Comp → Lighting (the admin reviews both, the member works), three units whose
 * Lighting tasks are in review through the real engine, each with a render of round 1; one of them
 * also has a render attached before its submit of a second round would open (round 1 stays latest).
 */
async function scene() {
  const team = await buildTeam(t);
  const flow = await buildFlow(t, {
    workspace: team.workspace,
    stages: [
      { name: 'Comp', assignees: [team.member], reviewers: [team.admin] },
      { name: 'Lighting', assignees: [team.member], reviewers: [team.admin, team.guest] },
    ],
    edges: [
      ['root', 0],
      [0, 1],
      [1, 'end'],
    ],
  });
  const lighting: number[] = [];
  const comp: number[] = [];
  for (const name of ['Shot 10', 'Shot 2', 'Shot 3']) {
    const unit = await buildUnit(t, team.member, flow, name);
    const [c, l] = [taskAt(unit, flow, 0), taskAt(unit, flow, 1)];
    ok(await act(t, team.member, c, 'start'));
    ok(await act(t, team.member, c, 'submit'));
    ok(await act(t, team.admin, c, 'accept'));
    ok(await act(t, team.member, l, 'start'));
    await attach(t, team.member, { task: l }, { name: `${name}.png`, type: 'image/png', data: await png() });
    ok(await act(t, team.member, l, 'submit'));
    comp.push(c);
    lighting.push(l);
  }
  return { team, flow, lighting, comp };
}

type Scene = Awaited<ReturnType<typeof scene>>;

const create = (user: Team['admin'] | null, body: object) => as(t, user)('POST', '/api/review_sessions/', body);
const session = (response: { statusCode: number; body: string; json: <T>() => T }, status = 200) => {
  expect(response.statusCode, response.body).toBe(status);
  return response.json<TReviewSession>();
};
const fromStage = (s: Scene, user = s.team.admin) =>
  create(user, {
    project: s.flow.project.id,
    name: 'Lighting dailies',
    source: { kind: 'stage', stage: s.flow.stages[1], status: 'review' },
  });

let s: Scene;
beforeAll(async () => {
  s = await scene();
});

describe('review sessions', () => {
  test('built from a stage in review: items by unit name, each with its latest round of files', async () => {
    const built = session(await fromStage(s), 201);
    expect(built.name).toBe('Lighting dailies');
    expect(built.items.map((i) => i.task.unit.name)).toEqual(['Shot 2', 'Shot 3', 'Shot 10']);
    const first = built.items[0]!;
    expect(first.task).toMatchObject({ status: 'review', round: 1, stage: { name: 'Lighting' } });
    expect(first.files_round).toBe(1);
    expect(first.files.map((f) => f.name)).toEqual(['Shot 2.png']);
    expect(first.files[0]!.content_url).toMatch(/^\/api\/attachments\/\d+\/content\/\?token=/);
    expect(built.abilities).toEqual({ update: true, delete: true, share: true });
  });

  test('built from picked tasks in their order, or from a saved view; listed; bad sources refused', async () => {
    const picked = session(
      await create(s.team.member, {
        project: s.flow.project.id,
        name: 'Picked',
        source: { kind: 'tasks', tasks: [s.lighting[2], s.comp[0], s.lighting[2]] },
      }),
      201,
    );
    expect(picked.items.map((i) => i.task.id)).toEqual([s.lighting[2], s.comp[0]]);

    const view = await as(t, s.team.member)('POST', '/api/views/', {
      project: s.flow.project.id,
      name: 'Comp done',
      filters: { stage: String(s.flow.stages[0]), status: 'done' },
    });
    expect(view.statusCode, view.body).toBe(201);
    const fromView = session(
      await create(s.team.member, {
        project: s.flow.project.id,
        name: 'From a view',
        source: { kind: 'view', view: view.json<{ id: number }>().id },
      }),
      201,
    );
    expect(fromView.items.map((i) => i.task.id).sort()).toEqual([...s.comp].sort());

    const list = await as(t, s.team.guest)('GET', `/api/review_sessions/?project=${s.flow.project.id}`);
    expect(list.statusCode).toBe(200);
    expect(list.json<{ results: { name: string }[] }>().results.map((r) => r.name)).toContain('Picked');

    const other = await buildFlow(t, { workspace: s.team.workspace, stages: [{}] });
    const foreign = taskAt(await buildUnit(t, s.team.member, other), other, 0);
    const count = async () => (await t.database.db.select().from(schema.reviewSessions)).length;
    const before = await count();
    for (const source of [
      { kind: 'tasks', tasks: [s.lighting[0], foreign] },
      { kind: 'tasks', tasks: [] },
      { kind: 'stage', stage: other.stages[0] },
      { kind: 'view', view: 2147483647 },
      { kind: 'playlist' },
    ]) {
      const refused = await create(s.team.member, { project: s.flow.project.id, name: 'Bad', source });
      expect(refused.statusCode, JSON.stringify(source)).toBe(400);
      expect(Object.keys(refused.json<Record<string, string[]>>()).join()).toMatch(/source/);
    }
    const empty = await create(s.team.member, {
      project: s.flow.project.id,
      name: 'Nothing',
      source: { kind: 'stage', stage: s.flow.stages[1], status: 'edit' },
    });
    expect(empty.json<Record<string, string[]>>().source).toEqual([
      'None of these tasks can be added: they are not tasks of this project.',
    ]);
    const unnamed = await create(s.team.member, {
      project: s.flow.project.id,
      name: '  ',
      source: { kind: 'tasks', tasks: [s.comp[0]] },
    });
    expect(unnamed.json<Record<string, string[]>>().name).toEqual(['Give the session a name.']);
    expect(await count()).toBe(before);

    expect((await fromStage(s, s.team.guest)).statusCode).toBe(403);
    expect((await fromStage(s, s.team.outsider)).statusCode).toBe(404);
    expect((await create(null, {})).statusCode).toBe(401);
  });

  test('reordered by the full list of items; a partial order is refused naming `order`', async () => {
    const built = session(await fromStage(s), 201);
    const ids = built.items.map((i) => i.id);
    const reordered = session(
      await as(t, s.team.member)('PATCH', `/api/review_sessions/${built.id}/`, { order: [...ids].reverse() }),
    );
    expect(reordered.items.map((i) => i.id)).toEqual([...ids].reverse());
    const partial = await as(t, s.team.member)('PATCH', `/api/review_sessions/${built.id}/`, { order: ids.slice(1) });
    expect(partial.statusCode).toBe(400);
    expect(partial.json<Record<string, string[]>>().order).toEqual([
      'The order must list every item of the session once.',
    ]);
    expect((await as(t, s.team.guest)('PATCH', `/api/review_sessions/${built.id}/`, { name: 'x' })).statusCode).toBe(
      403,
    );
    expect((await as(t, s.team.outsider)('GET', `/api/review_sessions/${built.id}/`)).statusCode).toBe(404);
  });
});

describe('deciding from a session', () => {
  test('accept and leave, reject back to Comp and stay; an item no longer there stores nothing', async () => {
    const fresh = await scene();
    const built = session(await fromStage(fresh), 201);
    const [first, second, third] = built.items;
    const decide = (item: number, body: object, user = fresh.team.admin, lang = 'en') =>
      t.app.inject({
        method: 'POST',
        url: `/api/review_sessions/${built.id}/items/${item}/decide/`,
        payload: body,
        headers: { ...user.headers, 'accept-language': lang },
      });
    // The admin accepts: Lighting has two reviewers each_immediate, so the round waits for the guest.
    const afterAccept = session(await decide(first!.id, { verdict: 'accept', keep: false }));
    expect(afterAccept.items.map((i) => i.id)).toEqual([second!.id, third!.id]);
    const task = await as(t, fresh.team.admin)('GET', `/api/tasks/${first!.task.id}/`);
    expect(task.json<TTask>().iteration?.accepted_by).toContain(fresh.team.admin.id);

    const afterReject = session(
      await decide(second!.id, { verdict: 'reject', comment: 'Too dark', return_to: [fresh.flow.stages[0]] }),
    );
    expect(afterReject.items.map((i) => i.id)).toEqual([second!.id, third!.id]);
    expect(afterReject.items[0]!.task.status).toBe('todo'); // waits for Comp, sent back
    const comp = fresh.comp[fresh.lighting.indexOf(second!.task.id)]!;
    expect((await as(t, fresh.team.admin)('GET', `/api/tasks/${comp}/`)).json<TTask>().status).toBe('edit');

    // The task's own rules: the member is the assignee (no self-review).
    expect((await decide(third!.id, { verdict: 'accept' }, fresh.team.member)).statusCode).toBe(403);
    // Malformed decisions.
    expect((await decide(third!.id, { verdict: 'maybe' })).json<Record<string, string[]>>().verdict).toBeDefined();
    // An item that left: a clear, translated 404, and the task keeps its round untouched.
    const gone = await decide(first!.id, { verdict: 'reject' });
    expect(gone.statusCode).toBe(404);
    expect(gone.json<{ detail: string }>().detail).toBe('This item is no longer in the session. Reload it.');
    const russian = await decide(first!.id, { verdict: 'reject' }, fresh.team.admin, 'ru');
    expect(russian.json<{ detail: string }>().detail).toMatch(/[а-я]/);
    const untouched = await as(t, fresh.team.admin)('GET', `/api/tasks/${first!.task.id}/`);
    expect(untouched.json<TTask>().status).toBe('review');
  });
});

describe('client links', () => {
  let built: TReviewSession;
  beforeAll(async () => {
    built = session(await fromStage(s), 201);
  });

  const makeLink = (user: Team['admin'], body: object = {}) =>
    as(t, user)('POST', `/api/review_sessions/${built.id}/links/`, body);
  const client = (method: 'GET' | 'POST', url: string, access?: string, payload?: object) =>
    t.app.inject({ method, url, payload, headers: access ? { 'x-review-access': access } : {} });
  const open = async (token: string, password?: string) => {
    const response = await client('POST', `/api/client/${token}/open/`, undefined, password ? { password } : {});
    expect(response.statusCode, response.body).toBe(200);
    return response.json<TClientAccess>().access;
  };

  test('Admins share; Members only where the workspace allows it; links are listed and revocable', async () => {
    expect((await makeLink(s.team.member)).statusCode).toBe(403);
    expect((await makeLink(s.team.outsider)).statusCode).toBe(404);
    const allow = await as(t, s.team.admin)('PATCH', `/api/workspaces/${s.team.workspace.id}/`, {
      members_share_reviews: true,
    });
    expect(allow.json<{ members_share_reviews: boolean }>().members_share_reviews).toBe(true);
    const byMember = await makeLink(s.team.member, { days: 3 });
    expect(byMember.statusCode, byMember.body).toBe(201);
    await as(t, s.team.admin)('PATCH', `/api/workspaces/${s.team.workspace.id}/`, { members_share_reviews: false });
    expect((await makeLink(s.team.guest)).statusCode).toBe(403);
    const link = byMember.json<TReviewLinkCreated>();
    expect(link.path).toBe(`/review/${link.token}`);
    const [row] = await t.database.db.select().from(schema.reviewLinks).where(eq(schema.reviewLinks.id, link.id));
    expect(row!.tokenHash).not.toContain(link.token);

    const listed = await as(t, s.team.admin)('GET', `/api/review_sessions/${built.id}/links/`);
    expect(listed.json<{ results: { id: number; active: boolean }[] }>().results).toContainEqual(
      expect.objectContaining({ id: link.id, active: true }),
    );
    expect(listed.body).not.toContain(link.token);
    const revoked = await as(t, s.team.admin)('POST', `/api/review_links/${link.id}/revoke/`);
    expect(revoked.json<{ active: boolean }>().active).toBe(false);
    const refused = await client('GET', `/api/client/${link.token}/`);
    expect(refused.statusCode).toBe(403);
    expect(refused.json<{ detail: string }>().detail).toBe('This review link was withdrawn. Ask for a new one.');
    expect((await client('POST', `/api/client/${link.token}/open/`)).statusCode).toBe(403);
    for (const bad of [{ days: 0 }, { days: 91 }, { password: 'short' }, { may_decide: 'yes' }]) {
      expect((await makeLink(s.team.admin, bad)).statusCode, JSON.stringify(bad)).toBe(400);
    }
  });

  test('a client sees only the session’s items and files, with no member names, and decides per item', async () => {
    const link = (await makeLink(s.team.admin, { may_comment: true, may_decide: true })).json<TReviewLinkCreated>();
    expect((await client('GET', `/api/client/${link.token}/`)).json()).toMatchObject({ needs_password: false });
    expect((await client('GET', `/api/client/${link.token}/session/`)).statusCode).toBe(401);
    const access = await open(link.token);
    const seen = await client('GET', `/api/client/${link.token}/session/`, access);
    expect(seen.statusCode, seen.body).toBe(200);
    const shared = seen.json<TClientSession>();
    expect(shared.items.map((i) => i.unit)).toEqual(['Shot 2', 'Shot 3', 'Shot 10']);
    for (const user of [s.team.admin, s.team.member, s.team.guest, s.team.owner])
      expect(seen.body).not.toContain(user.username);
    const file = shared.items[0]!.files[0]!;
    const bytes = await t.app.inject({ method: 'GET', url: file.content_url });
    expect(bytes.statusCode).toBe(200);
    expect(bytes.headers['content-type']).toBe('image/png');
    expect(bytes.headers['content-security-policy']).toContain('sandbox');
    // A file of the workspace outside the session answers 404, as does the URL without the access token.
    const outside = await attach(t, s.team.member, { task: s.comp[0]! }, { name: 'x.png', data: await png() });
    expect((await client('GET', `/api/client/${link.token}/files/${outside.id}/content/`, access)).statusCode).toBe(
      404,
    );
    expect((await t.app.inject({ method: 'GET', url: file.content_url.split('?')[0]! })).statusCode).toBe(401);

    const say = (item: number, body: object, with_ = access) =>
      client('POST', `/api/client/${link.token}/items/${item}/feedback/`, with_, body);
    const approve = await say(shared.items[0]!.id, { name: 'Dana (client)', kind: 'approve' });
    expect(approve.statusCode, approve.body).toBe(201);
    const changes = await say(shared.items[1]!.id, { name: 'Dana (client)', kind: 'changes', text: 'Warmer sky' });
    expect(changes.statusCode).toBe(201);
    for (const bad of [
      { name: '', kind: 'approve' },
      { name: 'Dana', kind: 'maybe' },
      { name: 'Dana', kind: 'comment' },
    ]) {
      const refused = await say(shared.items[2]!.id, bad);
      expect(refused.statusCode, JSON.stringify(bad)).toBe(400);
    }

    // The team sees the client decisions on the tasks and in the session.
    const onTask = await as(t, s.team.guest)('GET', `/api/tasks/${built.items[1]!.task.id}/client_feedback/`);
    expect(onTask.json<{ results: TClientFeedback[] }>().results[0]).toMatchObject({
      kind: 'changes',
      name: 'Dana (client)',
      text: 'Warmer sky',
      round: 1,
      session: { id: built.id },
    });
    expect(
      (await as(t, s.team.outsider)('GET', `/api/tasks/${built.items[1]!.task.id}/client_feedback/`)).statusCode,
    ).toBe(404);
    const again = session(await as(t, s.team.admin)('GET', `/api/review_sessions/${built.id}/`));
    expect(again.items[0]!.client_feedback[0]).toMatchObject({ kind: 'approve' });

    // An item taken out of the session: a clear 404, nothing stored.
    const count = async () => (await t.database.db.select().from(schema.clientFeedback)).length;
    const before = await count();
    session(await as(t, s.team.admin)('DELETE', `/api/review_sessions/${built.id}/items/${built.items[2]!.id}/`));
    const gone = await say(built.items[2]!.id, { name: 'Dana', kind: 'approve' });
    expect(gone.statusCode).toBe(404);
    expect(gone.json<{ detail: string }>().detail).toBe('This item is no longer in the session. Reload it.');
    expect(await count()).toBe(before);
  });

  test('a link that only shows: no comments, no decisions; past its expiry it stops opening', async () => {
    const link = (await makeLink(s.team.admin, { may_comment: false })).json<TReviewLinkCreated>();
    const access = await open(link.token);
    const item = built.items[0]!.id;
    const url = `/api/client/${link.token}/items/${item}/feedback/`;
    const comment = await client('POST', url, access, { name: 'Ann', kind: 'comment', text: 'Hi' });
    expect(comment.json<{ detail: string }>().detail).toBe('This link does not take comments.');
    expect((await client('POST', url, access, { name: 'Ann', kind: 'approve' })).statusCode).toBe(403);
    await t.database.db
      .update(schema.reviewLinks)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(schema.reviewLinks.id, link.id));
    const expired = await client('GET', `/api/client/${link.token}/session/`, access);
    expect(expired.statusCode).toBe(403);
    expect(expired.json<{ detail: string }>().detail).toBe('This review link has expired. Ask for a new one.');
    expect((await client('GET', '/api/client/not-a-real-token/')).statusCode).toBe(404);
    // An access token of one link does not open another.
    const other = (await makeLink(s.team.admin)).json<TReviewLinkCreated>();
    expect((await client('GET', `/api/client/${other.token}/session/`, access)).statusCode).toBe(401);
  });

  test('a password is hashed, wrong ones are counted, and the link locks after five', async () => {
    const link = (await makeLink(s.team.admin, { password: 'moonlight sonata' })).json<TReviewLinkCreated>();
    const [row] = await t.database.db.select().from(schema.reviewLinks).where(eq(schema.reviewLinks.id, link.id));
    expect(row!.passwordHash).toMatch(/^\$argon2id\$/);
    expect((await client('GET', `/api/client/${link.token}/`)).json()).toMatchObject({ needs_password: true });
    const tryWith = (password?: string) =>
      client('POST', `/api/client/${link.token}/open/`, undefined, password === undefined ? {} : { password });
    expect((await tryWith()).json<Record<string, string[]>>().password).toEqual(['Enter the password of this link.']);
    for (let i = 0; i < 4; i++) {
      const wrong = await tryWith('wrong password');
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json<Record<string, string[]>>().password).toEqual(['Wrong password.']);
    }
    const fifth = await tryWith('wrong again');
    expect(fifth.statusCode).toBe(429);
    expect(fifth.json<{ detail: string }>().detail).toBe(
      'Too many wrong passwords: the link is locked for 15 minutes.',
    );
    expect(fifth.headers['retry-after']).toBeDefined();
    expect((await tryWith('moonlight sonata')).statusCode).toBe(429);
    // Once the window passes, the right password opens it.
    await t.database.db.delete(schema.rateLimits).where(eq(schema.rateLimits.key, `review-link-password:${link.id}`));
    expect(await open(link.token, 'moonlight sonata')).toMatch(/\./);
  });

  test('the link’s token and its access token open no other route of the API', async () => {
    const link = (await makeLink(s.team.admin, { may_decide: true })).json<TReviewLinkCreated>();
    const access = await open(link.token);
    const others = [...routes].filter(
      (route) => !route.includes('/api/client/') && route.split(' ')[1]!.startsWith('/api/'),
    );
    expect(others.length).toBeGreaterThan(100);
    const failures: string[] = [];
    for (const route of others) {
      const [method, path] = route.split(' ') as [string, string];
      if (method === 'HEAD' || path === '/api/events/') continue;
      const url = path.replace(/:[a-zA-Z]+/g, link.token).replace('*', link.token);
      const call = (headers: Record<string, string>, query: string) =>
        t.app.inject({ method: method as 'GET', url: `${url}${query}`, headers });
      const signedOut = await call({}, '');
      for (const [headers, query] of [
        [{ authorization: `Bearer ${link.token}` }, ''],
        [{ authorization: `Bearer ${access}` }, ''],
        [{ 'x-review-access': access }, `?token=${link.token}&access=${access}`],
        [{}, `?token=${access}`],
      ] as const) {
        const answer = await call(headers, query);
        const allowed = signedOut.statusCode === 401 ? [401, 404] : [signedOut.statusCode];
        if (!allowed.includes(answer.statusCode))
          failures.push(
            `${route} ${JSON.stringify(headers)}${query} → ${answer.statusCode} (signed out ${signedOut.statusCode})`,
          );
      }
    }
    expect(failures).toEqual([]);
  });
});

describe('drawings on frames', () => {
  test('the comment’s author draws on a frame of the task’s file; bad drawings store nothing', async () => {
    const task = s.lighting[0]!;
    const [file] = (await as(t, s.team.member)('GET', `/api/attachments/?task=${task}`)).json<{
      results: { id: number; round: number }[];
    }>().results;
    const comment = await as(t, s.team.admin)('POST', '/api/comments/', { task, text: 'See the sky' });
    expect(comment.statusCode, comment.body).toBe(201);
    const commentId = comment.json<{ id: number }>().id;
    const shapes = [
      {
        tool: 'pen',
        points: [
          [0.1, 0.1],
          [0.2, 0.25],
          [0.3, 0.2],
        ],
        color: '#ff3366',
        width: 3,
      },
      { tool: 'arrow', from: [0.5, 0.5], to: [0.7, 0.4], color: '#00aaff', width: 2 },
      { tool: 'ellipse', from: [0.1, 0.6], to: [0.3, 0.9], color: '#ffcc00', width: 2 },
      { tool: 'text', at: [0.6, 0.8], text: 'warmer', color: '#ffffff', width: 1 },
    ];
    const draw = (user: Team['admin'], body: object) => as(t, user)('POST', '/api/drawings/', body);
    const made = await draw(s.team.admin, { comment: commentId, file: file!.id, time: 0.5, shapes });
    expect(made.statusCode, made.body).toBe(201);
    expect(made.json()).toMatchObject({ comment: commentId, file: file!.id, round: file!.round, time: 0.5, frame: 12 });
    const listed = await as(t, s.team.guest)('GET', `/api/drawings/?task=${task}`);
    expect(listed.json<{ results: { shapes: unknown[] }[] }>().results[0]!.shapes).toEqual(shapes);
    expect((await as(t, s.team.outsider)('GET', `/api/drawings/?task=${task}`)).statusCode).toBe(404);

    const count = async () => (await t.database.db.select().from(schema.drawings)).length;
    const before = await count();
    expect((await draw(s.team.guest, { comment: commentId, file: file!.id, shapes })).statusCode).toBe(403);
    const otherFile = (await as(t, s.team.member)('GET', `/api/attachments/?task=${s.lighting[1]}`)).json<{
      results: { id: number }[];
    }>().results[0]!;
    const wrong = await draw(s.team.admin, { comment: commentId, file: otherFile.id, shapes });
    expect(wrong.json<Record<string, string[]>>().file).toEqual(['Draw on a file of the comment’s task.']);
    const huge = Array.from({ length: 100_000 }, (_, i) => [(i % 1000) / 1000, 0.5]);
    const tooMany = await draw(s.team.admin, {
      comment: commentId,
      file: file!.id,
      shapes: [{ tool: 'pen', points: huge, color: '#ff0000', width: 2 }],
    });
    expect(tooMany.statusCode).toBe(400);
    expect(JSON.stringify(tooMany.json())).toMatch(/10000/);
    for (const bad of [
      [{ tool: 'laser', from: [0, 0], to: [1, 1], color: '#ff0000', width: 2 }],
      [{ tool: 'rect', from: [0, 0], to: [2, 1], color: '#ff0000', width: 2 }],
      [{ tool: 'rect', from: [0, 0], to: [1, 1], color: 'red', width: 2 }],
      [{ tool: 'text', at: [0, 0], text: ' ', color: '#ff0000', width: 2 }],
      [],
      'shapes',
    ]) {
      const refused = await draw(s.team.admin, { comment: commentId, file: file!.id, shapes: bad });
      expect(refused.statusCode, JSON.stringify(bad)).toBe(400);
    }
    expect(await count()).toBe(before);
  });
});
