import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { SignJWT } from 'jose';
import { OAuth2Server } from 'oauth2-mock-server';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import type { TMe, TTokenPair } from '@stageline/shared';
import { schema, type Database } from '../../db';
import { bearer, login, password, register, relaxedLimits, signUp } from '../../../test/accounts';
import { buildTestApp, createTestDatabase, type TestApp } from '../../../test/helpers';
import { startMailbox, type Mailbox } from '../../../test/mailbox';
import { flowCookieName } from './flow-cookie';

/**
 * OAuth sign-in and linking against a real OpenID Connect server (oauth2-mock-server) on
 * 127.0.0.1: the authorize endpoint is driven over HTTP, openid-client does discovery, PKCE, the
 * token exchange, ID token checks and userinfo for real.
 */
const secretKey = 'oauth-test-secret-key-of-at-least-32-chars';
/** The origin of `app.inject()` requests: the redirect URI is built on it (no PUBLIC_URL here). */
const origin = 'http://localhost:80';

type Identity = {
  sub: string;
  email?: string;
  email_verified?: boolean;
  preferred_username?: string;
  given_name?: string;
  family_name?: string;
};

let database: Database;
let mailbox: Mailbox;
let provider: OAuth2Server;
let t: TestApp;
/** Who the mock provider says signs in next. */
let identity: Identity;

beforeAll(async () => {
  provider = new OAuth2Server();
  await provider.issuer.keys.generate('RS256');
  await provider.start(0, '127.0.0.1');
  // The mock names itself http://localhost:{port}; discovery checks the issuer, so use the address it listens on.
  provider.issuer.url = `http://127.0.0.1:${provider.address().port}`;
  provider.service.on('beforeTokenSigning', (token: { payload: Record<string, unknown> }) => {
    Object.assign(token.payload, identity);
  });
  provider.service.on('beforeUserinfo', (response: { body: unknown }) => {
    response.body = { ...identity };
  });
  [database, mailbox] = await Promise.all([createTestDatabase(), startMailbox()]);
  t = await buildTestApp({
    database,
    authLimits: relaxedLimits,
    config: {
      secretKey,
      smtpUrl: mailbox.url,
      oauthProviders: [
        {
          id: 'oidc',
          name: 'Test ID',
          kind: 'oidc',
          issuer: provider.issuer.url,
          clientId: 'stageline',
          clientSecret: 's3cret',
        },
        { id: 'gitlab', name: 'GitLab', kind: 'oidc', issuer: provider.issuer.url, clientId: 'gl', clientSecret: 'x' },
      ],
    },
  });
});
afterAll(async () => {
  await t?.close();
  await mailbox?.close();
  await database?.close();
  await provider?.stop();
});
beforeEach(() => {
  identity = newIdentity();
});

function newIdentity(overrides: Partial<Identity> = {}): Identity {
  const tag = randomBytes(4).toString('hex');
  return {
    sub: `sub-${tag}`,
    email: `ext${tag}@example.com`,
    email_verified: true,
    preferred_username: `ext${tag}`,
    given_name: 'Grace',
    family_name: 'Hopper',
    ...overrides,
  };
}

const cookieOf = (setCookie: string | string[] | undefined) => {
  const header = Array.isArray(setCookie) ? setCookie[0] : setCookie;
  const match = new RegExp(`${flowCookieName}=([^;]*)`).exec(header ?? '');
  return match?.[1] ?? '';
};

/** Follows the provider's authorize URL like a browser that is already signed in there. */
async function authorize(url: string): Promise<{ code: string; state: string; redirect: URL }> {
  const response = await fetch(url, { redirect: 'manual' });
  expect(response.status).toBe(302);
  const redirect = new URL(response.headers.get('location')!);
  return { code: redirect.searchParams.get('code')!, state: redirect.searchParams.get('state')!, redirect };
}

/** GET oauth/login/{provider}/ as the /oauth screen calls it, with the flow cookie. */
function callback(name: string, query: { code: string; state: string }, cookie: string | null, headers = {}) {
  return t.app.inject({
    method: 'GET',
    url: `/api/oauth/login/${name}/?${new URLSearchParams(query).toString()}`,
    headers: { ...(cookie === null ? {} : { cookie: `${flowCookieName}=${cookie}` }), ...headers },
  });
}

/** A whole sign-in: start, the provider's page, back with the code. */
async function oauthSignIn(
  name = 'oidc',
  { next, headers = {} }: { next?: string; headers?: Record<string, string> } = {},
) {
  const start = await t.app.inject({
    method: 'GET',
    url: `/api/oauth/login/${name}/start/${next ? `?next=${encodeURIComponent(next)}` : ''}`,
  });
  expect(start.statusCode, start.body).toBe(302);
  const { code, state } = await authorize(start.headers.location as string);
  return callback(name, { code, state }, cookieOf(start.headers['set-cookie']), headers);
}

const me = async (tokens: { access: string }) => {
  const response = await t.app.inject({ method: 'GET', url: '/api/users/me/', headers: bearer(tokens) });
  expect(response.statusCode).toBe(200);
  return response.json<TMe>();
};

describe('providers and start', () => {
  test('lists the configured providers', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/oauth/providers/' });
    expect(response.json()).toEqual([
      { id: 'oidc', name: 'Test ID' },
      { id: 'gitlab', name: 'GitLab' },
    ]);
  });

  test('redirects to the provider with PKCE (S256), state and nonce, and sets the flow cookie', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/oauth/login/oidc/start/?next=/app/tasks/7' });
    expect(response.statusCode).toBe(302);
    const url = new URL(response.headers.location as string);
    expect(url.origin + url.pathname).toBe(`${provider.issuer.url}/authorize`);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      client_id: 'stageline',
      response_type: 'code',
      redirect_uri: `${origin}/oauth/oidc`,
      scope: 'openid email profile',
      state: expect.stringMatching(/^[\w-]{40,}$/) as unknown,
      nonce: expect.stringMatching(/^[\w-]{40,}$/) as unknown,
      code_challenge: expect.stringMatching(/^[\w-]{43}$/) as unknown,
      code_challenge_method: 'S256',
    });
    const cookie = response.headers['set-cookie'] as string;
    expect(cookie).toMatch(new RegExp(`^${flowCookieName}=[\\w-]+\\.[\\w-]+\\.[\\w-]+; `));
    expect(cookie).toContain('Path=/api/oauth/; Max-Age=600; HttpOnly; SameSite=Lax');
    // The verifier stays in the cookie, never in the URL the provider sees.
    expect(response.headers.location).not.toContain(cookieOf(cookie));
  });

  test('answers 404 for a provider that is not configured', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/oauth/login/github/start/' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ code: 'not_found' });
  });
});

describe('sign-in', () => {
  test('carries an invite path as next through a sign-up, and drops one that leaves the site', async () => {
    identity = newIdentity();
    const invite = await oauthSignIn('oidc', { next: '/i/tok-42' });
    expect(invite.statusCode, invite.body).toBe(200);
    expect(invite.json<{ next?: string }>().next).toBe('/i/tok-42');
    for (const next of ['//evil.example/i/x', 'https://evil.example/i/x', '/\\evil.example', '/\t/evil.example']) {
      const response = await oauthSignIn('oidc', { next });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json<{ next?: string }>().next, next).toBeUndefined();
    }
  });

  test('creates a user without a password, in the language of the request, and signs in', async () => {
    identity = newIdentity({ preferred_username: 'grace hopper!' });
    const response = await oauthSignIn('oidc', { next: '/app/profile', headers: { 'accept-language': 'ru' } });
    expect(response.statusCode, response.body).toBe(200);
    const answer = response.json<TTokenPair & { next: string }>();
    expect(Object.keys(answer).sort()).toEqual(['access', 'next', 'refresh']);
    expect(answer.next).toBe('/app/profile');
    const user = await me(answer);
    expect(user).toMatchObject({
      username: 'grace_hopper',
      email: identity.email,
      first_name: 'Grace',
      last_name: 'Hopper',
      language: 'ru',
      has_password: false,
      oauth_accounts: [{ provider: 'oidc', email: identity.email }],
    });
    const [row] = await database.db.select().from(schema.users).where(eq(schema.users.id, user.id));
    expect(row!.emailVerified).toBe(true);
    // The session is like any other: it is listed with the user agent of the call.
    const sessions = await t.app.inject({ method: 'GET', url: '/api/users/me/sessions/', headers: bearer(answer) });
    expect(sessions.json<unknown[]>()).toHaveLength(1);
  });

  test('signs the same user in again, and makes a taken username unique', async () => {
    identity = newIdentity({ preferred_username: 'twin' });
    const first = await me((await oauthSignIn()).json<TTokenPair>());
    identity = { ...identity, email: `changed${randomBytes(3).toString('hex')}@example.com` };
    const second = await me((await oauthSignIn()).json<TTokenPair>());
    expect(second.id).toBe(first.id);
    expect(second.oauth_accounts).toEqual([{ provider: 'oidc', email: identity.email }]);

    identity = newIdentity({ preferred_username: 'Twin' });
    const other = await me((await oauthSignIn()).json<TTokenPair>());
    expect(other.id).not.toBe(first.id);
    expect(other.username).toBe('Twin2');
  });

  test('stores an unverified e-mail as unverified', async () => {
    identity = newIdentity({ email_verified: false });
    const user = await me((await oauthSignIn()).json<TTokenPair>());
    const [row] = await database.db.select().from(schema.users).where(eq(schema.users.id, user.id));
    expect(row!.emailVerified).toBe(false);
  });

  test('links an existing account whose e-mail the provider verified, and keeps its password', async () => {
    const account = await signUp(t.app, mailbox);
    identity = newIdentity({ email: account.user.email.toUpperCase() });
    const response = await oauthSignIn();
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ linked: true });
    const user = await me(response.json<TTokenPair>());
    expect(user.id).toBe(account.id);
    expect(user.oauth_accounts).toEqual([{ provider: 'oidc', email: account.user.email.toUpperCase() }]);
    expect((await login(t.app, account.user.username)).statusCode).toBe(200);
  });

  test('refuses an unverified e-mail that matches an existing account', async () => {
    const account = await signUp(t.app, mailbox);
    identity = newIdentity({ email: account.user.email, email_verified: false });
    const response = await oauthSignIn();
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({
      code: 'oauth_email_taken',
      detail:
        'An account with this e-mail already exists. Sign in with your password, then link this account in your profile.',
    });
    const links = await database.db
      .select()
      .from(schema.oauthAccounts)
      .where(eq(schema.oauthAccounts.subject, identity.sub));
    expect(links).toEqual([]);
  });

  test('drops the password of a never-verified account the provider proves the e-mail of', async () => {
    const { user } = await register(t.app);
    identity = newIdentity({ email: user.email });
    const response = await oauthSignIn();
    expect(response.statusCode, response.body).toBe(200);
    const profile = await me(response.json<TTokenPair>());
    expect(profile).toMatchObject({ username: user.username, has_password: false });
    expect((await login(t.app, user.username, password)).statusCode).toBe(400);
  });

  test('refuses a profile without an e-mail', async () => {
    identity = newIdentity({ email: undefined, email_verified: undefined });
    const response = await oauthSignIn();
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'oauth_email_missing' });
  });

  test('asks for the e-mailed code when the user has 2FA on', async () => {
    const account = await signUp(t.app, mailbox);
    await database.db.update(schema.users).set({ twoFactor: true }).where(eq(schema.users.id, account.id));
    identity = newIdentity({ email: account.user.email });
    const response = await oauthSignIn('oidc', { next: '/app/notifications' });
    expect(response.statusCode, response.body).toBe(200);
    const { ephemeral_token, next } = response.json<{ ephemeral_token: string; next: string }>();
    expect(next).toBe('/app/notifications');
    const code = await mailbox.code(account.user.email);
    const checked = await t.app.inject({ method: 'POST', url: '/api/otp/check/', payload: { code, ephemeral_token } });
    expect(checked.statusCode, checked.body).toBe(200);
    expect((await me(checked.json<TTokenPair>())).id).toBe(account.id);
  });

  test('answers oauth_failed when the provider refuses the code', async () => {
    provider.service.once('beforeResponse', (response: { body: unknown; statusCode: number }) => {
      response.body = { error: 'invalid_grant' };
      response.statusCode = 400;
    });
    const response = await oauthSignIn();
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ code: 'oauth_failed', detail: 'Failed to login' });
  });
});

describe('state', () => {
  async function started(name = 'oidc') {
    const start = await t.app.inject({ method: 'GET', url: `/api/oauth/login/${name}/start/` });
    const { code, state } = await authorize(start.headers.location as string);
    return { code, state, cookie: cookieOf(start.headers['set-cookie']) };
  }
  const stateInvalid = {
    code: 'oauth_state_invalid',
    detail: 'This sign-in link has expired or was opened in another browser. Please start again.',
  };

  test('refuses a callback without the flow cookie (another browser)', async () => {
    const { code, state } = await started();
    const response = await callback('oidc', { code, state }, null);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual(stateInvalid);
  });

  test('refuses a state that is not the one the flow started with', async () => {
    const { code, cookie } = await started();
    const response = await callback('oidc', { code, state: 'forged-state' }, cookie);
    expect(response.json()).toEqual(stateInvalid);
  });

  test('refuses a flow of another provider', async () => {
    const { code, state, cookie } = await started('gitlab');
    expect((await callback('oidc', { code, state }, cookie)).json()).toEqual(stateInvalid);
  });

  test('refuses a forged or expired flow cookie', async () => {
    const { code, state } = await started();
    const claims = {
      typ: 'oauth_flow',
      provider: 'oidc',
      state,
      verifier: 'v'.repeat(43),
      redirectUri: `${origin}/oauth/oidc`,
    };
    const sign = (key: string, exp: number) =>
      new SignJWT(claims)
        .setProtectedHeader({ alg: 'HS256' })
        .setAudience('stageline:oauth-flow')
        .setExpirationTime(exp)
        .sign(new TextEncoder().encode(key));
    const now = Math.floor(Date.now() / 1000);
    const forged = await sign('another-secret-key-of-at-least-32-characters', now + 600);
    expect((await callback('oidc', { code, state }, forged)).json()).toEqual(stateInvalid);
    const expired = await sign(secretKey, now - 1);
    expect((await callback('oidc', { code, state }, expired)).json()).toEqual(stateInvalid);
    expect((await callback('oidc', { code, state }, 'not-a-jwt')).statusCode).toBe(400);
  });

  test('clears the flow cookie on the callback', async () => {
    const { code, state, cookie } = await started();
    const response = await callback('oidc', { code, state }, cookie);
    expect(response.headers['set-cookie']).toContain(`${flowCookieName}=; Path=/api/oauth/; Max-Age=0`);
  });
});

describe('linking and unlinking', () => {
  async function link(tokens: { access: string }, name: string) {
    const started = await t.app.inject({ method: 'POST', url: `/api/oauth/link/${name}/`, headers: bearer(tokens) });
    expect(started.statusCode, started.body).toBe(200);
    const { code, state } = await authorize(started.json<{ url: string }>().url);
    return callback(name, { code, state }, cookieOf(started.headers['set-cookie']));
  }
  const unlink = (tokens: { access: string }, name: string) =>
    t.app.inject({ method: 'DELETE', url: `/api/users/me/oauth/${name}/`, headers: bearer(tokens) });

  test('links a provider account to the signed-in user', async () => {
    const account = await signUp(t.app, mailbox);
    identity = newIdentity({ email: 'someone.else@example.com' });
    const response = await link(account.tokens, 'gitlab');
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ linked: true, provider: 'gitlab', next: '/app/profile' });
    expect((await me(account.tokens)).oauth_accounts).toEqual([
      { provider: 'gitlab', email: 'someone.else@example.com' },
    ]);
    // That GitLab account now signs in to this user.
    expect((await me((await oauthSignIn('gitlab')).json<TTokenPair>())).id).toBe(account.id);
  });

  test('needs a session to start linking', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/api/oauth/link/gitlab/' });
    expect(response.statusCode).toBe(401);
  });

  test('refuses a provider account linked to someone else, and a second account of a provider', async () => {
    const owner = await oauthSignIn();
    expect(owner.statusCode).toBe(200);
    const taken = identity;
    const account = await signUp(t.app, mailbox);
    identity = taken;
    const response = await link(account.tokens, 'oidc');
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({
      code: 'oauth_account_taken',
      detail: 'This account is already linked to another user.',
    });

    identity = newIdentity();
    expect((await link(account.tokens, 'oidc')).statusCode).toBe(200);
    identity = newIdentity();
    expect((await link(account.tokens, 'oidc')).json()).toMatchObject({ code: 'oauth_already_linked' });
  });

  test('refuses to unlink the last way to sign in', async () => {
    const tokens = (await oauthSignIn()).json<TTokenPair>();
    const response = await unlink(tokens, 'oidc');
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      code: 'oauth_last_login_method',
      detail: 'You cannot unlink the last way to sign in. Set a password or link another account first.',
    });
    const russian = await t.app.inject({
      method: 'DELETE',
      url: '/api/users/me/oauth/oidc/',
      headers: { ...bearer(tokens), 'accept-language': 'ru' },
    });
    expect(russian.json<{ detail: string }>().detail).toMatch(/^Нельзя отвязать/);
    expect((await me(tokens)).oauth_accounts).toHaveLength(1);
  });

  test('unlinks one of two accounts, then refuses the last one', async () => {
    const tokens = (await oauthSignIn()).json<TTokenPair>();
    identity = newIdentity();
    expect((await link(tokens, 'gitlab')).statusCode).toBe(200);
    const response = await unlink(tokens, 'gitlab');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ detail: 'Account unlinked.' });
    expect((await unlink(tokens, 'oidc')).statusCode).toBe(400);
  });

  test('unlinks when the user has a password', async () => {
    const account = await signUp(t.app, mailbox);
    identity = newIdentity({ email: account.user.email });
    expect((await oauthSignIn()).statusCode).toBe(200);
    expect((await unlink(account.tokens, 'oidc')).statusCode).toBe(200);
    expect((await me(account.tokens)).oauth_accounts).toEqual([]);
    expect((await unlink(account.tokens, 'oidc')).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'DELETE', url: '/api/users/me/oauth/oidc/' })).statusCode).toBe(401);
  });
});
