import { expect, type Page } from '@playwright/test';

/**
 * Opens the command palette with Ctrl+K once the shell listens for it. The shortcut toggles it, and
 * a palette that is closing (its action just ran) still shows its search while its transition runs,
 * so the search counts as open only with `data-opened`, and the helper waits for a closing one to
 * go. Ctrl+K is pressed again only if the palette has not opened within 5 s: a second press while a
 * slow first one is still opening would close it.
 */
export async function openPalette(page: Page): Promise<void> {
  const opened = page.locator('[data-testid="palette-search"][data-opened]');
  // The shortcut listens once the shell is drawn (its header's palette button comes in the same
  // render). A palette still closing keeps the focus in its search, and Ctrl+K is not a shortcut
  // inside a text field (it is a Markdown editor's link): wait until it has gone.
  await expect(page.getByTestId('palette-open')).toBeAttached();
  await expect(page.locator('[data-testid="palette-search"]:not([data-opened])')).toHaveCount(0);
  await expect(async () => {
    if (!(await opened.isVisible())) await page.keyboard.press('Control+K');
    await expect(opened).toBeVisible({ timeout: 5_000 });
  }).toPass({ timeout: 20_000 });
}
