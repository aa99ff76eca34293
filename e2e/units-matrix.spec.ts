import { registerUser } from './support/accounts';
import { call, openAs, teamWorkspace } from './support/api';
import { expect, snap, test } from './support/fixtures';

/**
 * The unit × stage matrix of a 500-stage pipeline (the bound in docs/rules.md §Limits): columns in flow order
 * whatever the stages' ids, and only the columns in view are drawn, also after scrolling sideways.
 */
test('a 500-stage matrix: columns in flow order, only those in view drawn', async ({ browser, baseURL, request }) => {
  test.setTimeout(120_000);
  const lead = await registerUser(request, { firstName: 'Lena' });
  const team = await teamWorkspace(request, lead, [], 'Long studio');
  const pipeline = await call<{ id: number; version: number; nodes: { id: number; kind: string; name: string }[] }>(
    request,
    lead,
    'POST',
    'pipelines/',
    { project: team.project, name: 'Long' },
  );
  const root = pipeline.nodes.find((n) => n.kind === 'root')!;
  const end = pipeline.nodes.find((n) => n.kind === 'end')!;
  const count = 500;
  // Created last-to-first: the stage created first ("Stage 500") is the last step of the flow.
  const keys = Array.from({ length: count }, (_, i) => `s${count - i}`);
  const chain = Array.from({ length: count }, (_, i) => `s${i + 1}`);
  await call(request, lead, 'PUT', `pipelines/${pipeline.id}/graph/`, {
    version: pipeline.version,
    nodes: [
      { id: root.id, kind: 'root', name: root.name, x: 0, y: 0 },
      ...keys.map((key, i) => ({ tmp_id: key, kind: 'stage', name: `Stage ${key.slice(1)}`, x: 200 * (i + 1), y: 0 })),
      { id: end.id, kind: 'end', name: end.name, x: 200 * (count + 1), y: 0 },
    ],
    edges: [
      { source: root.id, target: chain[0] },
      ...chain.slice(1).map((key, i) => ({ source: chain[i], target: key })),
      { source: chain[count - 1], target: end.id },
    ],
  });
  await call(request, lead, 'POST', 'units/batch/', {
    project: team.project,
    pipeline: pipeline.id,
    template: 'Shot {count}',
    count: 3,
    start: 1,
    step: 1,
  });

  const page = await openAs(browser, baseURL, lead, team.workspace);
  await page.goto(`/app/projects/${team.project}/units?pipeline=${pipeline.id}`);
  await expect(page.getByTestId('matrix-row')).toHaveCount(3);
  const heads = page.getByTestId('matrix-stage');
  await expect(heads.first()).toHaveText('Stage 1');
  await expect(heads.nth(1)).toHaveText('Stage 2');
  const drawn = await heads.count();
  expect(drawn).toBeGreaterThan(3);
  expect(drawn).toBeLessThan(30);
  await expect(page.getByTestId('matrix-row').first().getByTestId('matrix-cell')).toHaveCount(drawn);
  await snap(page, 'unit-matrix-500-stages-en-light');

  // Scrolled to the far right: the last steps are drawn, the first ones are not.
  await page.getByTestId('matrix').evaluate((el) => el.scrollTo({ left: el.scrollWidth }));
  await expect(heads.last()).toHaveText('Stage 500');
  await expect(heads.filter({ hasText: /^Stage 1$/ })).toHaveCount(0);
  expect(await heads.count()).toBeLessThan(30);
  await expect(page.getByTestId('matrix-row').first().getByTestId('matrix-cell').last()).toHaveAttribute(
    'data-status',
    'todo',
  );
  await page.context().close();
});
