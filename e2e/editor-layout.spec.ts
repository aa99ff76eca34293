import type { APIRequestContext, Page } from '@playwright/test';
import { registerUser, signInAs, uniqueName, type TestUser } from './support/accounts';
import { call, openAs, teamWorkspace } from './support/api';
import { expect, snap, test } from './support/fixtures';
import { openPalette } from './support/palette';

/**
 * Issue 39, items 5, 8, 9, 10 and 30: where "Add stage" puts a stage, the ways to a stage's settings,
 * the editor's toolbar in one row, counts on the zoomed-out overview, and the matrix across the
 * whole width (decisions 200–204).
 */

type TBox = { x: number; y: number; width: number; height: number };
const overlap = (a: TBox, b: TBox) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
const inside = (a: TBox, frame: TBox) =>
  a.x >= frame.x - 1 &&
  a.y >= frame.y - 1 &&
  a.x + a.width <= frame.x + frame.width + 1 &&
  a.y + a.height <= frame.y + frame.height + 1;

/**
 * A workspace with a project whose pipeline is eight stages in a row (saved with positions) and
 * `units` units, the first unit's first task started: answers the ids.
 */
async function eightStages(
  request: APIRequestContext,
  units: number,
): Promise<{ lead: TestUser; workspace: number; project: number; pipeline: number }> {
  const lead = await registerUser(request);
  const team = await teamWorkspace(request, lead, [], uniqueName('Layout studio'));
  const pipeline = await call<{ id: number; version: number; nodes: { id: number; kind: string; name: string }[] }>(
    request,
    lead,
    'POST',
    'pipelines/',
    { project: team.project, name: 'Shots', layout: 'horizontal' },
  );
  const root = pipeline.nodes.find((n) => n.kind === 'root')!;
  const end = pipeline.nodes.find((n) => n.kind === 'end')!;
  const names = ['Layout', 'Animation', 'Effects', 'Lighting', 'Rendering', 'Compositing', 'Grading', 'Delivery'];
  await call(request, lead, 'PUT', `pipelines/${pipeline.id}/graph/`, {
    version: pipeline.version,
    nodes: [
      { id: root.id, kind: 'root', name: root.name, x: 0, y: 16 },
      ...names.map((name, i) => ({
        tmp_id: `s${i}`,
        kind: 'stage',
        name,
        x: 200 + i * 280,
        y: 0,
        default_assignees: [lead.id],
      })),
      { id: end.id, kind: 'end', name: end.name, x: 200 + names.length * 280, y: 16 },
    ],
    edges: [
      { source: root.id, target: 's0' },
      ...names.slice(1).map((_, i) => ({ source: `s${i}`, target: `s${i + 1}` })),
      { source: `s${names.length - 1}`, target: end.id },
    ],
  });
  for (let i = 0; i < units; i += 1) {
    await call(request, lead, 'POST', 'units/', {
      project: team.project,
      pipeline: pipeline.id,
      name: `SH${String((i + 1) * 10).padStart(3, '0')}`,
    });
  }
  return { lead, workspace: team.workspace, project: team.project, pipeline: pipeline.id };
}

/** Signs `lead` in on `page`, with `workspace` as the current one. */
async function signIn(page: Page, lead: TestUser, workspace: number) {
  await signInAs(page, lead);
  await page.evaluate((id) => localStorage.setItem('current_workspace', String(id)), workspace);
}

/** Every node's box on the page, and the canvas's. */
async function boxes(page: Page): Promise<{ nodes: (TBox & { id: string; selected: boolean })[]; canvas: TBox }> {
  const canvas = (await page.getByTestId('flow-canvas').boundingBox())!;
  const nodes = await page.locator('.react-flow__node').evaluateAll((els) =>
    els.map((el) => {
      const r = el.getBoundingClientRect();
      return {
        id: el.getAttribute('data-id')!,
        selected: el.classList.contains('selected'),
        x: r.x,
        y: r.y,
        width: r.width,
        height: r.height,
      };
    }),
  );
  return { nodes, canvas };
}

/** The stage just added (selected) is clear of every other node and inside the canvas. */
async function expectPlacedWell(page: Page, count: number) {
  // Counted by the editor: a zoomed-in canvas draws only the nodes in view.
  await expect(page.getByTestId('flow-stage-count')).toHaveAttribute('data-count', String(count));
  await expect(async () => {
    const { nodes, canvas } = await boxes(page);
    const added = nodes.filter((n) => n.selected);
    expect(added).toHaveLength(1);
    for (const other of nodes.filter((n) => !n.selected)) expect(overlap(added[0]!, other)).toBe(false);
    expect(inside(added[0]!, canvas)).toBe(true);
  }).toPass({ timeout: 5_000 });
}

test('Add stage puts the stage beside the selection, clear of the others, and in view', async ({ page, request }) => {
  const { lead, workspace, project, pipeline } = await eightStages(request, 0);
  await signIn(page, lead, workspace);
  await page.goto(`/app/projects/${project}/pipelines/${pipeline}/edit_flow`);
  const stages = page.locator('[data-testid="flow-node"][data-kind="stage"]');
  await expect(stages).toHaveCount(8);

  // Nothing selected: after the last stage, where the fitted view's centre holds other stages.
  await page.getByTestId('flow-add-stage').click();
  await expectPlacedWell(page, 9);

  // The third stage selected: beside it, below the spot its neighbour holds.
  const third = page.locator('[data-testid="flow-node"][data-kind="stage"]').nth(2);
  await third.click();
  await expect(third).toHaveAttribute('data-selected', 'true');
  const thirdBox = (await third.boundingBox())!;
  await page.getByTestId('flow-add-stage').click();
  await expectPlacedWell(page, 10);
  const added = (await page.locator('[data-testid="flow-node"][data-selected="true"]').boundingBox())!;
  // Next to the third stage: within two stage widths of it, not somewhere else on the canvas.
  expect(Math.abs(added.x - thirdBox.x)).toBeLessThan(thirdBox.width * 2);
  expect(Math.abs(added.y - thirdBox.y)).toBeLessThan(thirdBox.height * 3);

  // Zoomed in on Start, the new stage is off screen: the view moves to it.
  for (let i = 0; i < 4; i += 1) await page.getByRole('button', { name: 'Zoom In' }).click();
  await page.getByTestId('flow-add-stage').click();
  await expectPlacedWell(page, 11);
});

test("a stage's settings: a button on the selected stage, its context menu, the palette; one Save", async ({
  page,
  request,
}) => {
  const { lead, workspace, project, pipeline } = await eightStages(request, 0);
  await signIn(page, lead, workspace);
  await page.goto(`/app/projects/${project}/pipelines/${pipeline}/edit_flow`);
  const lighting = page.locator('[data-testid="flow-node"][data-kind="stage"]').filter({ hasText: 'Lighting' });
  const drawer = page.getByTestId('stage-settings-drawer');

  // Nothing selected, no button; selected, "Settings" above it.
  await expect(page.getByTestId('flow-node-settings')).toHaveCount(0);
  await lighting.click();
  await page.getByTestId('flow-node-settings').click();
  await expect(drawer.getByTestId('stage-settings-name')).toHaveValue('Lighting');
  // One Save for the settings and the review rules.
  await expect(drawer.getByTestId('stage-rules')).toBeVisible();
  await expect(drawer.getByRole('button', { name: /^Save/ })).toHaveCount(1);
  await snap(page, 'stage-settings-one-save');
  await drawer.getByTestId('stage-rules-allow-self-review').check();
  await drawer.getByTestId('stage-settings-description').fill('Key and fill');
  await drawer.getByTestId('stage-settings-save').click();
  await expect(drawer).toBeHidden();
  const saved = await call<{ nodes: { id: number; name: string }[] }>(request, lead, 'GET', `pipelines/${pipeline}/`);
  const stageId = saved.nodes.find((n) => n.name === 'Lighting')!.id;
  const stage = await call<{ description: string; allow_self_review: boolean }>(
    request,
    lead,
    'GET',
    `stages/${stageId}/`,
  );
  expect(stage).toMatchObject({ description: 'Key and fill', allow_self_review: true });

  // The context menu.
  const grading = page.locator('[data-testid="flow-node"][data-kind="stage"]').filter({ hasText: 'Grading' });
  await grading.click({ button: 'right' });
  await page.getByTestId('flow-context-settings').click();
  await expect(drawer.getByTestId('stage-settings-name')).toHaveValue('Grading');
  await page.keyboard.press('Escape');
  await expect(drawer).toBeHidden();

  // The palette: the selection's settings.
  await openPalette(page);
  await page.getByTestId('palette-search').fill('Stage settings');
  await page.getByTestId('palette-entry').filter({ hasText: 'Stage settings' }).click();
  await expect(drawer.getByTestId('stage-settings-name')).toHaveValue('Grading');
});

/** The toolbar is one row: as high as its tallest control plus its padding, nothing cut at its end. */
async function expectOneRow(page: Page) {
  const toolbar = page.getByTestId('flow-toolbar');
  await expect(toolbar).toBeVisible();
  const { height, overflow } = await toolbar.evaluate((el) => ({
    height: el.getBoundingClientRect().height,
    overflow: el.scrollWidth - el.clientWidth,
  }));
  // One row: 6 px padding each side, 1 px borders, controls at most 30 px high.
  expect(height).toBeLessThanOrEqual(44);
  expect(overflow).toBeLessThanOrEqual(0);
  const add = (await page.getByTestId('flow-add-stage').boundingBox())!;
  const save = (await page.getByTestId('flow-save').boundingBox())!;
  expect(Math.abs(add.y + add.height / 2 - (save.y + save.height / 2))).toBeLessThan(2);
  const box = (await toolbar.boundingBox())!;
  expect(save.x + save.width).toBeLessThanOrEqual(box.x + box.width);
}

test('the editor toolbar is one row at 1280 and 400 px, in English and Russian, light and dark', async ({
  browser,
  baseURL,
  request,
}) => {
  test.setTimeout(120_000);
  const { lead, workspace, project, pipeline } = await eightStages(request, 2);
  const page = await openAs(browser, baseURL, lead, workspace);
  for (const [theme, language] of [
    ['light', 'en'],
    ['dark', 'ru'],
    ['dark', 'en'],
    ['light', 'ru'],
  ] as const) {
    await page.evaluate(
      ({ scheme, lang }) => {
        localStorage.setItem('theme', scheme);
        localStorage.setItem('language', lang);
      },
      { scheme: theme, lang: language },
    );
    for (const width of [1280, 400]) {
      await page.setViewportSize({ width, height: 800 });
      await page.goto(`/app/projects/${project}/pipelines/${pipeline}/edit_flow`);
      await expect(page.locator('[data-testid="flow-node"][data-kind="stage"]')).toHaveCount(8);
      await expectOneRow(page);
      await snap(page, `editor-${width}-${theme}-${language}`);
    }
  }
});

test('the fitted pipeline overview shows each stage with its counts', async ({ page, request }) => {
  const { lead, workspace, project, pipeline } = await eightStages(request, 3);
  await signIn(page, lead, workspace);
  await page.goto(`/app/projects/${project}/pipelines/${pipeline}`);
  // Eight stages in a row fit the screen zoomed out: the compact stages, each with its counts.
  const compact = page.locator('[data-testid="flow-node"][data-kind="stage"][data-compact="true"]');
  await expect(compact).toHaveCount(8);
  await expect(compact.getByTestId('flow-node-counters')).toHaveCount(8);
  await expect(compact.first().locator('[data-status]').first()).toHaveText('3');
  await snap(page, 'pipeline-overview-compact-counts');
});

test('at 1280 px an eight-stage matrix shows all eight columns without sideways scroll', async ({ page, request }) => {
  const { lead, workspace, project, pipeline } = await eightStages(request, 12);
  await signIn(page, lead, workspace);
  await page.goto(`/app/projects/${project}/units?pipeline=${pipeline}`);
  const heads = page.getByTestId('matrix-stage');
  await expect(heads).toHaveCount(8);
  const matrix = page.getByTestId('matrix');
  await expect(page.getByTestId('matrix-row')).toHaveCount(12);
  const frame = (await matrix.boundingBox())!;
  for (const head of await heads.all()) expect(inside((await head.boundingBox())!, frame)).toBe(true);
  const sideways = await matrix.evaluate((el) => el.scrollWidth - el.clientWidth);
  expect(sideways).toBeLessThanOrEqual(0);
  // The card takes the width beside the sidebar; a form keeps the centred card.
  expect((await page.getByTestId('page-card').boundingBox())!.width).toBeGreaterThan(980);
  await snap(page, 'units-matrix-1280-eight-stages');
  await page.goto(`/app/projects/${project}/edit`);
  // The matrix's card may still be on screen while the form's replaces it: ask until the form's is.
  await expect
    .poll(async () => (await page.getByTestId('page-card').boundingBox())?.width ?? Number.POSITIVE_INFINITY)
    .toBeLessThanOrEqual(960);
});
