import type { Page, Route } from '@playwright/test';
import { readManifest } from '../scripts/bundles';
import { expect, interactive, snap, test } from './support/fixtures';

async function chooseRussianDark(page: Page) {
  await page.getByTestId('language-switcher').click();
  await page.getByTestId('language-ru').click();
  await page.getByTestId('theme-switcher').click();
  await page.getByTestId('theme-dark').click();
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
}

/** Every image of the article has loaded (the review-mode diagrams). */
async function expectImagesLoaded(page: Page, count: number) {
  const images = page.getByTestId('docs-page').locator('img');
  await expect(images).toHaveCount(count);
  for (const image of await images.all()) {
    await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  }
}

test.describe('public pages', () => {
  test('docs in English: pages, highlighted navigation, previous/next and search', async ({ page }) => {
    await page.emulateMedia({ colorScheme: 'light' });
    await page.goto('/docs');
    const article = page.getByTestId('docs-page');
    await expect(article.getByRole('heading', { level: 1, name: 'Getting started' })).toBeVisible();
    await expect(page.getByTestId('docs-nav-getting-started')).toHaveAttribute('aria-current', 'page');
    await expect(page.getByTestId('docs-nav')).toContainText('Self-hosting');
    await expect(page.getByTestId('docs-previous')).toHaveCount(0);

    await page.getByTestId('docs-next').click();
    await expect(page).toHaveURL(/\/docs\/workspaces-and-roles$/);
    await expect(article.getByRole('heading', { level: 1, name: 'Workspaces and roles' })).toBeVisible();
    await expect(page.getByTestId('docs-nav-workspaces-and-roles')).toHaveAttribute('aria-current', 'page');
    await expect(page.getByTestId('docs-nav-getting-started')).not.toHaveAttribute('aria-current', 'page');
    // The rights table of the product, rendered as a table.
    await expect(article.getByRole('cell', { name: 'Owner', exact: true })).toBeVisible();

    // Links between pages stay in the app.
    await page.getByTestId('docs-nav-units').click();
    await article.getByRole('link', { name: 'Tasks' }).first().click();
    await expect(page).toHaveURL(/\/docs\/tasks$/);

    await page.getByTestId('docs-search').fill('cycles');
    const results = page.getByTestId('docs-search-result');
    await expect(results.first()).toBeVisible();
    await results.filter({ hasText: 'Pipelines and the editor' }).first().click();
    await expect(page).toHaveURL(/\/docs\/pipelines-and-editor#/);
    await expect(article.getByRole('heading', { level: 1, name: 'Pipelines and the editor' })).toBeVisible();
    await expect(page.getByTestId('docs-search')).toHaveValue('');

    await page.getByTestId('docs-search').fill('zzqx');
    await expect(page.getByTestId('docs-search-results')).toContainText('Nothing found');
    await page.getByTestId('docs-search').fill('');

    await page.getByTestId('docs-nav-review-modes').click();
    await expectImagesLoaded(page, 3);
    await snap(page, 'docs-en-light');
  });

  test('a deep link opens its page directly; an unknown page says so', async ({ page }) => {
    await page.goto('/docs/review-modes');
    const article = page.getByTestId('docs-page');
    await expect(article.getByRole('heading', { level: 1, name: 'Review modes' })).toBeVisible();
    await expect(article.getByRole('heading', { level: 2, name: 'Each reviewer, wait' })).toBeVisible();
    await expect(page.getByTestId('docs-nav-review-modes')).toHaveAttribute('aria-current', 'page');
    await expectImagesLoaded(page, 3);

    await page.goto('/docs/self-hosting#configuration');
    await expect(article.getByRole('heading', { level: 2, name: 'Configuration' })).toBeInViewport();
    await expect(article.getByRole('cell', { name: 'DATABASE_URL' })).toBeVisible();

    await page.goto('/docs/no-such-page');
    await expect(page.getByTestId('docs-not-found')).toBeVisible();
  });

  test('docs in Russian, dark: the same pages translated, search in Russian', async ({ page }) => {
    await page.goto('/docs');
    await chooseRussianDark(page);
    const article = page.getByTestId('docs-page');
    await expect(article.getByRole('heading', { level: 1, name: 'Начало работы' })).toBeVisible();
    await expect(page.getByTestId('docs-nav-review-modes')).toHaveText('Режимы проверки');

    await page.getByTestId('docs-search').fill('рецензенты');
    const results = page.getByTestId('docs-search-result');
    await expect(results.first()).toBeVisible();
    await results
      .filter({ hasText: /^Режимы проверки/ })
      .first()
      .click();
    await expect(page).toHaveURL(/\/docs\/review-modes/);
    await expect(article.getByRole('heading', { level: 1, name: 'Режимы проверки' })).toBeVisible();
    await expect(page.getByTestId('docs-nav-review-modes')).toHaveAttribute('aria-current', 'page');
    await page.evaluate(() => window.scrollTo(0, 0));
    await expectImagesLoaded(page, 3);
    await snap(page, 'docs-ru-dark');
  });

  test('docs on a phone: the contents open in a drawer', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/docs');
    await expect(page.getByTestId('docs-nav')).toBeHidden();
    await page.getByTestId('docs-menu').click();
    const drawer = page.getByRole('dialog');
    await drawer.getByTestId('docs-nav-keyboard-shortcuts').click();
    await expect(page).toHaveURL(/\/docs\/keyboard-shortcuts$/);
    await expect(drawer).toBeHidden();
    await expect(page.getByTestId('docs-page').getByRole('heading', { level: 1 })).toHaveText('Keyboard shortcuts');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
  });

  test('versions in English: the changelog with the running version', async ({ page, request }) => {
    const { version } = (await (await request.get('/api/config/')).json()) as { version: string };
    await page.emulateMedia({ colorScheme: 'light' });
    await page.goto('/versions');
    await expect(page.getByRole('heading', { level: 1, name: 'Version history' })).toBeVisible();
    const unreleased = page.getByTestId('release-Unreleased');
    await expect(unreleased.getByRole('heading', { name: 'Unreleased' })).toBeVisible();
    await expect(unreleased.getByRole('heading', { name: 'Added' })).toBeVisible();
    await expect(unreleased).toContainText('The web shell');
    await expect(page.getByTestId('running-version-number')).toHaveText(version);
    await expect(page.getByTestId('versions-english-note')).toHaveCount(0);
    await snap(page, 'versions-en-light');
  });

  test('versions in Russian, dark: section names translated, entries in English', async ({ page }) => {
    await page.goto('/versions');
    await chooseRussianDark(page);
    await expect(page.getByRole('heading', { level: 1, name: 'История версий' })).toBeVisible();
    const unreleased = page.getByTestId('release-Unreleased');
    await expect(unreleased.getByRole('heading', { name: 'Не выпущено' })).toBeVisible();
    await expect(unreleased.getByRole('heading', { name: 'Добавлено' })).toBeVisible();
    await expect(unreleased).toContainText('The web shell');
    await expect(page.getByTestId('versions-english-note')).toHaveText(
      'Записи журнала изменений ведутся на английском.',
    );
    await expect(page.getByTestId('running-version-number')).toBeVisible();
    await snap(page, 'versions-ru-dark');
  });

  test("a switcher pressed just as its menu's code arrives opens its menu (entry 118)", async ({ page }) => {
    // The menu's module is held back until the button is pressed, and arrives between the press and
    // the release. The menu draws its own button: put in place then, it would lose the click.
    const menuChunk = readManifest()['src/shared/ui/switcher-menu.tsx']!.file;
    const held: Route[] = [];
    let release = false;
    await page.route(`**/${menuChunk}`, async (route) => {
      if (release) await route.continue();
      else held.push(route);
    });
    await page.goto('/versions');
    await interactive(page);
    await expect.poll(() => held.length).toBeGreaterThan(0);
    const button = page.getByTestId('language-switcher');
    await button.evaluate((element) => element.setAttribute('data-placeholder', ''));
    const box = (await button.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    release = true;
    for (const route of held) await route.continue();
    // The module has arrived and run while the button is still held down.
    await expect
      .poll(() =>
        page.evaluate(
          (file) => performance.getEntriesByType('resource').some((entry) => entry.name.endsWith(file)),
          menuChunk,
        ),
      )
      .toBe(true);
    // Time for React to put the menu in place, as it did before the release was awaited.
    await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 200)));
    await page.mouse.up();
    await expect(page.getByTestId('language-ru')).toBeVisible();
    await expect(page.locator('[data-testid="language-switcher"][data-placeholder]')).toHaveCount(0);
    await page.getByTestId('language-ru').click();
    await expect(page.getByRole('heading', { level: 1, name: 'История версий' })).toBeVisible();
  });
});
