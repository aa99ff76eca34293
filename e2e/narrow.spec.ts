import type { Page } from '@playwright/test';
import { registerUser, uniqueName } from './support/accounts';
import { call, oneStagePipeline, openAs, teamWorkspace } from './support/api';
import { expect, snap, test } from './support/fixtures';

/**
 * Every main screen at phone width (400 px) and at 1280 px, in both languages and themes: the page never scrolls
 * sideways and no text runs out of its box (docs/decisions.md, entry 70). Text cut on purpose
 * with an ellipsis, and boxes that scroll (the matrix, tables, the diagram), are fine.
 */

/**
 * What reads wrong: text wider than its box (cut by a clipping ancestor or spilling out; an ellipsis
 * is fine if it leaves a few letters), a word of the language broken across lines, and a page that
 * scrolls sideways. Boxes that scroll (the matrix, tables, the diagram) may hold wider content.
 */
async function overflowing(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = [];
    const describe = (el: HTMLElement) =>
      `${el.tagName.toLowerCase()}${el.dataset.testid ? `[${el.dataset.testid}]` : ''} "${el.textContent?.trim().slice(0, 40)}"`;
    const inScroller = (el: Element) => {
      for (let node = el.parentElement; node; node = node.parentElement) {
        if (['auto', 'scroll'].includes(getComputedStyle(node).overflowX)) return true;
      }
      return false;
    };
    for (const el of Array.from(document.querySelectorAll<HTMLElement>('body *'))) {
      const texts = Array.from(el.childNodes).filter((n) => n.nodeType === Node.TEXT_NODE && n.textContent?.trim());
      if (!texts.length || el.offsetParent === null || inScroller(el)) continue;
      const style = getComputedStyle(el);
      if (style.textOverflow === 'ellipsis') {
        // Cut on purpose, but not down to a letter or two.
        if (el.scrollWidth > el.clientWidth + 1 && el.clientWidth < 3 * parseFloat(style.fontSize))
          found.push(`${describe(el)} is cut to ${el.clientWidth}px`);
      } else if (style.display !== 'inline' && el.scrollWidth > el.clientWidth + 1) {
        found.push(`${describe(el)} overflows: ${el.scrollWidth} > ${el.clientWidth}`);
      }
      for (const node of texts) {
        const text = node.textContent ?? '';
        for (const match of text.matchAll(/\p{L}{3,}/gu)) {
          const range = document.createRange();
          range.setStart(node, match.index);
          range.setEnd(node, match.index + match[0].length);
          const lines = new Set(Array.from(range.getClientRects()).map((rect) => Math.round(rect.top)));
          if (lines.size > 1) found.push(`${describe(el)} breaks the word "${match[0]}"`);
        }
      }
    }
    if (document.documentElement.scrollWidth > window.innerWidth + 1)
      found.push(`the page scrolls sideways: ${document.documentElement.scrollWidth} > ${window.innerWidth}`);
    return found;
  });
}

test('main screens at 400 and 1280 px, English in light and Russian in dark: no sideways scroll, no text out of its box', async ({
  browser,
  baseURL,
  request,
}) => {
  test.setTimeout(180_000);
  const lead = await registerUser(request, { firstName: 'Konstantin' });
  const team = await teamWorkspace(request, lead, [], uniqueName('Narrow studio workspace'));
  const flow = await oneStagePipeline(
    request,
    lead,
    team.project,
    { default_assignees: [lead.id], default_reviewers: [lead.id] },
    ['Harbour establishing shot 010', 'Market 020'],
  );
  await call(request, lead, 'POST', `tasks/${flow.tasks[0]}/start/`);
  const unit = (await call<{ results: { id: number }[] }>(request, lead, 'GET', `units/?project=${team.project}`))
    .results[0]!;

  const screens: [string, string, string][] = [
    ['my-work', '/app', 'my-work-item'],
    ['workspaces', '/app/workspaces', ''],
    ['workspace', `/app/workspaces/${team.workspace}`, ''],
    ['project', `/app/projects/${team.project}`, 'project-workload-person'],
    ['pipelines', `/app/projects/${team.project}/pipelines`, ''],
    ['pipeline', `/app/projects/${team.project}/pipelines/${flow.pipeline}`, 'pipeline-diagram'],
    ['units', `/app/projects/${team.project}/units`, 'matrix-row'],
    ['unit', `/app/projects/${team.project}/units/${unit.id}`, ''],
    ['task', `/app/tasks/${flow.tasks[0]}`, 'task-status'],
    ['notifications', '/app/notifications', ''],
    ['profile', '/app/profile', ''],
  ];
  const problems: string[] = [];
  // Layout follows the language (Russian words are longer) and the width, not the theme: each
  // language is checked once, in its own theme, so both themes are pictured too.
  const looks = [
    ['light', 'en'],
    ['dark', 'ru'],
  ] as const;
  for (const [theme, language] of looks) {
    const page = await openAs(browser, baseURL, lead, team.workspace);
    await page.evaluate(
      ({ scheme, lang }) => {
        localStorage.setItem('theme', scheme);
        localStorage.setItem('language', lang);
      },
      { scheme: theme, lang: language },
    );
    // Each screen is opened once, on a phone, then the window is widened: half the page loads of
    // opening it at each width, and a resized window must lay out as well as a fresh one.
    for (const [name, path, ready] of screens) {
      await page.setViewportSize({ width: 400, height: 800 });
      await page.goto(path);
      if (ready) await expect(page.getByTestId(ready).first()).toBeVisible();
      else await expect(page.locator('main h1, main h2').first()).toBeVisible();
      for (const width of [400, 1280]) {
        await page.setViewportSize({ width, height: 800 });
        await page.waitForTimeout(150); // fonts and late layout
        for (const problem of await overflowing(page))
          problems.push(`${name} ${width}px ${theme} ${language}: ${problem}`);
        await snap(page, `${width === 400 ? 'narrow' : 'wide'}-${name}-${theme}-${language}`);
      }
    }
    await page.context().close();
  }
  expect(problems).toEqual([]);
});
