import { expect, type Page } from '@playwright/test';

/**
 * Opens the command palette with Ctrl+K. The shortcut toggles it, so a press landing while the last
 * one is still closing (or before the page listens) is tried again only while the search is hidden.
 */
export async function openPalette(page: Page): Promise<void> {
  const search = page.getByTestId('palette-search');
  await expect(async () => {
    if (!(await search.isVisible())) await page.keyboard.press('Control+K');
    await expect(search).toBeVisible({ timeout: 1_500 });
  }).toPass({ timeout: 15_000 });
}
