import { registerUser, uniqueName } from './support/accounts';
import { call, oneStagePipeline, openAs, teamWorkspace } from './support/api';
import { expect, snap, test } from './support/fixtures';
import { openPalette } from './support/palette';

/** Saved views (docs/decisions.md, entry 66): the matrix's filters saved by name and shared. */

test('a lead saves the matrix filters as a shared view; another member opens it from the menu and the palette', async ({
  browser,
  baseURL,
  request,
}) => {
  const lead = await registerUser(request, { firstName: 'Vera' });
  const artist = await registerUser(request, { firstName: 'Oleg' });
  const team = await teamWorkspace(request, lead, [artist], uniqueName('Views'));
  const flow = await oneStagePipeline(request, lead, team.project, { default_reviewers: [lead.id] }, [
    'Harbour 010',
    'Harbour 020',
    'Market 010',
  ]);
  await call(request, lead, 'POST', `tasks/${flow.tasks[0]}/start/`);

  const page = await openAs(browser, baseURL, lead, team.workspace);
  await page.goto(`/app/projects/${team.project}/units?status=in_progress`);
  await expect(page.getByTestId('matrix-row')).toHaveCount(1);
  await page.getByTestId('views-menu').click();
  await page.getByTestId('view-save').click();
  await page.getByTestId('view-name').fill('Working now');
  await page.getByTestId('view-shared').check();
  await page.getByTestId('view-submit').click();
  await expect(page.getByTestId('views-menu')).toHaveText('Working now');
  await snap(page, 'views-saved');

  // Oleg, a member, sees the shared view beside his matrix; opening it sets the URL's filters.
  const other = await openAs(browser, baseURL, artist, team.workspace);
  await other.goto(`/app/projects/${team.project}/units`);
  await expect(other.getByTestId('matrix-row')).toHaveCount(3);
  await other.getByTestId('views-menu').click();
  const item = other.getByTestId('view-item').filter({ hasText: 'Working now' });
  await expect(item).toContainText('Vera');
  await item.click();
  await expect(other).toHaveURL(/status=in_progress/);
  await expect(other.getByTestId('matrix-row')).toHaveCount(1);
  await expect(other.getByTestId('views-menu')).toHaveText('Working now');
  // Not his to change: the menu offers no update, rename or delete.
  await other.getByTestId('views-menu').click();
  await expect(other.getByTestId('view-save')).toBeVisible();
  await expect(other.getByTestId('view-delete')).toHaveCount(0);
  await other.keyboard.press('Escape');

  // The palette lists the project's views too.
  await other.goto(`/app/projects/${team.project}/units`);
  await expect(other.getByTestId('matrix-row')).toHaveCount(3);
  await openPalette(other);
  await other.getByTestId('palette-search').fill('working');
  await other.getByTestId('palette-entry').filter({ hasText: 'Working now' }).click();
  await expect(other).toHaveURL(/status=in_progress/);
  await expect(other.getByTestId('matrix-row')).toHaveCount(1);

  // The author deletes it; it leaves Oleg's menu too.
  await page.getByTestId('views-menu').click();
  await page.getByTestId('view-delete').click();
  await expect(page.getByTestId('views-menu')).toHaveText('Views');
  await other.reload();
  await other.getByTestId('views-menu').click();
  await expect(other.getByTestId('view-item')).toHaveCount(0);
});
