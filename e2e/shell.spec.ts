import { expect, interactive, snap, test } from './support/fixtures';
import { registerUser, signInAs } from './support/accounts';
import { freePort, startServer } from './support/server';

const heroEn = 'Work that flows through stages, with a review at every step.';
const heroRu = 'Работа, которая проходит через этапы, с проверкой на каждом шаге.';

test.describe('the shell', () => {
  test('landing: English, Russian, light and dark', async ({ page }) => {
    await page.emulateMedia({ colorScheme: 'light' });
    await page.goto('/');
    await expect(page.getByRole('heading', { name: heroEn })).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'light');
    await snap(page, 'landing-en-light');

    await interactive(page);
    await page.getByTestId('language-switcher').click();
    await page.getByTestId('language-ru').click();
    await expect(page.getByRole('heading', { name: heroRu })).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', 'ru');
    expect(await page.evaluate(() => localStorage.getItem('language'))).toBe('ru');

    await page.getByTestId('theme-switcher').click();
    await page.getByTestId('theme-dark').click();
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
    expect(await page.evaluate(() => localStorage.getItem('theme'))).toBe('dark');
    await snap(page, 'landing-ru-dark');

    // Both choices survive a reload, with no flash of the other theme.
    await page.reload();
    await expect(page.getByRole('heading', { name: heroRu })).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
  });

  test('login screen in both languages and themes', async ({ page }) => {
    await page.goto('/login');
    await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
    await snap(page, 'login-en-light');
    await page.getByTestId('language-switcher').click();
    await page.getByTestId('language-ru').click();
    await expect(page.getByRole('heading', { name: 'Вход' })).toBeVisible();
    await page.getByTestId('theme-switcher').click();
    await page.getByTestId('theme-dark').click();
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
    await snap(page, 'login-ru-dark');
  });

  test('system theme follows a live change of the OS setting', async ({ page }) => {
    await page.emulateMedia({ colorScheme: 'light' });
    await page.goto('/');
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'light');
    await page.emulateMedia({ colorScheme: 'dark' });
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
    await page.emulateMedia({ colorScheme: 'light' });
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'light');
  });

  test('an unsupported browser language falls back to English; a regional one to its base', async ({
    browser,
    baseURL,
  }) => {
    const german = await browser.newContext({ locale: 'de-DE', baseURL });
    const page = await german.newPage();
    await page.goto('/');
    await expect(page.getByRole('heading', { name: heroEn })).toBeVisible();
    await german.close();

    const russian = await browser.newContext({ locale: 'ru-RU', baseURL });
    const ruPage = await russian.newPage();
    await ruPage.goto('/');
    await expect(ruPage.getByRole('heading', { name: heroRu })).toBeVisible();
    await russian.close();
  });

  test('app layout: sidebar, deep links and the 404 screen', async ({ page, request }) => {
    await signInAs(page, await registerUser(request));
    // A deep link is served by the SPA fallback and keeps its route on reload.
    await page.goto('/app/profile');
    await expect(page.getByRole('heading', { name: 'Profile' })).toBeVisible();
    await expect(page.getByTestId('breadcrumbs')).toContainText('Home');
    await snap(page, 'app-profile-en-light');

    const sidebar = page.getByTestId('sidebar');
    await expect(sidebar).toBeVisible();
    await page.getByTestId('sidebar-toggle').click();
    await expect(sidebar).not.toBeInViewport();
    await page.getByTestId('sidebar-toggle').click();
    await expect(sidebar).toBeInViewport();

    await page.getByTestId('app-menu').click();
    await page.getByTestId('sidebar-enable-toggle').click();
    await expect(sidebar).toHaveCount(0);
    expect(await page.evaluate(() => localStorage.getItem('sideBarEnabled'))).toBe('false');
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Profile' })).toBeVisible();
    await expect(page.getByTestId('sidebar')).toHaveCount(0);
    await page.getByTestId('app-menu').click();
    await page.getByTestId('sidebar-enable-toggle').click();
    await expect(page.getByTestId('sidebar')).toBeVisible();

    await page.goto('/app/no-such-screen');
    await expect(page.getByTestId('not-found-screen')).toBeVisible();
    await page.goto('/no/such/page');
    await expect(page.getByTestId('not-found-screen')).toBeVisible();
  });

  test('app layout in Russian and dark, at phone width', async ({ page, request }) => {
    await signInAs(page, await registerUser(request));
    await page.goto('/app/workspaces');
    await page.evaluate(() => {
      localStorage.setItem('language', 'ru');
      localStorage.setItem('theme', 'dark');
    });
    await page.setViewportSize({ width: 400, height: 780 });
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Рабочие пространства' })).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
    await snap(page, 'app-workspaces-ru-dark-phone');
  });

  test('without a current workspace the dashboard sends the user to the workspace list', async ({ page, request }) => {
    const user = await registerUser(request);
    await signInAs(page, user);
    await page.goto('/app');
    await expect(page).toHaveURL(/\/app\/workspaces$/);
    const created = await request.post('/api/workspaces/', {
      data: { name: 'Current one' },
      headers: { Authorization: `Bearer ${user.access}` },
    });
    const { id } = (await created.json()) as { id: number };
    await page.evaluate((workspaceId) => localStorage.setItem('current_workspace', String(workspaceId)), id);
    await page.goto('/app/workspaces/current/settings');
    await expect(page).toHaveURL(new RegExp(`/app/workspaces/${id}/settings$`));
    await page.goto('/app/workspaces/current');
    await expect(page).toHaveURL(/\/app$/);
  });

  test('logout clears tokens, current workspace and last project', async ({ page }) => {
    await page.goto('/');
    await page.evaluate(() => {
      localStorage.setItem('authTokens', JSON.stringify({ access: 'a', refresh: 'r' }));
      localStorage.setItem('current_workspace', '1');
      localStorage.setItem('lastProject', '2');
    });
    await page.goto('/logout');
    await expect(page).toHaveURL(/\/login$/);
    const left = await page.evaluate(() =>
      ['authTokens', 'current_workspace', 'lastProject'].map((k) => localStorage.getItem(k)),
    );
    expect(left).toEqual([null, null, null]);
  });

  test('a newer build served: a notice offers to reload, and the reloaded page has none (decision 139)', async ({
    page,
    request,
  }) => {
    const user = await registerUser(request);
    await signInAs(page, user);
    await page.goto('/app/workspaces');
    await expect(page.getByRole('heading', { name: 'Workspaces', exact: true })).toBeVisible();
    // The server names the build it serves as this tab knows its own: no notice.
    const build = (await request.get('/api/health/')).headers()['x-stageline-build'];
    expect(build).toMatch(/^\/assets\/index-[\w-]+\.js$/);
    await expect(page.getByTestId('update-notice')).toHaveCount(0);

    // A deploy meanwhile: the next answer names another build.
    const apiCall = (url: URL) => url.pathname.startsWith('/api/') && !url.pathname.startsWith('/api/events/');
    await page.route(apiCall, async (route) => {
      const response = await route.fetch();
      await route.fulfill({
        response,
        headers: { ...response.headers(), 'x-stageline-build': '/assets/index-newer.js' },
      });
    });
    await page.getByRole('link', { name: 'Profile' }).click();
    const reload = page.getByTestId('update-notice').getByTestId('reload');
    await expect(reload).toBeVisible();
    await expect(page.getByText('Stageline has been updated')).toBeVisible();
    await snap(page, 'update-notice-en-light');

    await page.unrouteAll();
    await Promise.all([page.waitForEvent('load'), reload.click()]);
    await expect(page).toHaveURL(/\/app\/profile$/);
    await expect(page.getByRole('heading', { name: 'Profile' })).toBeVisible();
    await expect(page.getByTestId('update-notice')).toHaveCount(0);
  });

  test('the API answers health and JSON errors beside the app', async ({ request }) => {
    const health = await request.get('/api/health/');
    expect(health.status()).toBe(200);
    expect(await health.json()).toMatchObject({ status: 'ok', database: { ok: true } });
    const missing = await request.get('/api/no-such-route/');
    expect(missing.status()).toBe(404);
    expect(await missing.json()).toEqual({ detail: 'Not found.', code: 'not_found' });
  });
});

test.describe('server modes', () => {
  test('maintenance mode replaces every screen with its text', async ({ browser }) => {
    const server = await startServer({ MAINTENANCE: 'true' });
    try {
      const context = await browser.newContext({ baseURL: server.url });
      const page = await context.newPage();
      for (const path of ['/', '/login', '/app/workspaces']) {
        await page.goto(path);
        await expect(page.getByTestId('maintenance-screen')).toContainText(
          'Sorry, we are under maintenance. Please try again later.',
        );
      }
      await snap(page, 'maintenance-en');
      await context.close();
    } finally {
      await server.stop();
    }
  });

  test('a request on another host is redirected to PUBLIC_URL with the same path', async ({ browser }) => {
    const port = await freePort();
    const server = await startServer({ PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}` });
    try {
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto(`http://localhost:${server.port}/docs?x=1`);
      await expect(page).toHaveURL(`${server.url}/docs?x=1`);
      await context.close();
    } finally {
      await server.stop();
    }
  });
});
