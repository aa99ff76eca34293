import type { Browser, Page } from '@playwright/test';
import { registerUser, uniqueName, type TestUser } from './support/accounts';
import { call, oneStagePipeline, openAs, teamWorkspace } from './support/api';
import { expect, snap, test } from './support/fixtures';

/**
 * Issue 33's journey, end to end (docs/time.md, docs/reports.md): a lead sets estimates, two artists
 * log a week in the timesheet by keyboard, and the lead's reports show the burn-up, the first-pass
 * rate and estimate vs spent, which follow live as a reviewer rejects a task and its artist logs
 * the rework.
 */

const dayFromNow = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/** `artist` types `hours` into next week's first days on `unit`'s row (this week's may precede the project). */
async function logNextWeek(
  browser: Browser,
  baseURL: string | undefined,
  artist: TestUser,
  workspace: number,
  unit: string,
  hours: string[],
) {
  const page = await openAs(browser, baseURL, artist, workspace);
  await page.goto('/app/time');
  await page.getByTestId('timesheet-next').click();
  const row = page.getByTestId('timesheet-row').filter({ hasText: unit });
  await expect(row).toHaveCount(1);
  const cells = row.getByTestId('time-cell');
  await cells.nth(0).click();
  for (const [i, value] of hours.entries()) {
    await page.keyboard.type(value);
    await page.keyboard.press(i === hours.length - 1 ? 'Enter' : 'Tab');
  }
  const total = hours.reduce((sum, value) => sum + Number(value), 0);
  await expect(row.getByTestId('timesheet-row-total')).toHaveText(String(total));
  await page.context().close();
}

async function setEstimate(page: Page, task: number, hours: string) {
  await page.goto(`/app/tasks/${task}`);
  await page.getByTestId('task-estimate-input').fill(hours);
  await page.getByTestId('task-estimate-save').click();
  await expect(page.getByTestId('task-estimate')).toContainText(`Estimate: ${hours} h`);
}

test('estimates, two timesheets, and reports that follow a rejection and the rework live', async ({
  browser,
  baseURL,
  request,
}) => {
  const lead = await registerUser(request, { firstName: 'Nadia' });
  const anna = await registerUser(request, { firstName: 'Anna' });
  const boris = await registerUser(request, { firstName: 'Boris' });
  const team = await teamWorkspace(request, lead, [anna, boris], uniqueName('Producer'));
  const flow = await oneStagePipeline(
    request,
    lead,
    team.project,
    { default_reviewers: [lead.id], default_assignees: [anna.id, boris.id] },
    ['Shot 010', 'Shot 020'],
  );
  const [first, second] = flow.tasks as [number, number];

  const page = await openAs(browser, baseURL, lead, team.workspace);
  await setEstimate(page, first, '4');
  await setEstimate(page, second, '6');

  await logNextWeek(browser, baseURL, anna, team.workspace, 'Shot 010', ['3', '2']);
  await logNextWeek(browser, baseURL, boris, team.workspace, 'Shot 020', ['4']);
  for (const [artist, task] of [
    [anna, first],
    [boris, second],
  ] as const) {
    await call(request, artist, 'POST', `tasks/${task}/start/`);
    await call(request, artist, 'POST', `tasks/${task}/submit/`);
  }
  await call(request, lead, 'POST', `tasks/${first}/accept/`);

  // The range reaches into next week, where the hours were logged.
  await page.goto(`/app/projects/${team.project}/reports?to=${dayFromNow(14)}`);
  await expect(page.getByTestId('first-pass-rate')).toHaveText('100%');
  await expect(page.getByTestId('estimates-ratio')).toHaveText('90%');
  await expect(page.getByTestId('estimates-total')).toHaveText(
    '9 h spent of 10 h estimated; 0 h on tasks without an estimate',
  );
  const burnup = page.getByTestId('report-burnup');
  await burnup.getByTestId('report-burnup-table-tab').click();
  // Today's row: one task done at Layout, two in scope.
  await expect(burnup.getByRole('row').filter({ hasText: dayFromNow(0) })).toHaveText(`${dayFromNow(0)}12`);
  const overruns = page.getByTestId('report-overruns');
  await overruns.getByTestId('report-overruns-table-tab').click();
  await expect(overruns.getByRole('row')).toHaveCount(2);
  await expect(overruns.getByRole('row').nth(1)).toHaveText('Shot 010Layout451');

  // The reviewer rejects Shot 020, and Boris logs two more hours of rework: both follow live.
  await call(request, lead, 'POST', `tasks/${second}/reject/`, { comment: 'Keys are floaty' });
  await expect(page.getByTestId('first-pass-rate')).toHaveText('50%');
  await call(request, boris, 'POST', `tasks/${second}/time/`, { date: dayFromNow(1), hours: 4 });
  await expect(page.getByTestId('estimates-ratio')).toHaveText('130%');
  await expect(overruns.getByRole('row')).toHaveCount(3);
  await expect(overruns.getByRole('row').nth(1)).toHaveText('Shot 020Layout682');

  const people = page.getByTestId('report-estimates-people');
  await people.getByTestId('report-estimates-people-table-tab').click();
  await expect(people.getByRole('row').nth(1)).toContainText('Boris');
  await snap(page, 'reports-estimates');
});
