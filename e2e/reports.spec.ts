import { readFile } from 'node:fs/promises';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { registerUser, signInAs, uniqueName } from './support/accounts';
import { call, oneStagePipeline, openAs, teamWorkspace } from './support/api';
import { expect, snap, test } from './support/fixtures';

/**
 * Reports (docs/reports.md): a lead opens a project's reports, sees the first-pass rate, and watches
 * it change live when a reviewer rejects a task; each chart has a table and a CSV of the same
 * numbers; axe finds nothing serious in either theme or language (docs/accessibility.md).
 */

const tags = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

async function seriousFindings(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withTags(tags).analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

test('the first-pass rate changes live as a reviewer rejects; tables, CSV and axe', async ({
  browser,
  baseURL,
  request,
}) => {
  const lead = await registerUser(request, { firstName: 'Rita' });
  const artist = await registerUser(request, { firstName: 'Pavel' });
  const team = await teamWorkspace(request, lead, [artist], uniqueName('Reports'));
  const flow = await oneStagePipeline(request, lead, team.project, { default_reviewers: [lead.id] }, [
    'Shot 010',
    'Shot 020',
    'Shot 030',
  ]);
  const [first, second] = flow.tasks as [number, number];
  for (const task of [first, second]) {
    await call(request, artist, 'POST', `tasks/${task}/start/`);
    await call(request, artist, 'POST', `tasks/${task}/submit/`);
  }
  await call(request, lead, 'POST', `tasks/${first}/accept/`);

  const page = await openAs(browser, baseURL, lead, team.workspace);
  await page.goto(`/app/projects/${team.project}`);
  await page.getByTestId('project-reports-open').click();
  await expect(page).toHaveURL(new RegExp(`/app/projects/${team.project}/reports$`));
  await expect(page.getByTestId('first-pass-rate')).toHaveText('100%');
  await expect(page.getByTestId('first-pass-counts')).toHaveText('1 of 1 accepted in round 1');
  await expect(page.locator('.recharts-surface').first()).toBeVisible();

  // The reviewer rejects the second task elsewhere: the rate follows without a reload.
  await call(request, lead, 'POST', `tasks/${second}/reject/`, { comment: 'Timing is off' });
  await expect(page.getByTestId('first-pass-rate')).toHaveText('50%');
  await expect(page.getByTestId('first-pass-counts')).toHaveText('1 of 2 accepted in round 1');

  // The same numbers as a table with headers, and as CSV.
  const panel = page.getByTestId('report-first-pass');
  await panel.getByTestId('report-first-pass-table-tab').click();
  const table = panel.getByTestId('report-first-pass-table');
  await expect(table.getByRole('columnheader')).toHaveText(['Stage', 'Rounds 1', 'Accepted', 'Rate']);
  await expect(table.getByRole('row').nth(1)).toHaveText(['Layout', '2', '1', '50%'].join(''));
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    panel.getByTestId('report-first-pass-csv').click(),
  ]);
  expect(download.suggestedFilename()).toBe('first-pass-by-stage.csv');
  const csv = await readFile(await download.path(), 'utf8');
  expect(csv.replace('\uFEFF', '')).toBe('Stage,Rounds 1,Accepted,Rate\r\nLayout,2,1,50%\r\n');

  // Overdue and blocked now: two open tasks at Layout (Shot 010 is done), none late or waiting.
  await page.getByTestId('report-blocking-table-tab').click();
  await expect(page.getByTestId('report-blocking-table').getByRole('row').nth(1)).toHaveText('Layout200');
  await snap(page, 'reports');
  expect(await seriousFindings(page)).toEqual([]);

  // Filters live in the URL: someone who submitted nothing has no rounds.
  await page.getByTestId('reports-person').click();
  await page.getByRole('option', { name: 'Rita' }).click();
  await expect(page).toHaveURL(new RegExp(`person=${lead.id}`));
  await expect(page.getByTestId('first-pass-rate')).toHaveText('—');
  await expect(page.getByTestId('first-pass-counts')).toHaveText('0 of 0 accepted in round 1');

  // Dark theme, Russian.
  const context = await browser.newContext({ baseURL, colorScheme: 'dark', locale: 'ru-RU' });
  await context.addInitScript(() => {
    localStorage.setItem('theme', 'dark');
    localStorage.setItem('language', 'ru');
  });
  const dark = await context.newPage();
  await signInAs(dark, lead);
  await dark.evaluate((id) => localStorage.setItem('current_workspace', String(id)), team.workspace);
  await dark.goto(`/app/projects/${team.project}/reports`);
  await expect(dark.getByRole('heading', { level: 1 })).toHaveText('Отчёты');
  await expect(dark.getByTestId('first-pass-rate')).toHaveText(/^50\s?%$/);
  await dark.getByTestId('report-burnup-table-tab').click();
  await expect(dark.getByTestId('report-burnup-table')).toBeVisible();
  await snap(dark, 'reports-dark-ru');
  expect(await seriousFindings(dark)).toEqual([]);
  await context.close();
});
