import type { Route } from '@playwright/test';
import { registerUser } from './support/accounts';
import { expect, interactive, test } from './support/fixtures';

test.describe('the prerendered login form', () => {
  test('paints before the app, and what is typed there survives the takeover and signs in', async ({
    page,
    request,
  }) => {
    const user = await registerUser(request);
    // The app's scripts are held back until the form has been filled in.
    const held: Route[] = [];
    let release = false;
    await page.route('**/assets/*.js', async (route) => {
      if (release) await route.continue();
      else held.push(route);
    });
    // Module scripts hold back DOMContentLoaded too: wait for the response alone.
    await page.goto('/login', { waitUntil: 'commit' });
    await expect(page.locator('[data-login-prerendered]')).toBeVisible();
    await expect(page.getByTestId('login-submit')).toBeDisabled();
    await page.getByTestId('login-username').fill(user.username);
    await page.getByTestId('login-password').fill(user.password);
    await page.getByTestId('login-password').press('Enter');
    // Enter did nothing natively: no password in the URL.
    await expect(page).toHaveURL(/\/login$/);

    release = true;
    for (const route of held) await route.continue();
    await page.unroute('**/assets/*.js');
    await interactive(page);
    await expect(page.locator('[data-login-prerendered]')).toHaveCount(0);
    await expect(page.getByTestId('login-username')).toHaveValue(user.username);
    await expect(page.getByTestId('login-password')).toHaveValue(user.password);
    await expect(page.getByTestId('login-password')).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/app/);
  });
});
