import { registerUser, uniqueName } from './support/accounts';
import { oneStagePipeline, openAs, teamWorkspace } from './support/api';
import { expect, snap, test } from './support/fixtures';

/** Estimates and the timesheet (docs/time.md): a lead estimates a task, an artist logs a week by keyboard. */

test('a lead sets an estimate; an artist logs hours in the timesheet by keyboard and they stay', async ({
  browser,
  baseURL,
  request,
}) => {
  const lead = await registerUser(request, { firstName: 'Vera' });
  const artist = await registerUser(request, { firstName: 'Oleg' });
  const team = await teamWorkspace(request, lead, [artist], uniqueName('Time'));
  const flow = await oneStagePipeline(request, lead, team.project, { default_assignees: [artist.id] }, ['Harbour 010']);
  const task = flow.tasks[0]!;

  // The lead sets the estimate on the task's Details: 12 h is 1.5 days of 8 hours.
  const page = await openAs(browser, baseURL, lead, team.workspace);
  await page.goto(`/app/tasks/${task}`);
  await expect(page.getByTestId('task-time')).toBeVisible();
  await expect(page.getByTestId('task-estimate')).toHaveText('No estimate');
  await page.getByTestId('task-estimate-input').fill('12');
  await page.getByTestId('task-estimate-save').click();
  await expect(page.getByTestId('task-estimate')).toHaveText('Estimate: 12 h (1.5 d)');

  // The artist types hours into next week's first two days (this week's may be before the project
  // was made, which the server refuses): 1.5, Tab, 2, Enter.
  const other = await openAs(browser, baseURL, artist, team.workspace);
  await other.goto('/app/time');
  await expect(other.getByTestId('timesheet-row')).toHaveCount(1);
  await other.getByTestId('timesheet-next').click();
  const row = other.getByTestId('timesheet-row').filter({ hasText: 'Harbour 010' });
  await expect(row).toHaveCount(1);
  const cells = row.getByTestId('time-cell');
  await cells.nth(0).click();
  await other.keyboard.type('1.5');
  await other.keyboard.press('Tab');
  await expect(cells.nth(1)).toBeFocused();
  await other.keyboard.type('2');
  await other.keyboard.press('Enter');
  await expect(other.getByTestId('timesheet-week-total')).toHaveText('3.5');
  // Enter keeps the focus in the cell, so Tab goes on from there.
  await expect(cells.nth(1)).toBeFocused();
  await expect(row.getByTestId('timesheet-row-total')).toHaveText('3.5');
  // A bad value is refused in place, and nothing is saved.
  await cells.nth(2).click();
  await other.keyboard.type('1.234');
  await other.keyboard.press('Enter');
  await expect(cells.nth(2)).toHaveAttribute('aria-invalid', 'true');
  await other.keyboard.press('Escape');
  await snap(other, 'timesheet-week');

  await other.reload();
  await other.getByTestId('timesheet-next').click();
  await expect(other.getByTestId('timesheet-week-total')).toHaveText('3.5');
  await expect(row.getByTestId('time-cell').nth(0)).toHaveValue('1.5');
  await expect(row.getByTestId('time-cell').nth(1)).toHaveValue('2');

  // At 400 px the week scrolls sideways inside its frame; the page does not.
  await other.setViewportSize({ width: 400, height: 800 });
  await expect(other.getByTestId('timesheet-week-total')).toHaveText('3.5');
  const widths = await other.getByTestId('timesheet-grid').evaluate((frame) => ({
    frame: frame.clientWidth,
    table: frame.scrollWidth,
    page: document.documentElement.scrollWidth,
  }));
  expect(widths.table).toBeGreaterThan(widths.frame);
  expect(widths.page).toBeLessThanOrEqual(400);
  await snap(other, 'timesheet-narrow');

  // The task shows the hours logged and the history names the days.
  await page.reload();
  await expect(page.getByTestId('task-spent')).toHaveText('Logged: 3.5 h');
});
