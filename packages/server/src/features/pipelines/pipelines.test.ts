import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { TPipeline, TPipelineSummary } from '@stageline/shared';
import { relaxedLimits } from '../../../test/accounts';
import { buildTestApp, type TestApp } from '../../../test/helpers';
import { buildPipeline, buildProject } from '../../../test/pipelines';
import { buildFlow, buildUnit } from '../../../test/units';
import { as, buildTeam } from '../../../test/workspaces';

let t: TestApp;

beforeAll(async () => {
  t = await buildTestApp({ authLimits: relaxedLimits });
});
afterAll(async () => {
  await t?.close();
});

const zero = { todo: 0, in_progress: 0, review: 0, edit: 0, done: 0, overdue: 0 };

describe('pipelines', () => {
  test('a new pipeline has exactly its start and end, with the project defaults, version 0', async () => {
    const team = await buildTeam(t);
    const project = await buildProject(t, { workspace: team.workspace });
    const created = await as(t, team.member)('POST', '/api/pipelines/', {
      project: project.id,
      name: 'Shots',
      description: 'Per shot',
      layout: 'horizontal',
    });
    expect(created.statusCode, created.body).toBe(201);
    const pipeline = created.json<TPipeline>();
    expect(pipeline).toMatchObject({
      project: project.id,
      name: 'Shots',
      description: 'Per shot',
      layout: 'horizontal',
      version: 0,
      stages_count: 0,
      task_counters: zero,
      edges: [],
    });
    expect(pipeline.nodes.map((n) => [n.kind, n.name])).toEqual([
      ['root', 'Start'],
      ['end', 'End'],
    ]);
    const [root, end] = pipeline.nodes;
    expect(root).toMatchObject({ review_mode: 'each_immediate', todo_enabled: true, default_assignees: [] });
    expect(end!.x).toBeGreaterThan(root!.x); // horizontal: side by side
    expect(pipeline.stage_counters).toEqual({ [String(root!.id)]: zero, [String(end!.id)]: zero });
    expect((await as(t, team.guest)('GET', `/api/pipelines/${pipeline.id}/`)).json()).toEqual(pipeline);
  });

  test('defaults to vertical; guests cannot create; outsiders get 404', async () => {
    const team = await buildTeam(t);
    const project = await buildProject(t, { workspace: team.workspace });
    const body = { project: project.id, name: 'P' };
    const created = await as(t, team.admin)('POST', '/api/pipelines/', body);
    expect(created.json<TPipeline>().layout).toBe('vertical');
    expect((await as(t, team.guest)('POST', '/api/pipelines/', body)).statusCode).toBe(403);
    expect((await as(t, team.outsider)('POST', '/api/pipelines/', body)).statusCode).toBe(404);
    expect((await as(t, team.member)('POST', '/api/pipelines/', { project: 2147483647, name: 'P' })).statusCode).toBe(
      404,
    );
  });

  test('lists summaries of a project with stage counts and zero counters', async () => {
    const team = await buildTeam(t);
    const project = await buildProject(t, { workspace: team.workspace });
    const other = await buildProject(t, { workspace: team.workspace });
    const a = await buildPipeline(t, { project, name: 'A', stages: 3 });
    const b = await buildPipeline(t, { project, name: 'b' });
    await buildPipeline(t, { project: other });
    const list = await as(t, team.guest)('GET', `/api/pipelines/?project=${project.id}`);
    expect(list.statusCode).toBe(200);
    const summaries = list.json<TPipelineSummary[]>();
    expect(summaries.map((p) => [p.id, p.stages_count])).toEqual([
      [a.id, 3],
      [b.id, 0],
    ]);
    expect(summaries[0]).not.toHaveProperty('nodes');
    expect(summaries[0]!.task_counters).toEqual(zero);
    expect((await as(t, team.outsider)('GET', `/api/pipelines/?project=${project.id}`)).statusCode).toBe(404);
    expect((await as(t, team.outsider)('GET', '/api/pipelines/')).json()).toEqual([]);
    expect((await as(t, team.guest)('GET', '/api/pipelines/')).json<TPipelineSummary[]>()).toHaveLength(3);
  });

  test('counts units always, and tasks by status unless asked not to (counters=false, decision 120)', async () => {
    const team = await buildTeam(t);
    const flow = await buildFlow(t, { workspace: team.workspace, stages: [{}, {}] });
    await buildUnit(t, team.member, flow);
    await buildUnit(t, team.member, flow);
    const url = `/api/pipelines/?project=${flow.project.id}`;
    const [counted] = (await as(t, team.guest)('GET', url)).json<TPipelineSummary[]>();
    expect(counted!.units_count).toBe(2);
    const { overdue, ...byStatus } = counted!.task_counters!;
    expect(Object.values(byStatus).reduce((sum, n) => sum + n, 0)).toBe(4);
    expect(overdue).toBe(0);
    const light = await as(t, team.guest)('GET', `${url}&counters=false`);
    expect(light.statusCode).toBe(200);
    const [named] = light.json<TPipelineSummary[]>();
    expect(named).toEqual({ ...counted, task_counters: undefined });
    expect(named).not.toHaveProperty('task_counters');
    expect((await as(t, team.guest)('GET', `${url}&counters=maybe`)).statusCode).toBe(400);
    expect((await as(t, team.outsider)('GET', `${url}&counters=false`)).statusCode).toBe(404);
  });

  test('members edit name, description and layout; guests cannot; admins delete, members cannot', async () => {
    const team = await buildTeam(t);
    const project = await buildProject(t, { workspace: team.workspace });
    const pipeline = await buildPipeline(t, { project, stages: 2 });
    const url = `/api/pipelines/${pipeline.id}/`;
    expect((await as(t, team.guest)('PATCH', url, { name: 'x' })).statusCode).toBe(403);
    expect((await as(t, team.outsider)('GET', url)).statusCode).toBe(404);
    const patched = await as(t, team.member)('PATCH', url, { name: 'New', description: 'D', layout: 'horizontal' });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json<TPipeline>()).toMatchObject({
      name: 'New',
      description: 'D',
      layout: 'horizontal',
      version: 0,
    });
    expect((await as(t, team.member)('DELETE', url)).statusCode).toBe(403);
    expect((await as(t, team.guest)('DELETE', url)).statusCode).toBe(403);
    expect((await as(t, team.outsider)('DELETE', url)).statusCode).toBe(404);
    expect((await as(t, team.owner)('DELETE', url)).statusCode).toBe(204);
    expect((await as(t, team.owner)('GET', url)).statusCode).toBe(404);
    expect((await as(t, team.owner)('GET', `/api/stages/${pipeline.stages[0]}/`)).statusCode).toBe(404);
  });
});
