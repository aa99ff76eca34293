import type { Page } from '@playwright/test';
import { nextCode, nextMail, submitRegisterForm, uniqueName } from './support/accounts';
import { expect, snap, test } from './support/fixtures';

async function typeCode(page: Page, prefix: string, code: string) {
  await page.getByTestId(`${prefix}-0`).click();
  await page.keyboard.type(code);
}

async function logOut(page: Page) {
  await page.getByTestId('app-menu').click();
  await page.getByTestId('menu-logout').click();
  await expect(page).toHaveURL(/\/login/);
}

async function logIn(page: Page, username: string, password: string) {
  await page.getByTestId('login-username').fill(username);
  await page.getByTestId('login-password').fill(password);
  await page.getByTestId('login-submit').click();
}

test.describe('accounts and sign-in', () => {
  test('register → code by e-mail → signed in → log out → log in by e-mail → reset password → 2FA → log in with a code', async ({
    page,
  }) => {
    const username = uniqueName('e2e');
    const email = `${username}@example.test`;
    const password = 'violet-anchor-47-lantern';
    const newPassword = 'copper-meadow-83-harbor';

    // Register.
    await page.goto('/register');
    await page.getByTestId('register-username').fill(username);
    await page.getByTestId('register-email').fill(email);
    await page.getByTestId('register-password').fill('short');
    await expect(page.getByTestId('password-strength-label')).toContainText('too short');
    await page.getByTestId('register-password').fill(password);
    await page.getByTestId('register-password-confirm').fill(`${password}x`);
    await page.getByTestId('register-submit').click();
    await expect(page.getByText("Passwords doesn't matches")).toBeVisible();
    await page.getByTestId('register-password-confirm').fill(password);
    await snap(page, 'register-en-light');
    await page.getByTestId('register-submit').click();

    // The code arrives at the real SMTP server; a wrong one is refused first.
    await expect(page.getByTestId('otp-step')).toBeVisible();
    await snap(page, 'otp-en-light');
    const code = await nextCode(email);
    const wrong = code === '000000' ? '111111' : '000000';
    await typeCode(page, 'otp-input', wrong);
    await expect(page.getByText('Code is invalid, try to resend')).toBeVisible();
    await typeCode(page, 'otp-input', code);
    await expect(page).toHaveURL(/\/app\/quickstart/);

    // Log out, then log in with the e-mail instead of the username.
    await logOut(page);
    expect(await page.evaluate(() => localStorage.getItem('authTokens'))).toBeNull();
    await logIn(page, email, 'not-the-password');
    await expect(page.getByTestId('login-error')).toContainText('Failed to login');
    await logIn(page, email, password);
    await expect(page).toHaveURL(/\/app/);
    await logOut(page);

    // Reset the password through the e-mailed link.
    await page.getByTestId('login-forgot').click();
    await expect(page).toHaveURL(/\/reset_pass/);
    await page.getByTestId('reset-email').fill(email);
    await page.getByTestId('reset-submit').click();
    await expect(page.getByTestId('reset-sent')).toBeVisible();
    const resetMail = await nextMail(email, 'reset_pass');
    const link = /https?:\/\/\S+\/reset_pass\?\S+/.exec(resetMail.text)?.[0];
    expect(link).toMatch(/\/reset_pass\?.*token=/);
    await page.goto(new URL(link!).pathname + new URL(link!).search);
    await page.getByTestId('reset-password').fill(newPassword);
    await page.getByTestId('reset-password-confirm').fill(newPassword);
    await snap(page, 'reset-password-en-light');
    await page.getByTestId('reset-confirm-submit').click();
    await expect(page).toHaveURL(/\/login/);
    await logIn(page, username, password);
    await expect(page.getByTestId('login-error')).toContainText('Failed to login');
    await logIn(page, username, newPassword);
    await expect(page).toHaveURL(/\/app/);

    // Turn on two-factor authentication with an e-mailed code.
    await page.goto('/app/profile');
    await expect(page.getByTestId('profile-2fa-status')).toHaveAttribute('data-enabled', 'false');
    await page.getByTestId('profile-2fa-toggle').click();
    const twoFactorCode = await nextCode(email);
    await typeCode(page, 'profile-2fa-code-code', twoFactorCode);
    await page.getByTestId('profile-2fa-code-submit').click();
    await expect(page.getByTestId('profile-2fa-status')).toHaveAttribute('data-enabled', 'true');
    await snap(page, 'profile-en-light');

    // Logging in now asks for a code.
    await logOut(page);
    await logIn(page, username, newPassword);
    await expect(page.getByTestId('otp-step')).toBeVisible();
    await typeCode(page, 'otp-input', await nextCode(email));
    await expect(page).toHaveURL(/\/app/);
    await expect(page.getByTestId('app-menu')).toBeVisible();
  });

  test('a guarded page sends a signed-out visitor to login and back after it', async ({ page, request }) => {
    const username = uniqueName('guard');
    const email = `${username}@example.test`;
    const password = 'amber-quartz-19-willow';
    const registered = await request.post('/api/users/register/', { data: { username, email, password } });
    const { ephemeral_token } = (await registered.json()) as { ephemeral_token: string };
    await request.post('/api/otp/check/', { data: { code: await nextCode(email), ephemeral_token } });

    await page.goto('/app/profile');
    await expect(page).toHaveURL(/\/login\?next=%2Fapp%2Fprofile/);
    await logIn(page, username, password);
    await expect(page).toHaveURL(/\/app\/profile$/);
  });

  test('auth screens in Russian and dark', async ({ page }) => {
    await page.goto('/login');
    await page.evaluate(() => {
      localStorage.setItem('language', 'ru');
      localStorage.setItem('theme', 'dark');
    });
    for (const [path, name] of [
      ['/login', 'login-ru-dark'],
      ['/register', 'register-ru-dark'],
      ['/reset_pass', 'reset-password-ru-dark'],
    ] as const) {
      await page.goto(path);
      await expect(page.locator('html')).toHaveAttribute('lang', 'ru');
      await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
      await page.waitForLoadState('networkidle');
      await snap(page, name);
    }
    await expect(page.getByTestId('reset-submit')).toBeVisible();

    // The code step, in Russian.
    const username = uniqueName('ru');
    await page.goto('/register');
    await submitRegisterForm(page, { username, email: `${username}@example.test` });
    await expect(page.getByTestId('otp-step')).toBeVisible();
    await snap(page, 'otp-ru-dark');

    // The profile, in Russian, once signed in with the e-mailed code.
    await typeCode(page, 'otp-input', await nextCode(`${username}@example.test`));
    await expect(page).toHaveURL(/\/app/);
    await page.goto('/app/profile');
    await expect(page.getByTestId('profile-2fa-status')).toBeVisible();
    await snap(page, 'profile-ru-dark');
  });
});
