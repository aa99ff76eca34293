import { expect, type Page } from '@playwright/test';

/**
 * Opens the command palette with Ctrl+K. The shortcut toggles it, and a palette that is closing (its
 * action just ran) still shows its search while its transition runs, so the search counts as open
 * only with `data-opened`. Ctrl+K is pressed again only if the palette has not opened within 5 s (the
 * press came before the page listened): a second press while a slow first one is still opening
 * would close it.
 */
export async function openPalette(page: Page): Promise<void> {
  const opened = page.locator('[data-testid="palette-search"][data-opened]');
  await expect(async () => {
    if (!(await opened.isVisible())) await page.keyboard.press('Control+K');
    await expect(opened).toBeVisible({ timeout: 5_000 });
  }).toPass({ timeout: 20_000 });
}
