import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { TSearchResult } from '@stageline/shared';
import { relaxedLimits } from '../../../test/accounts';
import { buildTestApp, type TestApp } from '../../../test/helpers';
import { buildFlow, buildUnit } from '../../../test/units';
import { as, buildTeam, buildWorkspace, type Team } from '../../../test/workspaces';

let t: TestApp;
let team: Team;

beforeAll(async () => {
  t = await buildTestApp({ authLimits: relaxedLimits });
  team = await buildTeam(t);
  const flow = await buildFlow(t, {
    workspace: team.workspace,
    stages: [{ name: 'Lighting' }, { name: 'Compositing' }],
  });
  for (const name of ['Shot 100', 'Shot 10', 'Close-up shot 10b']) await buildUnit(t, team.owner, flow, name);
  // The outsider's own workspace has a unit of the same name: never found by the team.
  const elsewhere = await buildFlow(t, { workspace: await buildWorkspace(t, { owner: team.outsider }), stages: [{}] });
  await buildUnit(t, team.outsider, elsewhere, 'Shot 10 (secret)');
});
afterAll(async () => {
  await t?.close();
});

const find = async (user: Team['member'], q: string) =>
  (await as(t, user)('GET', `/api/search/?q=${encodeURIComponent(q)}`)).json<TSearchResult>();

describe('search', () => {
  test('names starting with the query first, then closer ones; only the caller’s workspaces', async () => {
    const found = await find(team.guest, 'shot 10');
    expect(found.units.map((unit) => unit.name)).toEqual(['Shot 10', 'Shot 100', 'Close-up shot 10b']);
    expect(JSON.stringify(await find(team.member, 'secret'))).not.toContain('secret');
    expect((await find(team.outsider, 'shot 10')).units.map((unit) => unit.name)).toEqual(['Shot 10 (secret)']);
  });

  test('a task matches on its unit’s and stage’s names together', async () => {
    const found = await find(team.member, 'shot 10 light');
    expect(found.tasks.map((task) => `${task.unit} · ${task.stage}`)).toEqual([
      'Shot 10 · Lighting',
      'Shot 100 · Lighting',
      'Close-up shot 10b · Lighting',
    ]);
  });

  test('% and _ are plain characters; an empty query is a field error', async () => {
    expect((await find(team.member, '%')).units).toEqual([]);
    const empty = await as(t, team.member)('GET', '/api/search/?q=%20');
    expect(empty.statusCode).toBe(400);
  });
});
