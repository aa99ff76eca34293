import type { Page } from '@playwright/test';
import { registerUser, uniqueName } from './support/accounts';
import { call, oneStagePipeline, openAs, teamWorkspace } from './support/api';
import { expect, snap, test } from './support/fixtures';
import { openPalette } from './support/palette';

/** Keyboard-first (docs/guide: keyboard): the command palette, one-key actions and `g` navigation. */

const taskStatus = (page: Page) => page.getByTestId('task-status');

test('the palette finds a task by name, opens it, and its Accept runs from the palette', async ({
  browser,
  baseURL,
  request,
}) => {
  const lead = await registerUser(request, { firstName: 'Lena' });
  const team = await teamWorkspace(request, lead, [], uniqueName('Palette'));
  const unitName = uniqueName('Harbour shot');
  const flow = await oneStagePipeline(request, lead, team.project, { default_reviewers: [lead.id] }, [unitName]);
  const task = flow.tasks[0]!;
  await call(request, lead, 'POST', `tasks/${task}/start/`);
  await call(request, lead, 'POST', `tasks/${task}/submit/`);

  const page = await openAs(browser, baseURL, lead, team.workspace);
  await page.goto('/app');
  await expect(page.getByTestId('my-work-item').first()).toBeVisible();
  await openPalette(page);
  await page.getByTestId('palette-search').fill(`${unitName} layout`);
  const hit = page.getByTestId('palette-entry').filter({ hasText: `${unitName} · Layout` });
  await expect(hit).toBeVisible();
  await snap(page, 'palette-search');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/app/tasks/${task}$`));
  await expect(taskStatus(page)).toHaveAttribute('data-status', 'review');

  // The open task's actions are in the palette too; Accept opens the same dialog as the button.
  await openPalette(page);
  await page.getByTestId('palette-search').fill('accept');
  await page.getByTestId('palette-entry').filter({ hasText: 'Accept the task' }).click();
  await page.getByTestId('accept-confirm').click();
  await expect(taskStatus(page)).toHaveAttribute('data-status', 'done');

  // Recent places come first on the next open.
  await openPalette(page);
  await expect(page.getByTestId('palette-entry').first()).toContainText(`${unitName} · Layout`);
  await page.keyboard.press('Escape');
});

test('one-key shortcuts: ? lists them, g n goes to notifications, r opens the reject dialog, never while typing', async ({
  browser,
  baseURL,
  request,
}) => {
  const lead = await registerUser(request);
  const team = await teamWorkspace(request, lead, [], uniqueName('Keys'));
  const flow = await oneStagePipeline(request, lead, team.project, { default_reviewers: [lead.id] }, ['Shot 1']);
  const task = flow.tasks[0]!;
  await call(request, lead, 'POST', `tasks/${task}/start/`);
  await call(request, lead, 'POST', `tasks/${task}/submit/`);
  const page = await openAs(browser, baseURL, lead, team.workspace);
  await page.goto(`/app/tasks/${task}`);
  await expect(taskStatus(page)).toHaveAttribute('data-status', 'review');

  await page.keyboard.press('Shift+?');
  await expect(page.getByRole('dialog', { name: 'Keyboard shortcuts' })).toBeVisible();
  await snap(page, 'shortcuts-help');
  await page.keyboard.press('Escape');

  // Typing `r` in the comment box writes an r; outside it, `r` opens the reject dialog.
  await page.keyboard.press('c');
  const box = page.locator('textarea:focus');
  await expect(box).toBeVisible();
  await page.keyboard.type('rrr');
  await expect(box).toHaveValue('rrr');
  await expect(page.getByTestId('reject-confirm')).toBeHidden();
  await box.blur();
  await page.keyboard.press('r');
  await expect(page.getByTestId('reject-confirm')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('reject-confirm')).toBeHidden();

  await page.keyboard.press('g');
  await page.keyboard.press('n');
  await expect(page).toHaveURL(/\/app\/notifications$/);
});

test("the palette's theme command offers the scheme the page does not show, System included", async ({
  browser,
  baseURL,
  request,
}) => {
  const user = await registerUser(request, { firstName: 'Nadia' });
  const team = await teamWorkspace(request, user, [], uniqueName('Themes'));
  const page = await openAs(browser, baseURL, user, team.workspace);
  // No stored choice ("System") on a dark system: the page is dark, so the command is the light theme.
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.evaluate(() => localStorage.removeItem('theme'));
  await page.goto('/app');
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
  await openPalette(page);
  await page.getByTestId('palette-search').fill('theme');
  await page.getByTestId('palette-entry').filter({ hasText: 'Switch to the light theme' }).click();
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'light');
  await openPalette(page);
  await page.getByTestId('palette-search').fill('theme');
  await expect(page.getByTestId('palette-entry').filter({ hasText: 'Switch to the dark theme' })).toBeVisible();
  await page.keyboard.press('Escape');
});
