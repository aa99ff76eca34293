import type { Browser, Page } from '@playwright/test';
import { nextCode, registerUser, signInAs, submitRegisterForm, uniqueName } from './support/accounts';
import { call } from './support/api';
import { expect, snap, test } from './support/fixtures';

const heroEn = 'Work that flows through stages, with a review at every step.';
const heroRu = 'Работа, которая проходит через этапы, с проверкой на каждом шаге.';

async function typeCode(page: Page, code: string) {
  await page.getByTestId('otp-input-0').click();
  await page.keyboard.type(code);
}

/** GET an API path with the page's own session. */
async function apiGet<T>(page: Page, url: string): Promise<T> {
  return page.evaluate<T, string>(async (path) => {
    const tokens = JSON.parse(localStorage.getItem('authTokens') ?? '{}') as { access?: string };
    const response = await fetch(path, { headers: { Authorization: `Bearer ${tokens.access ?? ''}` } });
    return (await response.json()) as T;
  }, url);
}

/** A browser context with JavaScript off, in a language and a system colour scheme. */
async function withoutScript(browser: Browser, baseURL: string, locale: string, colorScheme: 'light' | 'dark') {
  const context = await browser.newContext({ baseURL, javaScriptEnabled: false, locale, colorScheme });
  return { page: await context.newPage(), close: () => context.close() };
}

test.describe('landing and onboarding', () => {
  test('the landing page paints without JavaScript: English and Russian, light and dark', async ({
    browser,
    baseURL,
  }) => {
    const cases = [
      { locale: 'en-US', scheme: 'light', hero: heroEn, register: 'Get started', login: 'Log in', lang: 'en' },
      { locale: 'en-US', scheme: 'dark', hero: heroEn, register: 'Get started', login: 'Log in', lang: 'en' },
      { locale: 'ru-RU', scheme: 'light', hero: heroRu, register: 'Начать', login: 'Войти', lang: 'ru' },
      { locale: 'ru-RU', scheme: 'dark', hero: heroRu, register: 'Начать', login: 'Войти', lang: 'ru' },
    ] as const;
    for (const { locale, scheme, hero, register, login, lang } of cases) {
      const { page, close } = await withoutScript(browser, baseURL!, locale, scheme);
      const response = await page.goto('/');
      expect(response?.headers()['vary']).toContain('Accept-Language');
      await expect(page.locator('html')).toHaveAttribute('lang', lang);
      await expect(page.getByRole('heading', { level: 1, name: hero })).toBeVisible();
      // The calls to action are plain links into the app.
      await expect(page.getByTestId('landing-register')).toHaveAttribute('href', '/register');
      await expect(page.getByTestId('landing-register')).toHaveText(register);
      await expect(page.getByTestId('landing-login')).toHaveAttribute('href', '/login');
      await expect(page.getByTestId('landing-login')).toHaveText(login);
      await expect(page.getByTestId('pipeline-sketch')).toBeVisible();
      await expect(page.getByTestId('matrix-sketch')).toBeVisible();
      // Nothing ran: no script set the scheme; the stylesheets follow the system's preference.
      await expect(page.locator('html')).not.toHaveAttribute('data-mantine-color-scheme', /.*/);
      const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
      expect(background).toBe(scheme === 'dark' ? 'rgb(36, 36, 36)' : 'rgb(255, 255, 255)');
      await snap(page, `landing-no-script-${lang}-${scheme}`);
      await close();
    }
  });

  test('the landing page paints before the app bundle, and the app takes over without a loader', async ({ page }) => {
    // The app's script never arrives: the page is painted all the same.
    await page.route('**/assets/*.js', (route) => route.abort());
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1, name: heroEn })).toBeVisible();
    await expect(page.getByTestId('matrix-sketch')).toBeVisible();
    await page.unroute('**/assets/*.js');

    // With the script, the prerendered markup stays until the app renders the same route over it.
    await page.addInitScript(() => {
      new MutationObserver(() => {
        if (document.querySelector('[data-testid="loading-overlay"]')) document.documentElement.dataset.sawLoader = '1';
      }).observe(document, { childList: true, subtree: true });
    });
    await page.goto('/');
    await expect(page.locator('[data-landing]')).toHaveCount(0);
    await expect(page.getByRole('heading', { level: 1, name: heroEn })).toBeVisible();
    await page.getByTestId('landing-login').click();
    await expect(page).toHaveURL(/\/login$/);
    expect(await page.evaluate(() => document.documentElement.dataset.sawLoader ?? null)).toBeNull();
  });

  test('landing → register → quickstart → a first pipeline, with an invite and stage settings', async ({
    page,
    request,
  }) => {
    const teammate = await registerUser(request);
    await page.emulateMedia({ colorScheme: 'light' });
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1, name: heroEn })).toBeVisible();
    await page.getByTestId('landing-register').click();

    const username = uniqueName('newcomer');
    const email = `${username}@example.test`;
    await submitRegisterForm(page, { username, email });
    await typeCode(page, await nextCode(email));

    // Welcome and the tutorial.
    await expect(page).toHaveURL(/\/app\/quickstart$/);
    await expect(page.getByTestId('quickstart-welcome')).toBeVisible();
    await expect(page.getByTestId('mini-pipeline')).toContainText('Storyboard');
    await snap(page, 'quickstart-welcome-en-light');
    await page.getByTestId('quickstart-welcome-next').click();

    // Workspace, then an invite by username with the role offered.
    await page.getByTestId('quickstart-workspace-name').fill('Night Owls');
    await snap(page, 'quickstart-workspace-en-light');
    await page.getByTestId('quickstart-workspace-create').click();
    await expect(page.getByTestId('quickstart-workspace-chosen')).toContainText('Night Owls');
    // A reload resumes on the invites, not past them at the project (decision 197).
    await page.reload();
    await expect(page.getByTestId('quickstart-workspace-chosen')).toContainText('Night Owls');
    await expect(page.getByTestId('invite-users-input')).toBeVisible();
    await page.getByTestId('invite-users-input').fill(teammate.username);
    await page.keyboard.press('Enter');
    await page.getByTestId('invite-submit').click();
    await expect(page.getByText('1 users invited').or(page.getByText('1 user invited'))).toBeVisible();
    await page.getByTestId('quickstart-workspace-next').click();

    // Project, with the review defaults.
    await expect(page.getByTestId('quickstart-project')).toBeVisible();
    await page.getByTestId('quickstart-project-name').fill('Short film');
    await snap(page, 'quickstart-project-en-light');
    await page.getByTestId('quickstart-project-submit').click();

    // The first pipeline: the server gives start and end, the list adds stages between them.
    await page.getByTestId('quickstart-pipeline-name').fill('Shots');
    await page.getByTestId('quickstart-pipeline-create').click();
    await expect(page.getByTestId('quickstart-stages')).toBeVisible();
    // The example names are placeholders: nothing typed, nothing to save (decision 197).
    await expect(page.getByTestId('quickstart-stage-name').first()).toHaveValue('');
    await expect(page.getByTestId('quickstart-stage-name').first()).toHaveAttribute('placeholder', 'First draft');
    await expect(page.getByTestId('quickstart-stages-save')).toBeDisabled();
    await page.getByTestId('quickstart-stage-name').nth(0).fill('First draft');
    await page.getByTestId('quickstart-stage-name').nth(1).fill('Final version');
    await page.getByTestId('quickstart-stage-add').click();
    await page.getByTestId('quickstart-stage-name').nth(2).fill('Approval');
    await snap(page, 'quickstart-stages-en-light');
    await page.getByTestId('quickstart-stages-save').click();
    const stages = page.getByTestId('quickstart-built').getByTestId('mini-stage');
    await expect(stages).toHaveText(['First draft', 'Final version', 'Approval']);
    await expect(page.getByTestId('mini-root')).toHaveText('Start');
    await expect(page.getByTestId('mini-end')).toHaveText('End');
    // A reload resumes on the stage settings, not on the done step (decision 197).
    await page.reload();
    await expect(stages).toHaveText(['First draft', 'Final version', 'Approval']);
    await expect(page.getByTestId('quickstart-done')).toHaveCount(0);

    // One stage's settings, in the editor's own drawer.
    await stages.first().click();
    await expect(page.getByTestId('stage-settings-form')).toBeVisible();
    await page.getByTestId('stage-settings-due-days-mode').click();
    await page.getByTestId('stage-settings-due-days').fill('3');
    await page.getByTestId('stage-settings-save').click();
    await expect(page.getByTestId('quickstart-settings-saved')).toBeVisible();
    await expect(page.getByTestId('stage-settings-form')).toHaveCount(0);
    await snap(page, 'quickstart-pipeline-en-light');
    await page.getByTestId('quickstart-pipeline-next').click();
    await expect(page.getByTestId('quickstart-done')).toContainText('Your first pipeline is ready');
    await snap(page, 'quickstart-done-en-light');

    // Real records, and the quickstart is over.
    await expect
      .poll(async () => (await apiGet<{ onboarding: string }>(page, '/api/users/me/')).onboarding)
      .toBe('done');
    const projects = await apiGet<{ id: number; name: string }[]>(page, '/api/projects/');
    expect(projects.map((p) => p.name)).toEqual(['Short film']);
    const [summary] = await apiGet<{ id: number }[]>(page, `/api/pipelines/?project=${projects[0]!.id}`);
    const pipeline = await apiGet<{
      nodes: { id: number; kind: string; name: string; default_due_days: number | null }[];
      edges: { source: number; target: number }[];
    }>(page, `/api/pipelines/${summary!.id}/`);
    const byId = new Map(pipeline.nodes.map((n) => [n.id, n]));
    const chain = ['Start'];
    let current = pipeline.nodes.find((n) => n.kind === 'root')!.id;
    for (let i = 0; i < 4; i++) {
      current = pipeline.edges.find((e) => e.source === current)!.target;
      chain.push(byId.get(current)!.name);
    }
    expect(chain).toEqual(['Start', 'First draft', 'Final version', 'Approval', 'End']);
    expect(pipeline.nodes.find((n) => n.name === 'First draft')!.default_due_days).toBe(3);

    // Never offered again: the route says it is finished, My work has no banner.
    await page.getByTestId('quickstart-open-pipeline').click();
    await expect(page).toHaveURL(new RegExp(`/pipelines/${summary!.id}$`));
    await page.goto('/app/quickstart');
    await expect(page.getByTestId('quickstart-done')).toContainText('You have finished the quickstart');
    await page.goto('/app');
    await expect(page.getByRole('heading', { name: 'My work' }).first()).toBeVisible();
    await expect(page.getByTestId('quickstart-banner')).toHaveCount(0);
  });

  test('signed out: sign in in place (Russian, dark), skip, and resume where the records stop', async ({
    page,
    request,
  }) => {
    const user = await registerUser(request, { language: 'ru' });
    await page.goto('/');
    await page.evaluate(() => {
      localStorage.setItem('language', 'ru');
      localStorage.setItem('theme', 'dark');
    });
    await page.goto('/app/quickstart');
    await expect(page.getByTestId('quickstart-welcome')).toContainText('Добро пожаловать в Stageline');
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
    await snap(page, 'quickstart-welcome-ru-dark');
    await page.getByTestId('quickstart-welcome-next').click();

    // Quick sign-up and sign-in, in place.
    await expect(page.getByTestId('register-form')).toBeVisible();
    await snap(page, 'quickstart-account-ru-dark');
    await page.getByTestId('quickstart-account-mode').getByText('Войти').click();
    await page.getByTestId('login-username').fill(user.username);
    await page.getByTestId('login-password').fill(user.password);
    await page.getByTestId('login-submit').click();
    await expect(page).toHaveURL(/\/app\/quickstart$/);
    await expect(page.getByTestId('quickstart-workspace')).toContainText('Ваше рабочее пространство');
    await snap(page, 'quickstart-workspace-ru-dark');

    // Skipping is remembered; My work offers to continue.
    await page.getByTestId('quickstart-skip').click();
    await expect(page).toHaveURL(/\/app(\/workspaces)?$/);
    expect((await apiGet<{ onboarding: string }>(page, '/api/users/me/')).onboarding).toBe('skipped');

    // A workspace made elsewhere: the quickstart resumes at the project step.
    const created = await request.post('/api/workspaces/', {
      data: { name: 'Made elsewhere' },
      headers: { Authorization: `Bearer ${user.access}` },
    });
    const { id } = (await created.json()) as { id: number };
    await page.evaluate((workspaceId) => localStorage.setItem('current_workspace', String(workspaceId)), id);
    await page.goto('/app');
    await expect(page.getByTestId('quickstart-banner')).toContainText('Продолжить быстрый старт');
    await snap(page, 'quickstart-banner-ru-dark');
    await page.getByTestId('quickstart-continue').click();
    await expect(page.getByTestId('quickstart-project')).toBeVisible();
    await snap(page, 'quickstart-project-ru-dark');

    // And on to the end, in Russian: the default stage names are translated.
    await page.getByTestId('quickstart-project-name').fill('Сериал');
    await page.getByTestId('quickstart-project-submit').click();
    await page.getByTestId('quickstart-pipeline-name').fill('Серии');
    await page.getByTestId('quickstart-pipeline-create').click();
    await expect(page.getByTestId('quickstart-stage-name').first()).toHaveAttribute('placeholder', 'Черновик');
    await page.getByTestId('quickstart-stage-name').nth(0).fill('Черновик');
    await page.getByTestId('quickstart-stage-name').nth(1).fill('Финальная версия');
    await snap(page, 'quickstart-stages-ru-dark');
    await page.getByTestId('quickstart-stages-save').click();
    await expect(page.getByTestId('quickstart-built').getByTestId('mini-stage')).toHaveText([
      'Черновик',
      'Финальная версия',
    ]);
    await expect(page.getByTestId('mini-root')).toHaveText('Старт');
    await snap(page, 'quickstart-pipeline-ru-dark');
    await page.getByTestId('quickstart-pipeline-next').click();
    await expect(page.getByTestId('quickstart-done')).toContainText('Ваш первый пайплайн готов');
    await snap(page, 'quickstart-done-ru-dark');
    await expect
      .poll(async () => (await apiGet<{ onboarding: string }>(page, '/api/users/me/')).onboarding)
      .toBe('done');
  });
});

/** Signs up through /register with a new e-mail address (or `email`), the code read from the mail. */
async function signUp(page: Page, email?: string): Promise<{ username: string; password: string }> {
  const username = uniqueName('first');
  const address = email ?? `${username}@example.test`;
  await page.goto('/register');
  const { password } = await submitRegisterForm(page, { username, email: address });
  await typeCode(page, await nextCode(address));
  return { username, password };
}

/** Signs out and in again through the login screen, as on the next day. */
async function signInAgain(page: Page, { username, password }: { username: string; password: string }) {
  await page.goto('/logout');
  await page.waitForURL((url) => !url.pathname.startsWith('/logout'));
  await page.goto('/login');
  await page.getByTestId('login-username').fill(username);
  await page.getByTestId('login-password').fill(password);
  await page.getByTestId('login-submit').click();
  await page.waitForURL((url) => url.pathname.startsWith('/app'));
}

test.describe('the first day of a new team (issue 39)', () => {
  // Whole journeys with sign-ups, sign-outs and several screens: three times the usual time.
  test.slow();

  test('an e-mail invite: the quickstart offers it first, and joining lands in that workspace', async ({
    page,
    request,
  }) => {
    const owner = await registerUser(request, { firstName: 'Olga' });
    const workspace = await call<{ id: number }>(request, owner, 'POST', 'workspaces/', { name: 'Harbour Lights' });
    const email = `${uniqueName('bob')}@example.test`;
    await call(request, owner, 'POST', `workspaces/${workspace.id}/invite/`, { users: [email], role: 'member' });

    // Bob signs up with the address he was invited at: the quickstart opens on the invite.
    await page.emulateMedia({ colorScheme: 'light' });
    const bob = await signUp(page, email);
    await expect(page).toHaveURL(/\/app\/quickstart$/);
    const offered = page.getByTestId('pending-invite');
    await expect(offered).toHaveCount(1);
    await expect(offered).toContainText('Harbour Lights');
    await expect(offered).toContainText('Olga invites you as');
    await expect(page.getByTestId('quickstart-invites-intro')).toBeVisible();
    await snap(page, 'quickstart-invite-en-1280');
    await page.setViewportSize({ width: 400, height: 800 });
    await expect(offered.getByTestId('invite-accept')).toBeVisible();
    await snap(page, 'quickstart-invite-en-400');
    await page.setViewportSize({ width: 1280, height: 800 });

    await offered.getByTestId('invite-accept').click();
    await expect(page).toHaveURL(`/app/workspaces/${workspace.id}`);
    await expect(page.getByTestId('workspace-my-role')).toContainText('Member');
    await expect(page.getByTestId('workspace-switcher')).toHaveText('Harbour Lights');

    // The next day, sign-in comes back to it.
    await signInAgain(page, bob);
    await expect(page.getByTestId('workspace-switcher')).toHaveText('Harbour Lights');
  });

  test('the workspace made in the quickstart is remembered: the next sign-in comes back to it', async ({ page }) => {
    const account = await signUp(page);
    await expect(page.getByTestId('quickstart-welcome')).toBeVisible();
    await page.getByTestId('quickstart-welcome-next').click();
    await page.getByTestId('quickstart-workspace-name').fill('Night Shift');
    await page.getByTestId('quickstart-workspace-create').click();
    await expect(page.getByTestId('quickstart-workspace-chosen')).toContainText('Night Shift');
    await page.getByTestId('quickstart-workspace-next').click();
    await page.getByTestId('quickstart-project-name').fill('Pilot');
    await page.getByTestId('quickstart-project-submit').click();
    await page.getByTestId('quickstart-pipeline-name').fill('Shots');
    await page.getByTestId('quickstart-pipeline-create').click();
    // The example names are placeholders (decision 197): the stages are named to be saved.
    await page.getByTestId('quickstart-stage-name').nth(0).fill('Layout');
    await page.getByTestId('quickstart-stage-name').nth(1).fill('Lighting');
    await page.getByTestId('quickstart-stages-save').click();
    await page.getByTestId('quickstart-pipeline-next').click();
    await expect(page.getByTestId('quickstart-done')).toBeVisible();
    const pipelinePath = new URL((await page.getByTestId('quickstart-open-pipeline').getAttribute('href'))!, page.url())
      .pathname;

    // Signed out and in again: My work in that workspace, its name in the header.
    await signInAgain(page, account);
    await expect(page).toHaveURL(/\/app$/);
    const switcher = page.getByTestId('workspace-switcher');
    await expect(switcher).toHaveText('Night Shift');
    const nightShift = Number(await page.evaluate(() => localStorage.getItem('current_workspace')));

    // A page of a workspace names that workspace in the header, whichever was current before.
    const dayShift = await page.evaluate(async () => {
      const tokens = JSON.parse(localStorage.getItem('authTokens') ?? '{}') as { access?: string };
      const response = await fetch('/api/workspaces/', {
        method: 'POST',
        headers: { Authorization: `Bearer ${tokens.access ?? ''}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ name: 'Day Shift' }),
      });
      return ((await response.json()) as { id: number }).id;
    });
    await page.goto(`/app/workspaces/${dayShift}/settings`);
    await expect(page.getByRole('heading', { name: 'Settings: Day Shift' })).toBeVisible();
    await expect(switcher).toHaveText('Day Shift');
    await page.goto(pipelinePath);
    await expect(page.getByTestId('mini-stage').or(page.locator('.react-flow__node')).first()).toBeVisible();
    await expect(switcher).toHaveText('Night Shift');
    await page.goto(`/app/workspaces/${dayShift}`);
    await expect(switcher).toHaveText('Day Shift');
    await page.goto(`${pipelinePath}/edit_flow`);
    await expect(page.locator('.react-flow__node').first()).toBeVisible();
    await expect(switcher).toHaveText('Night Shift');
    expect((await apiGet<{ recent_workspace: number }>(page, '/api/users/me/')).recent_workspace).toBe(nightShift);
  });

  test("an account without a time zone gets the browser's, saved signed in", async ({ browser, baseURL, request }) => {
    // registerUser tells the server no time zone, as an account made before time zones were asked.
    const user = await registerUser(request);
    const context = await browser.newContext({ baseURL, timezoneId: 'Pacific/Chatham' });
    const page = await context.newPage();
    const saved = page.waitForResponse(
      (response) => response.request().method() === 'PATCH' && response.url().endsWith(`/api/users/${user.id}/`),
    );
    await signInAs(page, user);
    await page.goto('/app/profile');
    const answer = await saved;
    expect(answer.status()).toBe(200);
    expect(answer.request().postDataJSON()).toEqual({ time_zone: 'Pacific/Chatham' });
    const me = await call<{ time_zone: string | null }>(request, user, 'GET', 'users/me/');
    expect(me.time_zone).toBe('Pacific/Chatham');
    await page.reload();
    await expect(page.getByTestId('profile-time-zone')).toHaveValue('Pacific/Chatham');
  });
});
