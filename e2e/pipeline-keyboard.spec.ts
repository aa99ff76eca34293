import type { Page } from '@playwright/test';
import { registerUser, signInAs, uniqueName } from './support/accounts';
import { call } from './support/api';
import { expect, snap, test } from './support/fixtures';

/**
 * The diagram editor by keyboard alone (issue 20, docs/guide keyboard-shortcuts): a three-stage
 * pipeline built, named, saved and checked without a single mouse event — only key presses, and
 * typing into the field that has the focus. Every action is announced in the live region.
 */

type TPipelineRecord = {
  nodes: { id: number; kind: 'root' | 'end' | 'stage'; name: string }[];
  edges: { source: number; target: number }[];
};

const announcer = (page: Page) => page.getByTestId('flow-announcer');
/** How many stages the editor holds (the diagram draws only those in view). */
const stageCount = (page: Page) => page.getByTestId('flow-stage-count');

/** The focused node's kind and name, or null when the focus is not on a node. */
async function focused(page: Page): Promise<{ kind: string; label: string; id: string } | null> {
  return page.evaluate(() => {
    const element = document.activeElement;
    if (!(element instanceof HTMLElement) || !element.classList.contains('react-flow__node')) return null;
    const inner = element.querySelector('[data-testid="flow-node"]');
    return {
      kind: inner?.getAttribute('data-kind') ?? '',
      label: element.getAttribute('aria-label') ?? '',
      id: element.dataset.id ?? '',
    };
  });
}

async function expectFocusOn(page: Page, label: string) {
  await expect.poll(async () => (await focused(page))?.label).toBe(label);
}

/** Names the focused stage through its settings: Enter opens them, the name field has the focus. */
async function rename(page: Page, name: string) {
  await page.keyboard.press('Enter');
  const field = page.getByTestId('stage-settings-name');
  await expect(field).toBeFocused();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type(name);
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('stage-settings-drawer').getByTestId('stage-settings-form')).toHaveCount(0);
  await expectFocusOn(page, name);
  await expect(announcer(page)).toContainText(`Settings of ${name} saved`);
}

/** Chooses a stage in the open connect / disconnect list by typing and confirms it. */
async function choose(page: Page, text: string) {
  const select = page.getByTestId('flow-link-select');
  await expect(select).toBeFocused();
  await page.keyboard.type(text);
  // The typed text alone fills the field: wait for the filtered option, then for the choice to be
  // made (the confirm button enables and the list closes) before the second Enter confirms it.
  await expect(page.getByRole('option', { name: text })).toBeVisible();
  await page.keyboard.press('ArrowDown');
  await expect(select).toHaveAttribute('aria-activedescendant', /.+/);
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('flow-link-confirm')).toBeEnabled();
  await expect(select).toHaveAttribute('aria-expanded', 'false');
  await expect(select).toHaveValue(new RegExp(text));
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('flow-link-select')).toBeHidden();
}

test('build a three-stage pipeline with the keyboard alone, every step announced', async ({ page, request }) => {
  test.setTimeout(90_000);
  const user = await registerUser(request);
  const workspace = await call<{ id: number }>(request, user, 'POST', 'workspaces/', { name: uniqueName('Keys') });
  const project = await call<{ id: number }>(request, user, 'POST', 'projects/', {
    workspace: workspace.id,
    name: 'Film',
  });
  const pipeline = await call<{ id: number }>(request, user, 'POST', 'pipelines/', {
    project: project.id,
    name: 'By keyboard',
    layout: 'horizontal',
  });
  await signInAs(page, user);
  await page.evaluate((id) => localStorage.setItem('current_workspace', String(id)), workspace.id);
  await page.goto(`/app/projects/${project.id}/pipelines/${pipeline.id}/edit_flow`);
  await expect(page.locator('[data-testid="flow-node"][data-kind="root"]')).toBeVisible();
  await expect(page.getByTestId('flow-canvas')).toHaveAttribute('data-placed', 'true');

  // Tab reaches the diagram's nodes; ← goes to the nearest node on the left until Start.
  let reached = null as Awaited<ReturnType<typeof focused>>;
  for (let i = 0; i < 60 && !reached; i += 1) {
    await page.keyboard.press('Tab');
    reached = await focused(page);
  }
  expect(reached, 'Tab reaches a node of the diagram').not.toBeNull();
  for (let i = 0; i < 3 && (await focused(page))?.kind !== 'root'; i += 1) await page.keyboard.press('ArrowLeft');
  await expectFocusOn(page, 'Start');
  await expect(page.locator('.react-flow__node:focus-visible')).toHaveCount(1);

  // N adds a stage after the focused node, connected from it, and moves the focus to it.
  await page.keyboard.press('n');
  await expectFocusOn(page, 'Stage 1');
  await expect(announcer(page)).toHaveText('Stage 1 added after Start');
  await page.keyboard.press('n');
  await expectFocusOn(page, 'Stage 2');
  await expect(announcer(page)).toHaveText('Stage 2 added after Stage 1');
  await page.keyboard.press('n');
  await expectFocusOn(page, 'Stage 3');
  await expect(announcer(page)).toHaveText('Stage 3 added after Stage 2');
  await expect(stageCount(page)).toHaveAttribute('data-count', '3');

  // C connects the focused stage to one chosen from a list.
  await page.keyboard.press('c');
  await choose(page, 'End');
  await expect(announcer(page)).toHaveText('Connected Stage 3 to End');
  await expectFocusOn(page, 'Stage 3');

  // A fourth stage, moved with Shift+arrows, then deleted: the focus goes back to the stage before.
  await page.keyboard.press('n');
  await expectFocusOn(page, 'Stage 4');
  const before = await page.locator('.react-flow__node:focus').boundingBox();
  await page.keyboard.press('Shift+ArrowDown');
  await expect(announcer(page)).toHaveText('Moved Stage 4');
  await page.keyboard.press('Shift+ArrowDown');
  await expect(announcer(page)).toContainText('Moved Stage 4');
  await expect
    .poll(async () => (await page.locator('.react-flow__node:focus').boundingBox())!.y)
    .toBeGreaterThan(before!.y);
  await page.keyboard.press('Delete');
  await expect(announcer(page)).toHaveText('Deleted Stage 4');
  await expect(stageCount(page)).toHaveAttribute('data-count', '3');
  await expectFocusOn(page, 'Stage 3');

  // D removes a connection chosen from a list: an extra Start → End drawn and taken away again.
  await page.keyboard.press('ArrowLeft');
  await expectFocusOn(page, 'Stage 2');
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  await expectFocusOn(page, 'Start');
  await page.keyboard.press('c');
  await choose(page, 'End');
  await expect(announcer(page)).toHaveText('Connected Start to End');
  // The list gives the focus back to the stage it was opened on (keys pressed before that are the page's).
  await expectFocusOn(page, 'Start');
  await page.keyboard.press('d');
  await choose(page, 'End');
  await expect(announcer(page)).toHaveText('Disconnected Start from End');
  await expectFocusOn(page, 'Start');

  // Enter opens a stage's settings; the graph is saved first (the editor asks), then it is named.
  await page.keyboard.press('ArrowRight');
  await expectFocusOn(page, 'Stage 1');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('flow-save-first-confirm')).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('stage-settings-name')).toBeFocused();
  await page.keyboard.press('Escape');
  await expectFocusOn(page, 'Stage 1');
  await expect(page.getByTestId('flow-status')).toHaveAttribute('data-dirty', 'false');
  await rename(page, 'Layout');
  // The arrows reach any stage, in view or not (the view follows); Tab only those drawn (in view),
  // which the start of this test covers. End sits right of Layout, Stage 2 under End.
  await page.keyboard.press('ArrowRight');
  await expectFocusOn(page, 'End');
  await page.keyboard.press('ArrowDown');
  await expectFocusOn(page, 'Stage 2');
  await rename(page, 'Animation');
  await page.keyboard.press('ArrowRight');
  await expectFocusOn(page, 'Stage 3');
  await rename(page, 'Review');
  await snap(page, 'flow-editor-keyboard');

  // A move makes the graph unsaved again; Ctrl+S saves it.
  await page.keyboard.press('Shift+ArrowUp');
  await expect(page.getByTestId('flow-status')).toHaveAttribute('data-dirty', 'true');
  await page.keyboard.press('ControlOrMeta+s');
  await expect(page.getByTestId('flow-status')).toHaveAttribute('data-dirty', 'false');
  await expect(announcer(page)).toHaveText('Pipeline saved');

  // The saved graph: start → Layout → Animation → Review → end, on the screen and through the API.
  await page.reload();
  await expect(stageCount(page)).toHaveAttribute('data-count', '3');
  await expect(page.getByTestId('flow-status')).toHaveAttribute('data-dirty', 'false');
  const saved = await call<TPipelineRecord>(request, user, 'GET', `pipelines/${pipeline.id}/`);
  const name = new Map(saved.nodes.map((n) => [n.id, n.kind === 'stage' ? n.name : n.kind]));
  expect(saved.edges.map((e) => `${name.get(e.source)}→${name.get(e.target)}`).sort()).toEqual(
    ['root→Layout', 'Layout→Animation', 'Animation→Review', 'Review→end'].sort(),
  );
});
