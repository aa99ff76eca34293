import { randomBytes } from 'node:crypto';
import { OAuth2Server } from 'oauth2-mock-server';
import { request as requestApi } from '@playwright/test';
import { registerUser } from './support/accounts';
import { call } from './support/api';
import { expect, snap, test } from './support/fixtures';
import { startServer, type RunningServer } from './support/server';

/**
 * Sign-in through another service, in Chromium, against a real OpenID Connect server
 * (oauth2-mock-server) on 127.0.0.1 and an app server configured with it as the generic provider.
 */
type Identity = { sub: string; email: string; email_verified: boolean; preferred_username: string; name: string };

let provider: OAuth2Server;
let server: RunningServer;
let identity: Identity;

test.beforeAll(async () => {
  provider = new OAuth2Server();
  await provider.issuer.keys.generate('RS256');
  await provider.start(0, '127.0.0.1');
  // The mock calls itself localhost; the app discovers it where it listens (STACK.md).
  provider.issuer.url = `http://127.0.0.1:${provider.address().port}`;
  provider.service.on('beforeTokenSigning', (token: { payload: Record<string, unknown> }) => {
    Object.assign(token.payload, identity);
  });
  provider.service.on('beforeUserinfo', (response: { body: unknown }) => {
    response.body = { ...identity };
  });
  server = await startServer({
    OAUTH_OIDC_ISSUER: provider.issuer.url,
    OAUTH_OIDC_CLIENT_ID: 'stageline-e2e',
    OAUTH_OIDC_CLIENT_SECRET: 'e2e-secret',
    OAUTH_OIDC_NAME: 'Test ID',
    // The suite's SMTP server, so a user registered here gets their code (registerUser).
    ...(process.env.E2E_SMTP_URL ? { SMTP_URL: process.env.E2E_SMTP_URL } : {}),
  });
});

test.afterAll(async () => {
  await server?.stop();
  await provider?.stop();
});

test.beforeEach(() => {
  const tag = randomBytes(4).toString('hex');
  identity = {
    sub: `e2e-${tag}`,
    email: `oidc${tag}@example.com`,
    email_verified: true,
    preferred_username: `oidc${tag}`,
    name: 'Ada Lovelace',
  };
});

test('signs up and in with an OpenID Connect provider, and keeps the last way to sign in', async ({ page }) => {
  await page.goto(`${server.url}/login`);
  const button = page.getByTestId('oauth-oidc');
  await expect(button).toHaveText('Continue with Test ID');
  await button.click();

  // The provider sends the browser back to /oauth/oidc, which signs in and goes on to /app.
  await page.waitForURL((url) => url.pathname.startsWith('/app'));
  expect(await page.evaluate(() => localStorage.getItem('authTokens'))).toContain('access');
  await expect(page.getByTestId('loading-overlay')).toHaveCount(0);
  await snap(page, 'oauth-return-en');

  // The profile lists the provider as linked; unlinking the only way in is refused with the reason.
  await page.goto(`${server.url}/app/profile`);
  const row = page.locator('[data-testid="profile-oauth-account"][data-provider="oidc"]');
  await expect(row).toHaveAttribute('data-linked', 'true');
  await expect(row).toContainText(identity.email);
  await row.getByTestId('profile-oauth-unlink').click();
  await expect(page.getByText('You cannot unlink the last way to sign in.', { exact: false })).toBeVisible();
  await expect(row).toHaveAttribute('data-linked', 'true');

  // Signing out and in again with the same provider account finds the same user.
  const me = await page.evaluate(async () => {
    const tokens = JSON.parse(localStorage.getItem('authTokens') ?? '{}') as { access?: string };
    const response = await fetch('/api/users/me/', { headers: { Authorization: `Bearer ${tokens.access}` } });
    return (await response.json()) as { id: number; username: string; has_password: boolean };
  });
  expect(me).toMatchObject({ username: identity.preferred_username, has_password: false });
  await page.goto(`${server.url}/logout`);
  await page.waitForURL((url) => !url.pathname.startsWith('/logout'));
  await page.goto(`${server.url}/login?next=${encodeURIComponent('/app/profile')}`);
  await page.getByTestId('oauth-oidc').click();
  await page.waitForURL((url) => url.pathname === '/app/profile');
  await expect(page.locator('[data-testid="profile-oauth-account"][data-provider="oidc"]')).toContainText(
    identity.email,
  );
});

test('shows the error a provider sent back, with a way to the login screen', async ({ page }) => {
  await page.goto(`${server.url}/oauth/oidc?error=access_denied&error_description=The+user+cancelled`);
  await expect(page.getByTestId('oauth-return-error')).toContainText('The user cancelled');
  await snap(page, 'oauth-return-error-en');
  await page.getByTestId('oauth-return-login').click();
  await expect(page).toHaveURL(`${server.url}/login`);
});

test('refuses a callback this browser did not start', async ({ page }) => {
  await page.goto(`${server.url}/oauth/oidc?code=stolen&state=whatever`);
  await expect(page.getByTestId('oauth-return-error')).toContainText('expired or was opened in another browser');
});

test('a link invite survives signing up with the provider from the register screen', async ({ page }) => {
  const api = await requestApi.newContext({ baseURL: server.url });
  const owner = await registerUser(api, { firstName: 'Olga' });
  const workspace = await call<{ id: number }>(api, owner, 'POST', 'workspaces/', { name: 'Lighthouse' });
  const link = await call<{ token: string }>(api, owner, 'POST', `workspaces/${workspace.id}/link/`, {
    role: 'member',
  });
  await api.dispose();

  // Signed out, the link asks for sign-in; the newcomer goes on to Register and signs up with Test ID.
  const invite = `/i/${link.token}`;
  await page.goto(`${server.url}${invite}`);
  await page.getByTestId('login-register').click();
  await expect(page).toHaveURL(`${server.url}/register?next=${encodeURIComponent(invite)}`);
  await page.getByTestId('oauth-oidc').click();

  // The provider sends the browser back; the new account lands on the invite and joins.
  await page.waitForURL(`${server.url}${invite}`);
  await expect(page.getByTestId('invite-preview')).toContainText('Olga invites you to the workspace Lighthouse.');
  await page.getByTestId('invite-preview-accept').click();
  await expect(page).toHaveURL(`${server.url}/app/workspaces/${workspace.id}`);
  await expect(page.getByTestId('workspace-switcher')).toHaveText('Lighthouse');
});
