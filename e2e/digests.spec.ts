import { expect, snap, test } from './support/fixtures';

/**
 * The unsubscribe page of a digest's link (public). A valid link is covered by the API and render
 * tests (its token is signed with the server's secret); here the real server refuses a forged one,
 * and the page reads well in both themes.
 */
test.describe('unsubscribe page', () => {
  for (const scheme of ['light', 'dark'] as const) {
    test(`a forged link is refused with a clear message (${scheme})`, async ({ page }) => {
      await page.emulateMedia({ colorScheme: scheme });
      const answer = page.waitForResponse((r) => r.url().endsWith('/api/users/unsubscribe/'));
      await page.goto('/unsubscribe/eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.forged-signature');
      expect((await answer).status()).toBe(400);
      await expect(page.getByRole('heading', { level: 1, name: 'Unsubscribe from e-mail digests' })).toBeVisible();
      await expect(page.getByTestId('unsubscribe-invalid')).toContainText(
        'This unsubscribe link is invalid or has expired.',
      );
      await expect(page.getByTestId('unsubscribe-profile')).toBeVisible();
      await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', scheme);
      await snap(page, `unsubscribe-invalid-${scheme}`);
    });
  }
});
