import type { Page } from '@playwright/test';
import { registerUser } from './support/accounts';
import { call, oneStagePipeline, openAs, teamWorkspace } from './support/api';
import { expect, snap, test } from './support/fixtures';

/**
 * What a newcomer trips over (issue 19): the API docs under the CSP, the public pages for a
 * signed-in user, and inputs that keep what was typed in a real browser.
 */

/** Collects the page's CSP violations, as events and as console errors. */
async function watchCsp(page: Page): Promise<() => Promise<string[]>> {
  const consoleErrors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy/i.test(message.text()))
      consoleErrors.push(message.text());
  });
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { cspViolations: string[] }).cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (event) =>
      seen.push(`${event.violatedDirective} ${event.sourceFile}:${event.lineNumber}`),
    );
  });
  return async () => [
    ...consoleErrors,
    ...(await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations)),
  ];
}

test('/api/docs loads and expands an operation with no CSP violation', async ({ page }) => {
  const violations = await watchCsp(page);
  await page.goto('/api/docs');
  await expect(page.locator('.swagger-ui .info .title')).toContainText('Stageline API');
  const operation = page.locator('.opblock').first();
  await operation.locator('.opblock-summary').click();
  await expect(operation.locator('.opblock-body')).toBeVisible();
  await snap(page, 'api-docs-en-light');
  expect(await violations()).toEqual([]);
});

test('public pages greet a signed-in user, and their cards keep clear of the header', async ({
  browser,
  baseURL,
  request,
}) => {
  const user = await registerUser(request, { firstName: 'Nina' });
  const team = await teamWorkspace(request, user, [], 'Nina studio');
  const page = await openAs(browser, baseURL, user, team.workspace);
  for (const path of ['/docs', '/change_email?token=spent', '/i/no-such-link']) {
    await page.goto(path);
    await expect(page.getByTestId('public-open-app')).toBeVisible();
    await expect(page.getByTestId('public-login')).toHaveCount(0);
    await expect(page.getByTestId('public-register')).toHaveCount(0);
  }
  // The invite card (here: the link is unknown) stands apart from the header, as in the app.
  const card = page.getByTestId('page-card');
  await expect(card).toContainText('Accept invite');
  const header = await page.locator('header').first().boundingBox();
  const box = await card.boundingBox();
  expect(box!.y - (header!.y + header!.height)).toBeGreaterThanOrEqual(16);
  await snap(page, 'invite-unknown-signed-in-en-light');
  await page.getByTestId('public-open-app').click();
  await expect(page).toHaveURL(/\/app$/);
  await page.context().close();
});

test('typing past a limit keeps the text and says what is wrong', async ({ browser, baseURL, request }) => {
  const user = await registerUser(request);
  const team = await teamWorkspace(request, user, [], 'Limits studio');
  await call(request, user, 'POST', 'pipelines/', { project: team.project, name: 'Shots' });
  const page = await openAs(browser, baseURL, user, team.workspace);

  await page.goto('/app/projects/create');
  const name = page.getByTestId('project-create-name');
  await name.fill('x'.repeat(300));
  await expect(name).toHaveValue('x'.repeat(300));
  await page.getByTestId('project-create-submit').click();
  await expect(page.getByText('Ensure this field has no more than 200 characters.')).toBeVisible();

  await page.goto(`/app/projects/${team.project}/units/create_multiple`);
  const count = page.getByTestId('batch-count');
  await count.fill('20000');
  await count.blur();
  await expect(count).toHaveValue('20000');
  await expect(page.getByText('Ensure this value is less than or equal to 10000.')).toBeVisible();
  const start = page.getByTestId('batch-start');
  await start.fill('-1');
  await start.blur();
  await expect(start).toHaveValue('-1');
  await expect(page.getByText('Ensure this value is greater than or equal to 0.')).toBeVisible();
  await snap(page, 'batch-limits-en-light');
  await page.context().close();
});

test('units list in natural order: Shot 2 before Shot 10', async ({ browser, baseURL, request }) => {
  const user = await registerUser(request);
  const team = await teamWorkspace(request, user, [], 'Order studio');
  const { pipeline } = await oneStagePipeline(request, user, team.project, {}, []);
  await call(request, user, 'POST', 'units/batch/', {
    project: team.project,
    pipeline,
    template: 'Shot {count}',
    count: 12,
    start: 1,
    step: 1,
  });
  const page = await openAs(browser, baseURL, user, team.workspace);
  await page.goto(`/app/projects/${team.project}/units?pipeline=${pipeline}`);
  const names = page.getByTestId('matrix-unit-link');
  await expect(names).toHaveCount(12);
  expect(await names.allTextContents()).toEqual(Array.from({ length: 12 }, (_, i) => `Shot ${i + 1}`));
  await page.context().close();
});
