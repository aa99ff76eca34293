import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type {
  TGraphSave,
  TMatrixPage,
  TPipeline,
  TPipelineSummary,
  TTaskList,
  TUnit,
  TUnitList,
} from '@stageline/shared';
import { schema } from '../../db';
import { relaxedLimits } from '../../../test/accounts';
import { buildTestApp, type TestApp } from '../../../test/helpers';
import { act, buildFlow, buildUnit, ok, setStatus, taskAt } from '../../../test/units';
import { as, buildTeam } from '../../../test/workspaces';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ authLimits: relaxedLimits });
});
afterAll(async () => {
  await t?.close();
});

const chain = (n: number) =>
  Array.from({ length: n + 1 }, (_, i): [number | 'root', number | 'end'] => [
    i === 0 ? 'root' : i - 1,
    i === n ? 'end' : i,
  ]);

describe('units', () => {
  test('a unit comes with one task per stage (not start or end), in their initial status', async () => {
    const team = await buildTeam(t);
    const flow = await buildFlow(t, {
      workspace: team.workspace,
      stages: [{}, { todoEnabled: false }],
      edges: chain(2),
    });
    const unit = await buildUnit(t, team.member, flow, 'Shot 010');
    expect(unit).toMatchObject({
      name: 'Shot 010',
      project: flow.project.id,
      pipeline: flow.pipeline.id,
      description: '',
    });
    expect(unit.tasks.map((c) => [c.stage, c.status, c.ready])).toEqual([
      [flow.stages[0], 'todo', true],
      [flow.stages[1], 'in_progress', false],
    ]);
    const url = `/api/units/${unit.id}/`;
    expect((await as(t, team.guest)('GET', url)).json()).toEqual(unit);
    const patched = await as(t, team.member)('PATCH', url, { name: 'Shot 020', description: 'Wide' });
    expect(patched.json<TUnit>()).toMatchObject({ name: 'Shot 020', description: 'Wide' });
    expect((await as(t, team.guest)('PATCH', url, { name: 'x' })).statusCode).toBe(403);
    expect((await as(t, team.member)('DELETE', url)).statusCode).toBe(403);
    expect((await as(t, team.outsider)('GET', url)).statusCode).toBe(404);
    expect((await as(t, team.admin)('DELETE', url)).statusCode).toBe(204);
    expect((await as(t, team.admin)('GET', url)).statusCode).toBe(404);
    const left = await t.database.db.select().from(schema.tasks).where(eq(schema.tasks.unitId, unit.id));
    expect(left).toEqual([]);
  });

  test('guests cannot create; outsiders and a pipeline of another project get 404', async () => {
    const team = await buildTeam(t);
    const flow = await buildFlow(t, { workspace: team.workspace, stages: [{}] });
    const other = await buildFlow(t, { workspace: team.workspace, stages: [{}] });
    const body = { project: flow.project.id, pipeline: flow.pipeline.id, name: 'U' };
    expect((await as(t, team.guest)('POST', '/api/units/', body)).statusCode).toBe(403);
    expect((await as(t, team.outsider)('POST', '/api/units/', body)).statusCode).toBe(404);
    const mismatch = { ...body, pipeline: other.pipeline.id };
    expect((await as(t, team.member)('POST', '/api/units/', mismatch)).statusCode).toBe(404);
  });

  test('batch: 10,000 units with all their tasks in one call; names from the template', async () => {
    const team = await buildTeam(t);
    const flow = await buildFlow(t, { workspace: team.workspace, stages: [{}, {}, {}], edges: chain(3) });
    const [project] = await t.database.db
      .update(schema.projects)
      .set({ name: 'Film' })
      .where(eq(schema.projects.id, flow.project.id))
      .returning();
    const started = performance.now();
    const response = await as(t, team.member)('POST', '/api/units/batch/', {
      project: project!.id,
      pipeline: flow.pipeline.id,
      template: '{project} shot {count}',
      count: 10_000,
      start: 10,
      step: 10,
    });
    const ms = performance.now() - started;
    expect(response.statusCode, response.body.slice(0, 300)).toBe(201);
    const result = response.json<{ created: number; units: { id: number; name: string }[] }>();
    expect(result.created).toBe(10_000);
    expect(result.units[0]!.name).toBe('Film shot 10');
    expect(result.units.at(-1)!.name).toBe('Film shot 100000');
    const tasks = await t.database.db
      .select({ id: schema.tasks.id })
      .from(schema.tasks)
      .where(inArray(schema.tasks.stageId, flow.stages));
    expect(tasks).toHaveLength(30_000);
    // eslint-disable-next-line no-console -- the timing is the point of this test
    console.info(`batch of 10,000 units × 3 stages: ${Math.round(ms)} ms on ${t.database.kind}`);
    expect(ms).toBeLessThan(20_000);
  });

  test('batch validation: {count} required, count ≥ 1 and ≤ 10,000, step ≥ 1, names within bounds', async () => {
    const team = await buildTeam(t);
    const flow = await buildFlow(t, { workspace: team.workspace, stages: [{}] });
    const base = {
      project: flow.project.id,
      pipeline: flow.pipeline.id,
      template: 'S{count}',
      count: 2,
      start: 0,
      step: 1,
    };
    const post = (body: object) => as(t, team.member)('POST', '/api/units/batch/', { ...base, ...body });
    const noCount = await post({ template: 'Shot' });
    expect(noCount.statusCode).toBe(400);
    expect(noCount.json()).toEqual({ template: ['The template must contain {count}'] });
    expect(Object.keys((await post({ count: 0 })).json())).toEqual(['count']);
    expect(Object.keys((await post({ count: 10_001 })).json())).toEqual(['count']);
    expect(Object.keys((await post({ step: 0 })).json())).toEqual(['step']);
    expect(Object.keys((await post({ start: -1 })).json())).toEqual(['start']);
    const long = await post({ template: `${'x'.repeat(192)}{count}`, start: 1_000_000_000 });
    expect(long.json()).toEqual({ template: ['Names made from the template are longer than 200 characters.'] });
    expect((await as(t, team.guest)('POST', '/api/units/batch/', base)).statusCode).toBe(403);
    const ru = await t.app.inject({
      method: 'POST',
      url: '/api/units/batch/',
      headers: { ...team.member.headers, 'accept-language': 'ru' },
      payload: { ...base, template: 'x' },
    });
    expect(ru.json()).toEqual({ template: ['Шаблон должен содержать {count}'] });
  });

  test('batch: {count:03} pads the number with zeros, a longer number keeps its digits', async () => {
    const team = await buildTeam(t);
    const flow = await buildFlow(t, { workspace: team.workspace, stages: [{}] });
    const batch = (template: string, start: number) =>
      as(t, team.member)('POST', '/api/units/batch/', {
        project: flow.project.id,
        pipeline: flow.pipeline.id,
        template,
        count: 3,
        start,
        step: 10,
      });
    const padded = await batch('sh{count:03}', 10);
    expect(padded.statusCode, padded.body).toBe(201);
    expect(padded.json<{ units: { name: string }[] }>().units.map((unit) => unit.name)).toEqual([
      'sh010',
      'sh020',
      'sh030',
    ]);
    const wide = await batch('ep{count:02}', 990);
    expect(wide.json<{ units: { name: string }[] }>().units.map((unit) => unit.name)).toEqual([
      'ep990',
      'ep1000',
      'ep1010',
    ]);
    const zeroWidth = await batch('sh{count:00}', 10);
    expect(zeroWidth.json()).toEqual({ template: ['The template must contain {count}'] });
  });

  test('list: paginated by name, search; a project the caller cannot see is 404', async () => {
    const team = await buildTeam(t);
    const flow = await buildFlow(t, { workspace: team.workspace, stages: [{}] });
    await as(t, team.member)('POST', '/api/units/batch/', {
      project: flow.project.id,
      pipeline: flow.pipeline.id,
      template: 'Shot {count}',
      count: 5,
      start: 1,
      step: 1,
    });
    const page = (await as(t, team.guest)('GET', `/api/units/?project=${flow.project.id}&limit=2`)).json<TUnitList>();
    expect(page).toMatchObject({ count: 5, next: 2 });
    expect(page.results.map((u) => u.name)).toEqual(['Shot 1', 'Shot 2']);
    const last = (
      await as(t, team.guest)('GET', `/api/units/?pipeline=${flow.pipeline.id}&offset=4`)
    ).json<TUnitList>();
    expect(last).toMatchObject({ count: 5, next: null });
    const found = (
      await as(t, team.guest)('GET', `/api/units/?project=${flow.project.id}&search=t%203`)
    ).json<TUnitList>();
    expect(found.results.map((u) => u.name)).toEqual(['Shot 3']);
    expect((await as(t, team.outsider)('GET', `/api/units/?project=${flow.project.id}`)).statusCode).toBe(404);
  });
});

describe('matrix', () => {
  test('columns come in flow order (depth from the start, ties by id), not by stage id', async () => {
    const team = await buildTeam(t);
    // Created as s0, s1, s2, s3; drawn as start → s2 → s1 → s0 → end, with s3 fed by the start too.
    const flow = await buildFlow(t, {
      workspace: team.workspace,
      stages: [{}, {}, {}, {}],
      edges: [
        ['root', 2],
        [2, 1],
        [1, 0],
        [0, 'end'],
        ['root', 3],
        [3, 'end'],
      ],
    });
    await buildUnit(t, team.member, flow, 'Shot');
    const [s0, s1, s2, s3] = flow.stages as [number, number, number, number];
    const page = (
      await as(t, team.guest)('GET', `/api/units/matrix/?pipeline=${flow.pipeline.id}`)
    ).json<TMatrixPage>();
    expect(page.stages.map((s) => s.id)).toEqual([s2, s3, s1, s0]);
    // Each row's cells are keyed by stage, so the order of columns is the header's.
    expect(new Set(page.rows[0]!.tasks.map((c) => c.stage))).toEqual(new Set([s0, s1, s2, s3]));
  });

  test('pages, sorts and filters by status, assignee (effective) and overdue', async () => {
    const team = await buildTeam(t);
    const flow = await buildFlow(t, {
      workspace: team.workspace,
      stages: [{ assignees: [team.guest] }, {}],
      edges: chain(2),
    });
    const units: TUnit[] = [];
    for (const name of ['A', 'B', 'C', 'D']) units.push(await buildUnit(t, team.member, flow, name));
    const [, b, c, d] = units as [TUnit, TUnit, TUnit, TUnit];
    await setStatus(t, [taskAt(b, flow, 1)], 'review');
    // C's first task gets its own assignee (the member), so the guest is not its effective assignee.
    await as(t, team.member)('PATCH', `/api/tasks/${taskAt(c, flow, 0)}/`, { assignees: [team.member.id] });
    await as(t, team.member)('PATCH', `/api/tasks/${taskAt(d, flow, 1)}/`, { due_date: '2000-01-01T00:00:00.000Z' });
    const matrix = async (query: string) => {
      const response = await as(t, team.guest)('GET', `/api/units/matrix/?pipeline=${flow.pipeline.id}&${query}`);
      expect(response.statusCode, response.body).toBe(200);
      const page = response.json<TMatrixPage>();
      return { count: page.count, names: page.rows.map((r) => r.unit.name), page };
    };
    const all = await matrix('limit=2');
    expect(all).toMatchObject({ count: 4, names: ['A', 'B'] });
    expect(all.page.stages.map((s) => s.id)).toEqual(flow.stages);
    expect(all.page.rows[0]!.tasks.map((cell) => [cell.status, cell.ready, cell.assignees])).toEqual([
      ['todo', true, [team.guest.id]],
      ['todo', false, []],
    ]);
    expect((await matrix('offset=2&limit=2')).names).toEqual(['C', 'D']);
    expect((await matrix('sort=-name')).names).toEqual(['D', 'C', 'B', 'A']);
    expect((await matrix('sort=-created')).names).toEqual(['D', 'C', 'B', 'A']);
    expect((await matrix('status=review')).names).toEqual(['B']);
    expect((await matrix('assignee=me')).names).toEqual(['A', 'B', 'D']);
    expect((await matrix(`assignee=${team.member.id}`)).names).toEqual(['C']);
    expect((await matrix(`assignee=${team.outsider.id}`)).names).toEqual([]);
    const overdue = await matrix('overdue=true');
    expect(overdue.names).toEqual(['D']);
    expect(overdue.page.rows[0]!.tasks[1]!.overdue).toBe(true);
    expect((await matrix('search=c')).names).toEqual(['C']);
    expect((await matrix('offset=10')).count).toBe(4);
    expect((await as(t, team.outsider)('GET', `/api/units/matrix/?pipeline=${flow.pipeline.id}`)).statusCode).toBe(404);
  });
});

describe('My work and counters', () => {
  test('assignee=me and reviewer=me use effective people; ready, overdue and status filter; pages', async () => {
    const team = await buildTeam(t);
    const flow = await buildFlow(t, {
      workspace: team.workspace,
      stages: [{ assignees: [team.member] }, { assignees: [team.member], reviewers: [team.guest] }],
      edges: chain(2),
    });
    const u1 = await buildUnit(t, team.member, flow, 'U1');
    const u2 = await buildUnit(t, team.member, flow, 'U2');
    const list = async (user: typeof team.member, query: string) => {
      const response = await as(t, user)('GET', `/api/tasks/?${query}`);
      expect(response.statusCode, response.body).toBe(200);
      return response.json<TTaskList>();
    };
    const mine = await list(team.member, 'assignee=me');
    expect(mine.count).toBe(4);
    expect((await list(team.member, 'assignee=me&ready=true')).results.map((r) => r.id).sort()).toEqual(
      [taskAt(u1, flow, 0), taskAt(u2, flow, 0)].sort(),
    );
    // U2's second task gets its own people: the admin only.
    await as(t, team.member)('PATCH', `/api/tasks/${taskAt(u2, flow, 1)}/`, {
      assignees: [team.admin.id],
      reviewers: [],
    });
    expect((await list(team.member, 'assignee=me')).count).toBe(3);
    expect((await list(team.admin, 'assignee=me')).results.map((r) => r.id)).toEqual([taskAt(u2, flow, 1)]);
    expect((await list(team.guest, 'reviewer=me')).results.map((r) => r.id)).toEqual([taskAt(u1, flow, 1)]);
    await as(t, team.member)('PATCH', `/api/tasks/${taskAt(u1, flow, 0)}/`, { due_date: '2001-01-01T00:00:00Z' });
    const overdue = await list(team.member, 'assignee=me&overdue=true');
    expect(overdue.results.map((r) => [r.id, r.overdue])).toEqual([[taskAt(u1, flow, 0), true]]);
    const paged = await list(team.member, `pipeline=${flow.pipeline.id}&limit=3`);
    expect(paged).toMatchObject({ count: 4, next: 3 });
    expect(paged.results[0]!.id).toBe(taskAt(u1, flow, 0)); // the one with a due date comes first
    expect(paged.results[0]).toMatchObject({ unit: { name: 'U1' }, workspace: team.workspace.id });
    expect((await list(team.member, `pipeline=${flow.pipeline.id}&offset=3`)).next).toBeNull();
    expect((await list(team.member, `unit=${u2.id}&status=todo`)).count).toBe(2);
    expect((await list(team.outsider, 'assignee=me')).count).toBe(0);
    expect((await as(t, team.outsider)('GET', `/api/tasks/?pipeline=${flow.pipeline.id}`)).statusCode).toBe(404);
    expect((await as(t, team.outsider)('GET', `/api/tasks/?workspace=${team.workspace.id}`)).statusCode).toBe(404);
  });

  test('awaiting=true: review tasks of the open round the reviewer has not reacted to; workable=true', async () => {
    const team = await buildTeam(t);
    const flow = await buildFlow(t, {
      workspace: team.workspace,
      stages: [{ reviewMode: 'each_wait', assignees: [team.member], reviewers: [team.guest, team.admin] }],
      edges: chain(1),
    });
    const u1 = await buildUnit(t, team.member, flow, 'U1');
    const u2 = await buildUnit(t, team.member, flow, 'U2');
    const [a, b] = [taskAt(u1, flow, 0), taskAt(u2, flow, 0)];
    const ids = async (user: typeof team.member, query: string) => {
      const response = await as(t, user)('GET', `/api/tasks/?${query}`);
      expect(response.statusCode, response.body).toBe(200);
      return response.json<TTaskList>().results.map((r) => r.id);
    };
    const awaiting = (user: typeof team.member) =>
      ids(user, `workspace=${team.workspace.id}&reviewer=me&awaiting=true`);
    expect(await awaiting(team.guest)).toEqual([]);
    ok(await act(t, team.member, a, 'start'));
    ok(await act(t, team.member, a, 'submit'));
    expect(await awaiting(team.guest)).toEqual([a]);
    expect(await awaiting(team.admin)).toEqual([a]);
    // The assignee can act on the task to do, not on the one in review.
    expect(await ids(team.member, 'assignee=me&workable=true')).toEqual([b]);

    // each_wait: the guest's rejection keeps the task in review, but it no longer awaits the guest.
    expect(ok(await act(t, team.guest, a, 'reject')).status).toBe('review');
    expect(await awaiting(team.guest)).toEqual([]);
    expect(await ids(team.guest, 'reviewer=me&status=review')).toEqual([a]);
    expect(await awaiting(team.admin)).toEqual([a]);
    // Without a reviewer filter it means the caller; with one, that person (a member here).
    expect(await ids(team.admin, 'awaiting=true')).toEqual([a]);
    expect(await ids(team.member, 'awaiting=true')).toEqual([]);
    expect(await ids(team.member, `reviewer=${team.admin.id}&awaiting=true`)).toEqual([a]);
    expect(await ids(team.member, `reviewer=${team.guest.id}&awaiting=true`)).toEqual([]);

    // The admin's reaction closes the round (edit); the next round awaits both again.
    expect(ok(await act(t, team.admin, a, 'accept')).status).toBe('edit');
    expect(await awaiting(team.admin)).toEqual([]);
    expect((await ids(team.member, 'assignee=me&workable=true')).sort()).toEqual([a, b].sort());
    ok(await act(t, team.member, a, 'submit'));
    expect(await awaiting(team.guest)).toEqual([a]);
    expect(await awaiting(team.admin)).toEqual([a]);
    // A status set into review by hand opens a round too: it awaits both reviewers.
    const byHand = ok(await as(t, team.member)('PATCH', `/api/tasks/${b}/`, { status: 'review' }));
    expect(byHand.iteration).toMatchObject({ number: 1, closed: false });
    expect((await awaiting(team.guest)).sort()).toEqual([a, b].sort());

    for (const bad of ['awaiting=false', 'awaiting=1', 'workable=no']) {
      const response = await as(t, team.guest)('GET', `/api/tasks/?${bad}`);
      expect(response.statusCode, bad).toBe(400);
    }
  });

  test('task_counters per status with overdue, on the list and the pipeline, and per stage', async () => {
    const team = await buildTeam(t);
    const flow = await buildFlow(t, { workspace: team.workspace, stages: [{}, {}], edges: chain(2) });
    const u1 = await buildUnit(t, team.member, flow);
    const u2 = await buildUnit(t, team.member, flow);
    await setStatus(t, [taskAt(u1, flow, 0)], 'done');
    await as(t, team.member)('PATCH', `/api/tasks/${taskAt(u2, flow, 1)}/`, { due_date: '2001-01-01T00:00:00Z' });
    const pipeline = (await as(t, team.guest)('GET', `/api/pipelines/${flow.pipeline.id}/`)).json<TPipeline>();
    expect(pipeline.task_counters).toEqual({ todo: 3, in_progress: 0, review: 0, edit: 0, done: 1, overdue: 1 });
    expect(pipeline.stage_counters[String(flow.stages[0])]).toMatchObject({ todo: 1, done: 1, overdue: 0 });
    expect(pipeline.stage_counters[String(flow.stages[1])]).toMatchObject({ todo: 2, overdue: 1 });
    expect(pipeline.stage_counters[String(flow.pipeline.root)]).toMatchObject({ todo: 0 });
    const list = (await as(t, team.guest)('GET', `/api/pipelines/?project=${flow.project.id}`)).json<
      TPipelineSummary[]
    >();
    expect(list[0]!.task_counters).toEqual(pipeline.task_counters);
  });
});

describe('the graph keeps tasks in step', () => {
  test('a new stage gets a task for every unit; a removed stage loses its tasks; readiness follows edges', async () => {
    const team = await buildTeam(t);
    const flow = await buildFlow(t, { workspace: team.workspace, stages: [{}, {}], edges: chain(2) });
    await as(t, team.member)('POST', '/api/units/batch/', {
      project: flow.project.id,
      pipeline: flow.pipeline.id,
      template: 'U{count}',
      count: 3,
      start: 1,
      step: 1,
    });
    const [x, y] = flow.stages as [number, number];
    const { root, end } = flow.pipeline;
    const node = (id: number, kind: 'root' | 'end' | 'stage' = 'stage') => ({ id, kind, name: `N${id}`, x: 0, y: 0 });
    const graph: TGraphSave = {
      version: 0,
      nodes: [node(root, 'root'), node(x), { tmp_id: 'n', kind: 'stage', name: 'New', x: 0, y: 0 }, node(end, 'end')],
      edges: [
        { source: root, target: x },
        { source: x, target: 'n' },
        { source: 'n', target: end },
      ],
    };
    const saved = await as(t, team.member)('PUT', `/api/pipelines/${flow.pipeline.id}/graph/`, graph);
    expect(saved.statusCode, saved.body).toBe(200);
    const fresh = saved.json<{ id_map: Record<string, number> }>().id_map.n!;
    const matrix = (
      await as(t, team.member)('GET', `/api/units/matrix/?pipeline=${flow.pipeline.id}`)
    ).json<TMatrixPage>();
    expect(matrix.stages.map((s) => s.id)).toEqual([x, fresh]);
    for (const row of matrix.rows) {
      expect(row.tasks.map((c) => [c.stage, c.status, c.ready])).toEqual([
        [x, 'todo', true],
        [fresh, 'todo', false],
      ]);
    }
    const gone = await t.database.db.select().from(schema.tasks).where(eq(schema.tasks.stageId, y));
    expect(gone).toEqual([]);
    // Cutting the edge x → new makes the new stage ready (fed by the start only).
    const cut = await as(t, team.member)('PUT', `/api/pipelines/${flow.pipeline.id}/graph/`, {
      version: 1,
      nodes: [node(root, 'root'), node(x), node(fresh), node(end, 'end')],
      edges: [],
    });
    expect(cut.statusCode, cut.body).toBe(200);
    const after = (
      await as(t, team.member)('GET', `/api/units/matrix/?pipeline=${flow.pipeline.id}`)
    ).json<TMatrixPage>();
    expect(after.rows[0]!.tasks.map((c) => c.ready)).toEqual([true, true]);
    const readyAt = await t.database.db.select().from(schema.tasks).where(eq(schema.tasks.stageId, fresh));
    expect(readyAt.every((row) => row.readyAt !== null)).toBe(true);
  });
});
