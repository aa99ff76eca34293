// One file on purpose: every screen of the app is one row of the same two checks (axe in two themes and languages, visible focus), so the list stays in one place.
import { randomBytes } from 'node:crypto';
import AxeBuilder from '@axe-core/playwright';
import type { APIRequestContext, Browser, Locator, Page } from '@playwright/test';
import { nextMail, registerUser, uniqueName, type TestUser } from './support/accounts';
import { call, oneStagePipeline, teamWorkspace } from './support/api';
import { expect, snap, test } from './support/fixtures';
import { openPalette } from './support/palette';

/**
 * Accessibility (docs/accessibility.md): axe-core over every screen, in both themes and both languages,
 * with no serious or critical violation of WCAG 2.0/2.1 A and AA or 2.2 AA.
 */

const tags = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];
const themes = ['light', 'dark'] as const;

type Seed = {
  lead: TestUser;
  outsider: TestUser;
  unverified: { username: string; password: string };
  workspace: number;
  project: number;
  pipeline: number;
  stage: number;
  unit: number;
  reviewTask: number;
  inviteToken: string;
  resetPath: string;
};

type Screen = {
  name: string;
  path: (seed: Seed) => string;
  /** What shows once the screen has its data. */
  ready: (page: Page) => Locator;
  /** Steps after the load (e.g. submitting a form to reach its next step). */
  reach?: (page: Page, seed: Seed) => Promise<void>;
  /** Selectors axe leaves out, each with its reason (docs/accessibility.md §Known exceptions). */
  exclude?: string[];
  /** A screenshot's name, for the screens whose colours are worth a look in every theme and language. */
  snap?: string;
};

const byTestId = (id: string) => (page: Page) => page.getByTestId(id).first();

/** Signed out. */
const publicScreens: Screen[] = [
  { name: 'landing', path: () => '/', ready: (page) => page.getByRole('heading', { level: 1 }), snap: 'landing' },
  { name: 'login', path: () => '/login', ready: byTestId('login-username') },
  { name: 'register', path: () => '/register', ready: byTestId('register-username') },
  {
    name: 'code step',
    path: () => '/login',
    ready: byTestId('otp-step'),
    reach: async (page, seed) => {
      await page.getByTestId('login-username').fill(seed.unverified.username);
      await page.getByTestId('login-password').fill(seed.unverified.password);
      await page.getByTestId('login-submit').click();
      await page.getByTestId('login-verify-email').click();
    },
  },
  { name: 'password reset request', path: () => '/reset_pass', ready: byTestId('reset-email') },
  { name: 'password reset form', path: (seed) => seed.resetPath, ready: byTestId('reset-password') },
  { name: '404', path: () => '/no/such/page', ready: byTestId('not-found-screen') },
];

/** Signed in as a user outside the workspace. */
const outsiderScreens: Screen[] = [
  { name: 'invite landing', path: (seed) => `/i/${seed.inviteToken}`, ready: byTestId('invite-preview') },
];

/** Signed in as the workspace's owner. */
const appScreens: Screen[] = [
  { name: 'my work', path: () => '/app', ready: byTestId('my-work-item'), snap: 'my-work' },
  { name: 'workspaces', path: () => '/app/workspaces', ready: byTestId('workspace-card') },
  { name: 'workspace', path: (s) => `/app/workspaces/${s.workspace}`, ready: byTestId('project-row') },
  {
    name: 'workspace settings',
    path: (s) => `/app/workspaces/${s.workspace}/settings/people`,
    ready: (page) => page.getByTestId('team-row').nth(2),
  },
  {
    // The owner's own sign-in, invites and roles are in it (docs/history-and-audit.md).
    name: 'audit log',
    path: (s) => `/app/workspaces/${s.workspace}/settings/audit-log`,
    ready: (page) => page.getByTestId('audit-entry').first(),
  },
  { name: 'project create', path: () => '/app/projects/create', ready: byTestId('project-create-submit') },
  { name: 'project', path: (s) => `/app/projects/${s.project}`, ready: byTestId('project-overview-pipeline') },
  { name: 'project edit', path: (s) => `/app/projects/${s.project}/edit`, ready: byTestId('project-edit-submit') },
  { name: 'pipeline list', path: (s) => `/app/projects/${s.project}/pipelines`, ready: byTestId('pipeline-row') },
  {
    // A load error's box (docs/design.md): the list's call refused once, then let through again, so
    // the box stays until "Try again". A 400, which the app does not retry, rather than a 500.
    name: 'pipeline list that did not load',
    path: (s) => `/app/projects/${s.project}/pipelines`,
    ready: byTestId('load-error'),
    reach: async (page) => {
      const list = /\/api\/pipelines\/\?project=/;
      await page.route(list, (route) =>
        route.fulfill({ status: 400, contentType: 'application/json', body: '{"detail":"Refused."}' }),
      );
      await page.reload();
      await page.getByTestId('load-error').waitFor();
      await page.unroute(list);
    },
    snap: 'load-error',
  },
  {
    name: 'pipeline view with a stage panel',
    path: (s) => `/app/projects/${s.project}/pipelines/${s.pipeline}?stage=${s.stage}`,
    ready: byTestId('stage-summary'),
    snap: 'pipeline',
  },
  {
    name: 'diagram editor',
    path: (s) => `/app/projects/${s.project}/pipelines/${s.pipeline}/edit_flow`,
    ready: byTestId('flow-save'),
  },
  {
    name: 'units matrix',
    path: (s) => `/app/projects/${s.project}/units`,
    ready: byTestId('matrix-cell'),
    snap: 'matrix',
  },
  {
    name: 'unit create',
    path: (s) => `/app/projects/${s.project}/units/create`,
    ready: byTestId('unit-create-submit'),
  },
  {
    name: 'units create multiple',
    path: (s) => `/app/projects/${s.project}/units/create_multiple`,
    ready: byTestId('batch-template'),
  },
  { name: 'unit', path: (s) => `/app/projects/${s.project}/units/${s.unit}`, ready: byTestId('unit-task') },
  {
    name: 'task in review',
    path: (s) => `/app/tasks/${s.reviewTask}`,
    ready: byTestId('comment-markdown'),
    snap: 'task',
  },
  { name: 'notifications', path: () => '/app/notifications', ready: byTestId('notifications-list') },
  { name: 'profile', path: () => '/app/profile', ready: byTestId('profile') },
];

async function seedData(request: Parameters<typeof registerUser>[0]): Promise<Seed> {
  const lead = await registerUser(request, { firstName: 'Lena' });
  const member = await registerUser(request, { firstName: 'Mark' });
  const outsider = await registerUser(request);
  const team = await teamWorkspace(request, lead, [member], uniqueName('Access'));
  const flow = await oneStagePipeline(request, lead, team.project, { default_reviewers: [lead.id] }, [
    'Shot 010',
    'Shot 020',
    'Shot 030',
  ]);
  const [reviewTask, startedTask] = flow.tasks as [number, number];
  await call(request, lead, 'POST', `tasks/${reviewTask}/start/`);
  await call(request, lead, 'POST', `tasks/${reviewTask}/submit/`);
  await call(request, lead, 'POST', `tasks/${startedTask}/start/`);
  // A comment with a mention: the task shows a thread and the lead gets a notification.
  await call(request, member, 'POST', 'comments/', {
    task: reviewTask,
    text: `@${lead.username} please look at **this**`,
  });
  await call(request, lead, 'POST', 'comments/', { task: reviewTask, text: 'On it.' });
  const unit = await call<{ unit: { id: number } }>(request, lead, 'GET', `tasks/${reviewTask}/`);
  // A pending invite and a webhook, so the settings screen shows every section filled.
  await call(request, lead, 'POST', `workspaces/${team.workspace}/invite/`, {
    users: [`${uniqueName('guest')}@example.test`],
    role: 'member',
  });
  await call(request, lead, 'POST', `workspaces/${team.workspace}/webhooks/`, {
    url: 'https://hooks.example.test/stageline',
    events: ['unit.created'],
  });
  const link = await call<{ token: string }>(request, lead, 'POST', `workspaces/${team.workspace}/link/`, {
    role: 'member',
  });

  // An account whose e-mail is not confirmed yet: signing in leads to the code step.
  const unverified = { username: uniqueName('pending'), password: 'quiet-otter-52-lamp' };
  const registered = await request.post('/api/users/register/', {
    data: { ...unverified, email: `${unverified.username}@example.test`, first_name: '', language: 'en' },
    headers: { 'x-forwarded-for': address() },
  });
  expect(registered.status()).toBe(201);

  const reset = await request.post('/api/users/password_reset/', {
    data: { email: lead.email },
    headers: { 'x-forwarded-for': address() },
  });
  expect(reset.ok()).toBe(true);
  const mail = await nextMail(lead.email, 'reset_pass');
  const resetLink = new URL(/https?:\/\/\S+\/reset_pass\?\S+/.exec(mail.text)![0]);

  return {
    lead,
    outsider,
    unverified,
    workspace: team.workspace,
    project: team.project,
    pipeline: flow.pipeline,
    stage: flow.stage,
    unit: unit.unit.id,
    reviewTask,
    inviteToken: link.token,
    resetPath: resetLink.pathname + resetLink.search,
  };
}

function address(): string {
  return `10.${[...randomBytes(3)].join('.')}`;
}

type Finding = { screen: string; rule: string; impact: string; help: string; targets: string[] };

async function audit(page: Page, screen: Screen, seed: Seed, variant: string): Promise<Finding[]> {
  await page.goto(screen.path(seed));
  if (screen.reach) await screen.reach(page, seed);
  await expect(screen.ready(page), `${screen.name} did not load`).toBeVisible({ timeout: 15_000 });
  // Let drawers and fades finish: colour contrast is measured on what is painted.
  await page.waitForTimeout(400);
  if (screen.snap) await snap(page, `a11y-${screen.snap}-${variant}`);
  return seriousFindings(page, screen.name, screen.exclude);
}

/** axe's serious and critical violations on what `page` shows now. */
async function seriousFindings(page: Page, name: string, exclude: string[] = []): Promise<Finding[]> {
  let builder = new AxeBuilder({ page }).withTags(tags);
  for (const selector of exclude) builder = builder.exclude(selector);
  const results = await builder.analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({
      screen: name,
      rule: v.id,
      impact: v.impact ?? '',
      help: `${v.help} (${v.helpUrl})`,
      targets: v.nodes.map(
        (n) =>
          `${n.target.join(' ')}  ${n.html.slice(0, 160)}  ${n.failureSummary?.split('\n').slice(1, 2).join('') ?? ''}`,
      ),
    }));
}

async function openContext(browser: Browser, baseURL: string | undefined, theme: string, language: string) {
  const context = await browser.newContext({
    baseURL,
    locale: language === 'ru' ? 'ru-RU' : 'en-US',
    colorScheme: theme === 'dark' ? 'dark' : 'light',
    extraHTTPHeaders: { 'x-forwarded-for': address() },
  });
  // The app keeps both choices in localStorage (app/providers.tsx, shared/i18n); set before every load.
  await context.addInitScript(
    ([themeValue, languageValue]) => {
      localStorage.setItem('theme', themeValue!);
      localStorage.setItem('language', languageValue!);
    },
    [theme, language],
  );
  return context;
}

/**
 * A session of its own for each browser context: the app refreshes an expired access token with the
 * refresh token, which rotates, so contexts must not share one (a reused refresh token is refused).
 */
async function session(request: APIRequestContext, user: TestUser): Promise<TestUser> {
  const response = await request.post('/api/users/login/', {
    data: { username: user.username, password: user.password },
    headers: { 'x-forwarded-for': address() },
  });
  expect(response.status()).toBe(200);
  return { ...user, ...((await response.json()) as { access: string; refresh: string }) };
}

async function signIn(page: Page, user: TestUser, workspace?: number) {
  await page.evaluate(
    ([tokens, id]) => {
      localStorage.setItem('authTokens', tokens);
      if (id) localStorage.setItem('current_workspace', String(id));
      else localStorage.removeItem('current_workspace');
    },
    [JSON.stringify({ access: user.access, refresh: user.refresh }), workspace ?? null] as const,
  );
}

let seed: Seed;

test.beforeAll(async ({ request }) => {
  test.setTimeout(60_000);
  seed = await seedData(request);
});

/**
 * Each theme and each language once: colours (contrast) follow the theme, names and text the
 * language, and neither depends on the other, so the other two pairings would repeat the same
 * checks for about two minutes of CI (docs/accessibility.md).
 */
const looks = [
  ['light', 'en'],
  ['dark', 'ru'],
] as const satisfies readonly (readonly [(typeof themes)[number], 'en' | 'ru'])[];

for (const [theme, language] of looks) {
  test(`no serious or critical axe violation on any screen: ${theme}, ${language}`, async ({
    browser,
    baseURL,
    request,
  }) => {
    test.setTimeout(240_000);
    const context = await openContext(browser, baseURL, theme, language);
    const page = await context.newPage();
    const findings: Finding[] = [];

    const run = async (screens: Screen[]) => {
      for (const screen of screens) {
        try {
          findings.push(...(await audit(page, screen, seed, `${theme}-${language}`)));
        } catch (error) {
          findings.push({
            screen: screen.name,
            rule: 'screen-failed',
            impact: 'critical',
            help: String(error),
            targets: [],
          });
        }
      }
    };
    await run(publicScreens);
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', theme);
    await expect(page.locator('html')).toHaveAttribute('lang', language);

    await signIn(page, await session(request, seed.outsider));
    await run(outsiderScreens);

    await signIn(page, await session(request, seed.lead), seed.workspace);
    await run(appScreens);
    await context.close();

    const report = findings
      .map((f) => `[${f.screen}] ${f.impact} ${f.rule}: ${f.help}\n${f.targets.map((t) => `    ${t}`).join('\n')}`)
      .join('\n');
    expect(findings, `axe (${theme}, ${language}):\n${report}`).toEqual([]);
  });
}

for (const theme of themes) {
  test(`keyboard focus is visible, and a dialog traps focus and gives it back: ${theme}`, async ({
    browser,
    baseURL,
    request,
  }) => {
    const context = await openContext(browser, baseURL, theme, 'en');
    const page = await context.newPage();
    await page.goto('/login');
    await signIn(page, await session(request, seed.lead), seed.workspace);
    await page.goto(`/app/tasks/${seed.reviewTask}`);
    const reject = page.getByTestId('task-reject');
    await expect(reject).toBeVisible();

    // Keyboard focus draws an outline of at least 2 px, in a colour other than the background.
    await reject.focus();
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Tab');
    await expect(reject).toBeFocused();
    const ring = await reject.evaluate((element) => {
      const style = getComputedStyle(element);
      return { style: style.outlineStyle, width: parseFloat(style.outlineWidth), color: style.outlineColor };
    });
    expect(ring.style).toBe('solid');
    expect(ring.width).toBeGreaterThanOrEqual(2);
    expect(ring.color).not.toBe('rgba(0, 0, 0, 0)');

    // The reject dialog: named by its title, focus inside and kept there, Escape gives it back.
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Reject task' });
    await expect(dialog).toBeVisible();
    await page.waitForTimeout(400);
    expect(await seriousFindings(page, 'reject dialog')).toEqual([]);
    for (let i = 0; i < 12; i++) {
      await page.keyboard.press('Tab');
      expect(await dialog.evaluate((element) => element.contains(document.activeElement))).toBe(true);
    }
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(reject).toBeFocused();

    // The command palette and the shortcuts help are dialogs too.
    await openPalette(page);
    await expect(page.getByTestId('palette-search')).toBeFocused();
    await page.waitForTimeout(400);
    expect(await seriousFindings(page, 'command palette')).toEqual([]);
    await page.keyboard.press('Escape');
    // Shortcuts never fire while typing: wait until the palette's field has gone.
    await expect(page.getByTestId('palette-search')).toBeHidden();
    await page.keyboard.press('Shift+?');
    await expect(page.getByRole('dialog', { name: 'Keyboard shortcuts' })).toBeVisible();
    await page.waitForTimeout(400);
    expect(await seriousFindings(page, 'shortcuts help')).toEqual([]);
    await snap(page, `a11y-shortcuts-${theme}`);
    await context.close();
  });
}
