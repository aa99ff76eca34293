import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { test as base, expect, type Page } from '@playwright/test';

export const screenshotDir = path.resolve(import.meta.dirname, '../../test-results/screenshots');

/** Saves a named full-page screenshot under test-results/screenshots/. */
export async function snap(page: Page, name: string): Promise<void> {
  await mkdir(screenshotDir, { recursive: true });
  await page.screenshot({ path: path.join(screenshotDir, `${name}.png`), fullPage: true });
}

/**
 * Waits until the app has taken over the page: the prerendered landing page is visible before its
 * buttons answer (main.tsx marks `<html data-interactive>` after the first render).
 */
export async function interactive(page: Page): Promise<void> {
  await expect(page.locator('html')).toHaveAttribute('data-interactive', '');
}

/** Every spec runs against the server global setup started. */
export const test = base.extend<{ closeOwnContexts: void }>({
  // Playwright fixtures must destructure their dependencies, even when there are none.
  // eslint-disable-next-line no-empty-pattern
  baseURL: async ({}, use) => {
    const url = process.env.E2E_BASE_URL;
    if (!url) throw new Error('E2E_BASE_URL is not set: run through playwright.config.ts');
    await use(url);
  },
  /**
   * Playwright closes the test's own context, not those a test opens itself (`openAs`, a second
   * user): left open, their pages kept their live streams and timers running through every later
   * test of the worker, and loaded the machine until clicks missed their menus. Each is closed when
   * its test ends (with its screenshot taken first if the test failed).
   */
  closeOwnContexts: [
    async ({ browser }, use) => {
      const before = new Set(browser.contexts());
      await use();
      const opened = browser.contexts().filter((context) => !before.has(context));
      await Promise.all(opened.map((context) => context.close()));
    },
    { auto: true },
  ],
});

export { expect };
