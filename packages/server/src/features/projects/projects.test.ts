import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { TPipeline, TProject, TProjectWorkload } from '@stageline/shared';
import { schema } from '../../db';
import { relaxedLimits } from '../../../test/accounts';
import { buildTestApp, type TestApp } from '../../../test/helpers';
import { buildPipeline, buildProject } from '../../../test/pipelines';
import { buildFlow, buildUnit, setStatus, taskAt } from '../../../test/units';
import { as, buildTeam } from '../../../test/workspaces';

let t: TestApp;

beforeAll(async () => {
  t = await buildTestApp({ authLimits: relaxedLimits });
});
afterAll(async () => {
  await t?.close();
});

describe('projects', () => {
  test('a member creates a project with the product defaults, or the ones given', async () => {
    const team = await buildTeam(t);
    const api = as(t, team.member);
    const plain = await api('POST', '/api/projects/', { workspace: team.workspace.id, name: '  Film  ' });
    expect(plain.statusCode, plain.body).toBe(201);
    expect(plain.json<TProject>()).toMatchObject({
      workspace: team.workspace.id,
      name: 'Film',
      description: '',
      defaults: {
        review_mode: 'each_immediate',
        skip_review_if_no_reviewers: false,
        accept_edit_as_done: false,
        todo_enabled: true,
      },
      pipelines_count: 0,
      units_count: 0,
    });
    const custom = await api('POST', '/api/projects/', {
      workspace: team.workspace.id,
      name: 'Game',
      defaults: { review_mode: 'any', todo_enabled: false },
    });
    expect(custom.json<TProject>().defaults).toEqual({
      review_mode: 'any',
      skip_review_if_no_reviewers: false,
      accept_edit_as_done: false,
      todo_enabled: false,
    });
    const bad = await api('POST', '/api/projects/', {
      workspace: team.workspace.id,
      name: 'x',
      defaults: { review_mode: 'nope' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ 'defaults.review_mode': ['Select a valid choice.'] });
  });

  test('guests cannot create; outsiders get 404', async () => {
    const team = await buildTeam(t);
    const body = { workspace: team.workspace.id, name: 'Nope' };
    expect((await as(t, team.guest)('POST', '/api/projects/', body)).statusCode).toBe(403);
    expect((await as(t, team.outsider)('POST', '/api/projects/', body)).statusCode).toBe(404);
    expect((await as(t, null)('POST', '/api/projects/', body)).statusCode).toBe(401);
  });

  test('lists a workspace’s projects by name, or those of all my workspaces; 404 for a workspace I am not in', async () => {
    const team = await buildTeam(t);
    const b = await buildProject(t, { workspace: team.workspace, name: 'beta' });
    const a = await buildProject(t, { workspace: team.workspace, name: 'Alpha' });
    await buildPipeline(t, { project: a });
    const list = await as(t, team.guest)('GET', `/api/projects/?workspace=${team.workspace.id}`);
    expect(list.statusCode).toBe(200);
    expect(list.json<TProject[]>().map((p) => [p.id, p.pipelines_count])).toEqual([
      [a.id, 1],
      [b.id, 0],
    ]);
    const mine = await as(t, team.guest)('GET', '/api/projects/');
    expect(mine.json<TProject[]>().map((p) => p.id)).toEqual([a.id, b.id]);
    expect((await as(t, team.outsider)('GET', `/api/projects/?workspace=${team.workspace.id}`)).statusCode).toBe(404);
    expect((await as(t, team.outsider)('GET', '/api/projects/')).json()).toEqual([]);
  });

  test('members edit name and defaults; new stages start with the new defaults', async () => {
    const team = await buildTeam(t);
    const project = await buildProject(t, { workspace: team.workspace });
    const url = `/api/projects/${project.id}/`;
    expect((await as(t, team.guest)('PATCH', url, { name: 'x' })).statusCode).toBe(403);
    expect((await as(t, team.outsider)('PATCH', url, { name: 'x' })).statusCode).toBe(404);
    const patched = await as(t, team.member)('PATCH', url, {
      name: 'Renamed',
      defaults: { review_mode: 'each_wait', accept_edit_as_done: true },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json<TProject>()).toMatchObject({
      name: 'Renamed',
      defaults: { review_mode: 'each_wait', accept_edit_as_done: true, todo_enabled: true },
    });
    expect((await as(t, team.guest)('GET', url)).json()).toEqual(patched.json());

    const created = await as(t, team.member)('POST', '/api/pipelines/', { project: project.id, name: 'P' });
    const nodes = created.json<TPipeline>().nodes;
    expect(nodes.every((n) => n.review_mode === 'each_wait' && n.accept_edit_as_done)).toBe(true);
  });

  test('only admins and the owner delete; pipelines and stages go with it', async () => {
    const team = await buildTeam(t);
    const project = await buildProject(t, { workspace: team.workspace });
    const pipeline = await buildPipeline(t, { project, stages: 2 });
    const url = `/api/projects/${project.id}/`;
    expect((await as(t, team.member)('DELETE', url)).statusCode).toBe(403);
    expect((await as(t, team.outsider)('DELETE', url)).statusCode).toBe(404);
    expect((await as(t, team.admin)('DELETE', url)).statusCode).toBe(204);
    expect((await as(t, team.admin)('GET', url)).statusCode).toBe(404);
    const left = await t.database.db.select().from(schema.stages).where(eq(schema.stages.pipelineId, pipeline.id));
    expect(left).toEqual([]);
  });

  test('unknown and malformed ids are 404', async () => {
    const team = await buildTeam(t);
    expect((await as(t, team.owner)('GET', '/api/projects/2147483647/')).statusCode).toBe(404);
    expect((await as(t, team.owner)('GET', '/api/projects/abc/')).statusCode).toBe(404);
  });

  test('workload: open tasks per effective assignee, overdue counted, most loaded first', async () => {
    const team = await buildTeam(t);
    const flow = await buildFlow(t, {
      workspace: team.workspace,
      stages: [
        { assignees: [team.member], dueDate: '2020-01-01' },
        { assignees: [team.member, team.admin] },
        { assignees: [team.admin] },
      ],
      edges: [
        ['root', 0],
        [0, 1],
        [1, 2],
        [2, 'end'],
      ],
    });
    const [a, b] = [await buildUnit(t, team.member, flow, 'A'), await buildUnit(t, team.member, flow, 'B')];
    // A's last task is done (not open); B's has its own people instead of the stage's.
    await setStatus(t, [taskAt(a, flow, 2)], 'done');
    const own = taskAt(b, flow, 2);
    await t.database.db.update(schema.tasks).set({ useStageDefaults: false }).where(eq(schema.tasks.id, own));
    await t.database.db.insert(schema.taskAssignees).values({ taskId: own, userId: team.owner.id });

    const response = await as(t, team.guest)('GET', `/api/projects/${flow.project.id}/workload/`);
    expect(response.statusCode, response.body).toBe(200);
    expect(
      response.json<TProjectWorkload>().people.map(({ user_id, open, overdue }) => ({ user_id, open, overdue })),
    ).toEqual([
      { user_id: team.member.id, open: 4, overdue: 2 },
      { user_id: team.admin.id, open: 2, overdue: 0 },
      { user_id: team.owner.id, open: 1, overdue: 0 },
    ]);
    expect(response.json<TProjectWorkload>().people[0]!.name).toEqual(expect.any(String));
    expect((await as(t, team.outsider)('GET', `/api/projects/${flow.project.id}/workload/`)).statusCode).toBe(404);
  });
});

test('units_count follows units made one by one and in a batch, deleted, and gone with their pipeline', async () => {
  const team = await buildTeam(t);
  const flow = await buildFlow(t, { workspace: team.workspace, stages: [{}] });
  const other = await buildFlow(t, { workspace: team.workspace, stages: [{}] });
  const member = as(t, team.member);
  const count = async () => (await member('GET', `/api/projects/${flow.project.id}/`)).json<TProject>().units_count;
  expect(await count()).toBe(0);
  const batch = await member('POST', '/api/units/batch/', {
    project: flow.project.id,
    pipeline: flow.pipeline.id,
    template: 'Shot {count}',
    count: 25,
    start: 1,
    step: 1,
  });
  expect(batch.statusCode, batch.body.slice(0, 300)).toBe(201);
  const one = await buildUnit(t, team.member, flow);
  await buildUnit(t, team.member, other);
  expect(await count()).toBe(26);
  expect((await as(t, team.admin)('DELETE', `/api/units/${one.id}/`)).statusCode).toBe(204);
  expect(await count()).toBe(25);
  // Another project's units never count here, and the listing says the same as the record.
  const listed = (await member('GET', `/api/projects/?workspace=${team.workspace.id}`)).json<TProject[]>();
  expect(listed.find((p) => p.id === flow.project.id)?.units_count).toBe(25);
  expect(listed.find((p) => p.id === other.project.id)?.units_count).toBe(1);
  expect((await as(t, team.admin)('DELETE', `/api/pipelines/${flow.pipeline.id}/`)).statusCode).toBe(204);
  expect(await count()).toBe(0);
});
