import type { APIRequestContext } from '@playwright/test';
import { wholeMatrixRows, type TWholeMatrixAnswer } from '@stageline/shared';
import { registerUser, type TestUser } from './support/accounts';
import { call, openAs, teamWorkspace } from './support/api';
import { expect, snap, test } from './support/fixtures';

/**
 * The unit × stage matrix of a 10,000-unit pipeline (issue 13) and of a 500-stage one (the bound in docs/rules.md §Limits): columns in flow order
 * whatever the stages' ids, and only the columns in view are drawn, also after scrolling sideways.
 */
type TPipeline = { id: number; version: number; nodes: { id: number; kind: string; name: string }[] };

/**
 * A pipeline of `count` stages in a chain, "Stage 1" first. The stages are created last-to-first, so
 * their ids run against the flow ("Stage {count}" has the smallest id). `placed` false saves every
 * stage at one point, as an import without positions does: the editor lays it out.
 */
async function chainPipeline(
  request: APIRequestContext,
  lead: TestUser,
  project: number,
  count: number,
  placed = true,
) {
  const pipeline = await call<TPipeline>(request, lead, 'POST', 'pipelines/', { project, name: `Chain of ${count}` });
  const root = pipeline.nodes.find((n) => n.kind === 'root')!;
  const end = pipeline.nodes.find((n) => n.kind === 'end')!;
  const keys = Array.from({ length: count }, (_, i) => `s${count - i}`);
  const chain = Array.from({ length: count }, (_, i) => `s${i + 1}`);
  await call(request, lead, 'PUT', `pipelines/${pipeline.id}/graph/`, {
    version: pipeline.version,
    nodes: [
      { id: root.id, kind: 'root', name: root.name, x: 0, y: 0 },
      ...keys.map((key, i) => ({
        tmp_id: key,
        kind: 'stage',
        name: `Stage ${key.slice(1)}`,
        x: placed ? 200 * (i + 1) : 0,
        y: 0,
      })),
      { id: end.id, kind: 'end', name: end.name, x: 200 * (count + 1), y: 0 },
    ],
    edges: [
      { source: root.id, target: chain[0] },
      ...chain.slice(1).map((key, i) => ({ source: chain[i], target: key })),
      { source: chain[count - 1], target: end.id },
    ],
  });
  return pipeline;
}

test('a 500-stage matrix: columns in flow order, only those in view drawn; its editor far out and zoomed in', async ({
  browser,
  baseURL,
  request,
}) => {
  test.setTimeout(120_000);
  const lead = await registerUser(request, { firstName: 'Lena' });
  const team = await teamWorkspace(request, lead, [], 'Long studio');
  const pipeline = await chainPipeline(request, lead, team.project, 500);
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

  // The same pipeline in the editor (decision 100): far out, a stage is a bare box that keeps its
  // name as its accessible label, and the canvas is its own overview (no minimap, decision 136);
  // zoomed in, the names and the minimap come back.
  await page.goto(`/app/projects/${team.project}/pipelines/${pipeline.id}/edit_flow`);
  const tiny = page.locator('[data-testid="flow-node"][data-tiny="true"]');
  const minimap = page.getByRole('img', { name: 'Mini map' });
  await expect.poll(() => tiny.count()).toBeGreaterThan(10);
  await expect(tiny.first()).toHaveText('');
  expect((await tiny.first().boundingBox())?.width).toBeGreaterThan(0);
  await expect(minimap).toHaveCount(0);
  // Far out the 501 links are one path, not React Flow's edges (decision 137).
  await expect(page.getByTestId('flow-far-links')).toHaveAttribute('data-links', '501');
  await expect(page.locator('.react-flow__edge')).toHaveCount(0);
  // A stage deleted far out takes its two links with it, though React Flow held none of them.
  await tiny.nth(10).click();
  await page.keyboard.press('Delete');
  await expect(page.getByTestId('flow-stage-count')).toHaveAttribute('data-count', '499');
  await expect(page.getByTestId('flow-far-links')).toHaveAttribute('data-links', '499');
  // Saved (its three tasks go with it): the graph sent has no link left without its stage.
  await page.getByTestId('flow-save').click();
  await expect(page.getByTestId('flow-tasks-removed')).toContainText('3 tasks');
  await page.getByTestId('flow-tasks-confirm').click();
  // Its neighbours lost their link to each other: saved as they are.
  await page.getByTestId('flow-orphans-skip').click();
  await expect(page.getByTestId('flow-status')).toHaveAttribute('data-dirty', 'false');
  await expect(page.getByTestId('flow-error')).toHaveCount(0);
  const wrapper = page.locator('.react-flow__node:has([data-tiny="true"])').first();
  await expect(wrapper).toHaveAttribute('aria-label', /^Stage \d+$/);
  const zoomIn = page.getByRole('button', { name: 'Zoom in' });
  for (let i = 0; i < 8; i++) await zoomIn.click();
  await expect(tiny).toHaveCount(0);
  await expect(page.locator('[data-testid="flow-node"][data-kind="stage"]').first()).toContainText(/^Stage \d+/);
  await expect(minimap).toBeVisible();
  await expect(page.getByTestId('flow-far-links')).toHaveCount(0);
  await expect.poll(() => page.locator('.react-flow__edge').count()).toBeGreaterThan(0);
  await page.context().close();
});

test('a 200-stage pipeline saved without positions: its quick layout comes without links, the layout of elk with them', async ({
  browser,
  baseURL,
  request,
}) => {
  const lead = await registerUser(request, { firstName: 'Lena' });
  const team = await teamWorkspace(request, lead, [], 'Imported studio');
  const pipeline = await chainPipeline(request, lead, team.project, 200, false);
  const page = await openAs(browser, baseURL, lead, team.workspace);
  // Each change of the canvas while its layout is pending: how many stages and links it drew then
  // (decision 126).
  await page.addInitScript(() => {
    const seen: { stages: number; links: number }[] = [];
    (window as unknown as { pendingDraws: typeof seen }).pendingDraws = seen;
    new MutationObserver(() => {
      if (!document.querySelector('[data-layout-pending="true"]')) return;
      const stages = document.querySelectorAll('[data-testid="flow-node"][data-kind="stage"]').length;
      // Far out the links are one path with their count (decision 137), closer in React Flow's edges.
      const far = Number(document.querySelector('[data-testid="flow-far-links"]')?.getAttribute('data-links') ?? 0);
      if (stages > 0) seen.push({ stages, links: far + document.querySelectorAll('.react-flow__edge').length });
    }).observe(document, { childList: true, subtree: true });
  });
  await page.goto(`/app/projects/${team.project}/pipelines/${pipeline.id}/edit_flow`);
  await expect(page.locator('[data-layout-pending="false"]')).toBeVisible({ timeout: 30_000 });
  const pending = await page.evaluate(() => (window as unknown as { pendingDraws: { links: number }[] }).pendingDraws);
  expect(pending.length).toBeGreaterThan(0);
  expect(pending.every((draw) => draw.links === 0)).toBe(true);
  // Laid out: the links are drawn (far out, as one path), and the pipeline is still unchanged.
  await expect(page.getByTestId('flow-far-links')).toHaveAttribute('data-links', '201');
  await expect(page.getByTestId('flow-status')).toHaveAttribute('data-dirty', 'false');
  await page.context().close();
});

test('10,000 units × 20 stages: one call loads them all, filters run in the browser, a live change patches one row', async ({
  browser,
  baseURL,
  request,
}) => {
  test.setTimeout(180_000);
  const lead = await registerUser(request, { firstName: 'Lena' });
  const team = await teamWorkspace(request, lead, [], 'Big studio');
  const pipeline = await chainPipeline(request, lead, team.project, 20);
  const batch = { project: team.project, pipeline: pipeline.id, template: 'Shot {count}', start: 1, step: 1 };
  await call(request, lead, 'POST', 'units/batch/', { ...batch, count: 10_000 });

  const page = await openAs(browser, baseURL, lead, team.workspace);
  const calls: string[] = [];
  page.on('request', (sent) => {
    const url = new URL(sent.url());
    if (url.pathname.startsWith('/api/units/matrix/')) calls.push(`${url.pathname}${url.search}`);
  });
  await page.goto(`/app/projects/${team.project}/units?pipeline=${pipeline.id}`);
  const matrix = page.getByTestId('matrix');
  await expect(matrix).toHaveAttribute('data-count', '10000', { timeout: 30_000 });
  const rows = page.getByTestId('matrix-row');
  await expect(rows.first().getByTestId('matrix-unit-link')).toHaveText('Shot 1');
  // The whole matrix in one call; beside it at most the first page, drawn while the whole loads.
  const whole = `/api/units/matrix/whole/?pipeline=${pipeline.id}`;
  const firstPage = `/api/units/matrix/?pipeline=${pipeline.id}&sort=name&offset=0&limit=100`;
  expect(calls.filter((url) => url === whole)).toHaveLength(1);
  expect(calls.filter((url) => url !== whole && url !== firstPage)).toEqual([]);
  const before = calls.length;

  // The last unit by value, drawn at once at the bottom: every row is already here.
  await matrix.evaluate((element) => element.scrollTo({ top: element.scrollHeight }));
  await expect(rows.last().getByTestId('matrix-unit-link')).toHaveText('Shot 10000');
  await expect(rows.last().getByTestId('matrix-cell').first()).toHaveAttribute('data-status', 'todo');
  await matrix.evaluate((element) => element.scrollTo({ top: 0 }));

  // Someone else finishes Shot 1's first task: the cell changes, the next stage becomes ready, and only
  // Shot 1's row is fetched again.
  const matrixNow = wholeMatrixRows(
    await call<TWholeMatrixAnswer>(request, lead, 'GET', `units/matrix/whole/?pipeline=${pipeline.id}`),
  );
  const [unitId, , cells] = matrixNow.units[0]!;
  await call(request, lead, 'PATCH', `tasks/${cells[0]![0]}/`, { status: 'done' });
  const first = rows.first();
  await expect(first.getByTestId('matrix-cell').first()).toHaveAttribute('data-status', 'done');
  await expect(first.getByTestId('matrix-cell').nth(1)).toHaveAttribute('title', /Ready/);
  await expect.poll(() => calls.length).toBe(before + 1);
  expect(calls[before]).toBe(`${whole}&units=${unitId}`);

  // A filter answers from the browser's copy: no call to the server.
  await page.getByTestId('matrix-filter-status').click();
  await page.getByRole('option', { name: 'Done', exact: true }).click();
  await expect(matrix).toHaveAttribute('data-count', '1');
  await expect(rows.first().getByTestId('matrix-unit-link')).toHaveText('Shot 1');
  await snap(page, 'unit-matrix-10000-units-filtered');
  expect(calls).toHaveLength(before + 1);
  await page.context().close();
});
