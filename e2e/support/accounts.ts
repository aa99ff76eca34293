import { randomBytes } from 'node:crypto';
import type { APIRequestContext, Page } from '@playwright/test';

export type TestUser = {
  id: number;
  username: string;
  email: string;
  password: string;
  access: string;
  refresh: string;
};

/** The next mail to `to` (optionally whose subject or text matches `match`), from the SMTP server. */
export async function nextMail(to: string, match?: string): Promise<{ subject: string; text: string; html: string }> {
  const base = process.env.E2E_MAIL_URL;
  if (!base) throw new Error('E2E_MAIL_URL is not set: run through playwright.config.ts');
  const query = new URLSearchParams({ to, ...(match ? { match } : {}) });
  const response = await fetch(`${base}/next?${query}`);
  if (!response.ok) throw new Error(`No mail to ${to}: ${await response.text()}`);
  return (await response.json()) as { subject: string; text: string; html: string };
}

/** The 6-digit code in the next mail to `to`. */
export async function nextCode(to: string): Promise<string> {
  const mail = await nextMail(to, String.raw`\b\d{6}\b`);
  const code = /\b\d{6}\b/.exec(mail.text)?.[0];
  if (!code) throw new Error(`No code in the mail to ${to}: ${mail.text}`);
  return code;
}

export function uniqueName(prefix: string): string {
  return `${prefix}_${randomBytes(4).toString('hex')}`;
}

/**
 * Registers a user through the API, reading the code from the real SMTP server, as a fast way
 * into journeys that are not about sign-up.
 */
export async function registerUser(
  request: APIRequestContext,
  options: { username?: string; password?: string; language?: 'en' | 'ru'; firstName?: string } = {},
): Promise<TestUser> {
  const username = options.username ?? uniqueName('user');
  const email = `${username}@example.test`;
  const password = options.password ?? 'correct horse battery staple';
  // Each user arrives from an address of its own (the server trusts X-Forwarded-For in the e2e run).
  const address = `10.${[...randomBytes(3)].join('.')}`;
  const registered = await request.post('/api/users/register/', {
    data: { username, email, password, first_name: options.firstName ?? '', language: options.language ?? 'en' },
    headers: { 'x-forwarded-for': address },
  });
  if (registered.status() !== 201) throw new Error(`register: ${registered.status()} ${await registered.text()}`);
  const { ephemeral_token } = (await registered.json()) as { ephemeral_token: string };
  const code = await nextCode(email);
  const checked = await request.post('/api/otp/check/', {
    data: { code, ephemeral_token },
    headers: { 'x-forwarded-for': address },
  });
  if (!checked.ok()) throw new Error(`otp/check: ${checked.status()} ${await checked.text()}`);
  const tokens = (await checked.json()) as { access: string; refresh: string };
  const me = await request.get('/api/users/me/', { headers: { Authorization: `Bearer ${tokens.access}` } });
  const { id } = (await me.json()) as { id: number };
  return { id, username, email, password, ...tokens };
}

/** Puts a user's tokens where the web app keeps them, so the next page load is signed in. */
export async function signInAs(page: Page, user: TestUser): Promise<void> {
  await page.goto('/');
  await page.evaluate((tokens) => localStorage.setItem('authTokens', JSON.stringify(tokens)), {
    access: user.access,
    refresh: user.refresh,
  });
}

/**
 * Fills /register's form (already open) for a new account and sends it; resolves once the e-mailed
 * code is asked for. The password is the one every journey uses unless given.
 */
export async function submitRegisterForm(
  page: Page,
  account: { username: string; email: string; password?: string },
): Promise<{ password: string }> {
  const password = account.password ?? 'lilac-harbor-62-candle';
  await page.getByTestId('register-username').fill(account.username);
  await page.getByTestId('register-email').fill(account.email);
  await page.getByTestId('register-password').fill(password);
  await page.getByTestId('register-password-confirm').fill(password);
  await page.getByTestId('register-submit').click();
  await page.getByTestId('otp-step').waitFor();
  return { password };
}
