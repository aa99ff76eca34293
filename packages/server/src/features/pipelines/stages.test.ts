import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { TStage } from '@stageline/shared';
import { relaxedLimits } from '../../../test/accounts';
import { buildTestApp, type TestApp } from '../../../test/helpers';
import { buildPipeline, buildProject } from '../../../test/pipelines';
import { addMember, as, buildTeam, buildUser, buildWorkspace } from '../../../test/workspaces';

let t: TestApp;

beforeAll(async () => {
  t = await buildTestApp({ authLimits: relaxedLimits });
});
afterAll(async () => {
  await t?.close();
});

async function setup(stages = 3) {
  const team = await buildTeam(t);
  const project = await buildProject(t, { workspace: team.workspace });
  const pipeline = await buildPipeline(t, { project, stages });
  return { team, project, pipeline };
}

describe('stages', () => {
  test('read by any member with its pipeline; 404 for outsiders', async () => {
    const { team, pipeline } = await setup(1);
    const url = `/api/stages/${pipeline.stages[0]}/`;
    const stage = await as(t, team.guest)('GET', url);
    expect(stage.statusCode).toBe(200);
    expect(stage.json<TStage>()).toMatchObject({
      id: pipeline.stages[0],
      pipeline: pipeline.id,
      kind: 'stage',
      name: 'Stage 1',
      default_assignees: [],
      default_due_days: null,
      default_due_date: null,
    });
    expect((await as(t, team.outsider)('GET', url)).statusCode).toBe(404);
  });

  test('PATCH changes only the fields given; due days and date replace each other', async () => {
    const { team, pipeline } = await setup(1);
    const url = `/api/stages/${pipeline.stages[0]}/`;
    const api = as(t, team.member);
    const first = await api('PATCH', url, {
      name: 'Compositing',
      default_due_days: 5,
      default_reviewers: [team.guest.id],
    });
    expect(first.statusCode, first.body).toBe(200);
    const second = await api('PATCH', url, { review_mode: 'any' });
    expect(second.json<TStage>()).toMatchObject({
      name: 'Compositing',
      review_mode: 'any',
      todo_enabled: true,
      default_due_days: 5,
      default_reviewers: [team.guest.id],
    });
    const dated = await api('PATCH', url, { default_due_date: '2031-02-03' });
    expect(dated.json<TStage>()).toMatchObject({ default_due_days: null, default_due_date: '2031-02-03' });
    const both = await api('PATCH', url, { default_due_days: 1, default_due_date: '2031-02-03' });
    expect(both.statusCode).toBe(400);
    expect(both.json()).toEqual({ default_due_date: ['Choose days after ready or a date, not both.'] });
    expect((await api('PATCH', url, { name: '  ' })).json()).toEqual({ name: ['Field can not be empty'] });
    expect((await as(t, team.guest)('PATCH', url, { name: 'x' })).statusCode).toBe(403);
    expect((await as(t, team.outsider)('PATCH', url, { name: 'x' })).statusCode).toBe(404);
  });

  test('start and end have no settings', async () => {
    const { team, pipeline } = await setup(0);
    const api = as(t, team.member);
    const refused = await api('PATCH', `/api/stages/${pipeline.root}/`, { name: 'Begin' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({ code: 'bad_request', detail: 'The start and end stages have no settings.' });
    expect((await api('PATCH', `/api/stages/${pipeline.end}/`, {})).statusCode).toBe(200);
    const bulk = await api('POST', '/api/stages/bulk_update/', {
      stages: [pipeline.end],
      changes: { todo_enabled: false },
    });
    expect(bulk.statusCode).toBe(400);
  });

  test('default assignees and reviewers must be members of the workspace (not of another one)', async () => {
    const { team, pipeline } = await setup(1);
    const url = `/api/stages/${pipeline.stages[0]}/`;
    const stranger = await buildUser(t);
    const elsewhere = await buildWorkspace(t, { owner: stranger });
    await addMember(t, { workspace: elsewhere, user: team.member, role: 'member' });
    const refused = await as(t, team.member)('PATCH', url, {
      default_assignees: [team.member.id, stranger.id],
      default_reviewers: [team.outsider.id],
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({
      default_assignees: ['Only members of the workspace can be chosen.'],
      default_reviewers: ['Only members of the workspace can be chosen.'],
    });
    const ok = await as(t, team.member)('PATCH', url, {
      default_assignees: [team.guest.id, team.member.id, team.guest.id],
    });
    expect(ok.json<TStage>().default_assignees).toEqual([team.member.id, team.guest.id].sort((a, b) => a - b));
  });

  test('bulk update changes only the given fields of every stage, in one pipeline', async () => {
    const { team, project, pipeline } = await setup(3);
    const [a, b, c] = pipeline.stages as [number, number, number];
    const api = as(t, team.member);
    await api('PATCH', `/api/stages/${a}/`, { name: 'Keep A', default_due_days: 2 });
    const response = await api('POST', '/api/stages/bulk_update/', {
      stages: [a, b],
      changes: { review_mode: 'each_wait', skip_review_if_no_reviewers: true, default_reviewers: [team.admin.id] },
    });
    expect(response.statusCode, response.body).toBe(200);
    const updated = response.json<TStage[]>();
    expect(updated.map((s) => s.id)).toEqual([a, b]);
    expect(updated[0]).toMatchObject({
      name: 'Keep A',
      default_due_days: 2,
      review_mode: 'each_wait',
      skip_review_if_no_reviewers: true,
      default_reviewers: [team.admin.id],
    });
    expect(updated[1]).toMatchObject({ name: 'Stage 2', review_mode: 'each_wait', default_reviewers: [team.admin.id] });
    const untouched = (await api('GET', `/api/stages/${c}/`)).json<TStage>();
    expect(untouched).toMatchObject({
      review_mode: 'each_immediate',
      skip_review_if_no_reviewers: false,
      default_reviewers: [],
    });

    const other = await buildPipeline(t, { project, stages: 1 });
    const mixed = await api('POST', '/api/stages/bulk_update/', {
      stages: [a, other.stages[0]],
      changes: { todo_enabled: false },
    });
    expect(mixed.statusCode).toBe(400);
    expect(mixed.json()).toEqual({ code: 'bad_request', detail: 'All stages must belong to one pipeline.' });

    const foreign = await setup(1);
    const hidden = await api('POST', '/api/stages/bulk_update/', {
      stages: [a, foreign.pipeline.stages[0]],
      changes: { todo_enabled: false },
    });
    expect(hidden.statusCode).toBe(404);
    expect((await api('POST', '/api/stages/bulk_update/', { stages: [a, 2147483647], changes: {} })).statusCode).toBe(
      404,
    );
    expect(
      (await as(t, team.guest)('POST', '/api/stages/bulk_update/', { stages: [a], changes: { todo_enabled: false } }))
        .statusCode,
    ).toBe(403);
    expect((await api('GET', `/api/stages/${a}/`)).json<TStage>().todo_enabled).toBe(true);
  });
});
