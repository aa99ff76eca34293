import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { TView } from '@stageline/shared';
import { relaxedLimits } from '../../../test/accounts';
import { buildTestApp, type TestApp } from '../../../test/helpers';
import { buildProject } from '../../../test/pipelines';
import { as, buildTeam, type Team } from '../../../test/workspaces';

/** Saved views: personal or shared, who may change them, and who sees which. */

let t: TestApp;
let team: Team;
let project: { id: number };

beforeAll(async () => {
  t = await buildTestApp({ authLimits: relaxedLimits });
  team = await buildTeam(t);
  project = await buildProject(t, { workspace: team.workspace });
});
afterAll(async () => {
  await t?.close();
});

const save = (user: Team['member'], body: Record<string, unknown>) =>
  as(t, user)('POST', '/api/views/', {
    project: project.id,
    name: 'In review',
    filters: { status: 'review' },
    ...body,
  });
const list = async (user: Team['member']) =>
  (await as(t, user)('GET', `/api/views/?project=${project.id}`)).json<TView[]>();

describe('saved views', () => {
  test('a shared view is seen and opened by another member; a personal one only by its author', async () => {
    const shared = await save(team.member, { name: 'Lighting in review', shared: true, sort: '-name' });
    expect(shared.statusCode, shared.body).toBe(201);
    expect(shared.json<TView>()).toMatchObject({
      name: 'Lighting in review',
      filters: { status: 'review' },
      sort: '-name',
      shared: true,
      kind: 'matrix',
      can_edit: true,
      author: { id: team.member.id },
    });
    const personal = (await save(team.member, { name: 'Mine', filters: { assignee: 'me' } })).json<TView>();

    const seenByGuest = await list(team.guest);
    expect(seenByGuest.map((view) => view.name)).toContain('Lighting in review');
    expect(seenByGuest.map((view) => view.id)).not.toContain(personal.id);
    expect(seenByGuest.find((view) => view.shared)!.can_edit).toBe(false);
    expect((await as(t, team.guest)('PATCH', `/api/views/${personal.id}/`, { name: 'x' })).statusCode).toBe(404);
    expect((await as(t, team.outsider)('GET', `/api/views/?project=${project.id}`)).statusCode).toBe(404);
  });

  test('only Members and above share; the author or an Admin changes a shared view; others 403', async () => {
    expect((await save(team.guest, { shared: true })).statusCode).toBe(403);
    const guestOwn = await save(team.guest, { name: 'Guest view' });
    expect(guestOwn.statusCode).toBe(201);
    const shared = (await save(team.member, { name: 'Team view', shared: true })).json<TView>();
    expect((await as(t, team.guest)('PATCH', `/api/views/${shared.id}/`, { name: 'Mine now' })).statusCode).toBe(403);
    const renamed = await as(t, team.admin)('PATCH', `/api/views/${shared.id}/`, { name: 'Team view (tidied)' });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json<TView>().name).toBe('Team view (tidied)');
    const removed = await as(t, team.admin)('DELETE', `/api/views/${shared.id}/`);
    expect(removed.statusCode, removed.body).toBe(204);
  });

  test('filters are URL query pairs with bounded names', async () => {
    const bad = await save(team.member, { filters: { 'Bad Key!': 'x' } });
    expect(bad.statusCode).toBe(400);
    const nested = await save(team.member, { filters: { status: { nested: true } } });
    expect(nested.statusCode).toBe(400);
  });
});
