import type { Browser, Page } from '@playwright/test';
import { nextCode, registerUser, signInAs, submitRegisterForm, uniqueName, type TestUser } from './support/accounts';
import { call } from './support/api';
import { expect, snap, test } from './support/fixtures';

async function userPage(browser: Browser, baseURL: string | undefined, user: TestUser): Promise<Page> {
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  await signInAs(page, user);
  return page;
}

async function choose(page: Page, testId: string, option: string | RegExp) {
  await page.getByTestId(testId).click();
  await page.getByRole('option', { name: option, exact: typeof option === 'string' }).click();
}

test('two users: invite by link and directly, bulk role change, delegation, deletion by confirmation text', async ({
  browser,
  baseURL,
  request,
}) => {
  // Two browsers through a dozen screens: 24–33 s alone, past the 60 s limit on a loaded machine.
  test.slow();
  const owner = await registerUser(request, { firstName: 'Olga' });
  const second = await registerUser(request, { firstName: 'Boris' });
  const a = await userPage(browser, baseURL, owner);
  const b = await userPage(browser, baseURL, second);

  // The owner creates a workspace through the screen.
  await a.goto('/app/workspaces/create');
  await a.getByTestId('workspace-create-name').fill('Studio');
  await a.getByTestId('workspace-create-submit').click();
  await expect(a).toHaveURL(/\/app\/workspaces\/\d+$/);
  const studioId = Number(/workspaces\/(\d+)/.exec(a.url())![1]);

  // Invite by link with the Member role; the second user accepts it.
  await a.goto(`/app/workspaces/${studioId}/settings/people`);
  await choose(a, 'link-role', 'Member');
  await a.getByTestId('link-generate').click();
  const linkUrl = await a.getByTestId('link-url').inputValue();
  expect(linkUrl).toMatch(/\/i\/[\w-]+$/);
  await b.goto(new URL(linkUrl).pathname);
  await b.getByTestId('invite-preview-accept').click();
  await expect(b).toHaveURL(new RegExp(`/app/workspaces/${studioId}$`));
  await expect(b.getByTestId('workspace-my-role')).toContainText('Member');

  // A second workspace, where the second user is invited directly by username.
  await a.goto('/app/workspaces/create');
  await a.getByTestId('workspace-create-name').fill('Second');
  await a.getByTestId('workspace-create-submit').click();
  await expect(a).toHaveURL(/\/app\/workspaces\/\d+$/);
  const secondId = Number(/workspaces\/(\d+)/.exec(a.url())![1]);
  await a.goto(`/app/workspaces/${secondId}/settings/people`);
  await a.getByTestId('invite-users-input').fill(second.username);
  await a.getByTestId('invite-users-input').press('Enter');
  await choose(a, 'invite-role', 'Guest');
  await a.getByTestId('invite-submit').click();
  await expect(a.locator(`[data-testid="team-row"][data-username="${second.username}"]`)).toHaveAttribute(
    'data-status',
    'pending',
  );
  await b.goto('/app/workspaces');
  const invite = b.getByTestId('pending-invite').filter({ hasText: 'Second' });
  await expect(invite).toBeVisible();
  await snap(b, 'workspaces-list-with-invite-en-light');
  await invite.getByTestId('invite-accept').click();
  await expect(b).toHaveURL(new RegExp(`/app/workspaces/${secondId}$`));

  // Bulk role change: the second user becomes Admin of Studio.
  await a.goto(`/app/workspaces/${studioId}/settings/people`);
  const row = a.locator(`[data-testid="team-row"][data-username="${second.username}"]`);
  await row.getByTestId('team-select').check();
  await choose(a, 'bulk-role-select', 'Admin');
  await a.getByTestId('bulk-role-apply').click();
  await expect(row.getByTestId('team-role')).toContainText('Admin');
  await snap(a, 'workspace-settings-en-light');

  // Delegate ownership of Studio (in the Danger zone tab): the former owner becomes Admin.
  await a.getByTestId('workspace-settings-tab-danger-zone').click();
  await expect(a).toHaveURL(new RegExp(`/app/workspaces/${studioId}/settings/danger-zone$`));
  await choose(a, 'delegate-select', 'Boris');
  await a.getByTestId('delegate-submit').click();
  await a.getByTestId('delegate-confirm-ok').click();
  await expect(a.getByTestId('delegate-confirm-ok')).toBeHidden();
  // Back: the People tab again, where Boris is now the owner.
  await a.goBack();
  await expect(a).toHaveURL(new RegExp(`/app/workspaces/${studioId}/settings/people$`));
  await expect(row.getByTestId('team-role')).toContainText('Owner');
  await b.goto(`/app/workspaces/${studioId}`);
  await expect(b.getByTestId('workspace-my-role')).toContainText('Owner');
  await a.goto(`/app/workspaces/${studioId}`);
  await expect(a.getByTestId('workspace-my-role')).toContainText('Admin');

  // Delete the second workspace through the confirmation text.
  await a.goto(`/app/workspaces/${secondId}/settings/danger-zone`);
  await a.getByTestId('delete-open').click();
  await expect(a.getByTestId('delete-confirm-text')).toHaveText('Second');
  await a.getByTestId('delete-confirm-input').fill('second');
  await a.getByTestId('delete-confirm-submit').click();
  await expect(a.getByText('Confirmation text is invalid')).toBeVisible();
  await a.getByTestId('delete-confirm-input').fill('Second');
  await a.getByTestId('delete-confirm-submit').click();
  await expect(a).toHaveURL(/\/app\/workspaces$/);
  await expect(a.getByTestId('workspace-card').filter({ hasText: 'Second' })).toHaveCount(0);
  await expect(a.getByTestId('workspace-card').filter({ hasText: 'Studio' })).toBeVisible();

  // Screens in Russian and dark.
  await a.evaluate(() => {
    localStorage.setItem('language', 'ru');
    localStorage.setItem('theme', 'dark');
  });
  await a.goto('/app/workspaces');
  await expect(a.getByTestId('workspace-card').first()).toBeVisible();
  await snap(a, 'workspaces-list-ru-dark');
  await a.goto(`/app/workspaces/${studioId}/settings/people`);
  await expect(a.getByTestId('team-table')).toBeVisible();
  await snap(a, 'workspace-settings-ru-dark');
  await a.context().close();
  await b.context().close();
});

test('a link invite survives Register and the e-mailed code: the newcomer lands on it and joins', async ({
  page,
  request,
}) => {
  const owner = await registerUser(request, { firstName: 'Olga' });
  const workspace = await call<{ id: number }>(request, owner, 'POST', 'workspaces/', { name: 'Lighthouse' });
  const link = await call<{ token: string }>(request, owner, 'POST', `workspaces/${workspace.id}/link/`, {
    role: 'member',
  });

  // Signed out, the link asks for sign-in; the newcomer has no account and registers from there.
  await page.goto(`/i/${link.token}`);
  await expect(page).toHaveURL(`/login?next=${encodeURIComponent(`/i/${link.token}`)}`);
  await page.getByTestId('login-register').click();
  await expect(page).toHaveURL(`/register?next=${encodeURIComponent(`/i/${link.token}`)}`);
  const username = uniqueName('linked');
  const email = `${username}@example.test`;
  await submitRegisterForm(page, { username, email });
  await page.getByTestId('otp-input-0').click();
  await page.keyboard.type(await nextCode(email));

  // The code signs in and lands on the invite, not on the quickstart.
  await expect(page).toHaveURL(`/i/${link.token}`);
  await expect(page.getByTestId('invite-preview')).toContainText('Olga invites you to the workspace Lighthouse.');
  await page.getByTestId('invite-preview-accept').click();
  await expect(page).toHaveURL(`/app/workspaces/${workspace.id}`);
  await expect(page.getByTestId('workspace-my-role')).toContainText('Member');
  await expect(page.getByTestId('workspace-switcher')).toHaveText('Lighthouse');
});
