import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { TTokenPair } from '@stageline/shared';
import type { Database } from '../../db';
import { bearer, login, relaxedLimits, signUp, uniqueUser } from '../../../test/accounts';
import { buildTestApp, createTestDatabase, type TestApp } from '../../../test/helpers';
import { startMailbox, type Mailbox } from '../../../test/mailbox';

const sameAnswer = { detail: 'If an account with this e-mail exists, we sent it a link to reset the password.' };
const invalidToken = { detail: 'Invalid token', code: 'invalid_token' };
const newPassword = 'a brand new passphrase';

let database: Database;
let mailbox: Mailbox;
let t: TestApp;

beforeAll(async () => {
  [database, mailbox] = await Promise.all([createTestDatabase(), startMailbox()]);
  t = await buildTestApp({
    database,
    config: { smtpUrl: mailbox.url },
    authLimits: relaxedLimits,
  });
});
afterAll(async () => {
  await t?.close();
  await mailbox?.close();
  await database?.close();
});

const post = (url: string, payload: Record<string, unknown>) =>
  t.app.inject({ method: 'POST', url, payload, headers: { host: 'localhost:3000' } });

// Without PUBLIC_URL, links point at the origin the request was made to when it names this server
// (mail-links.test.ts covers the hosts that do not).

/** Asks for a reset and reads the token from the e-mailed link. */
async function resetLink(email: string) {
  const response = await post('/api/users/password_reset/', { email: email.toUpperCase() });
  expect(response.statusCode).toBe(200);
  expect(response.json()).toEqual(sameAnswer);
  const mail = await mailbox.waitFor(email);
  expect(mail.subject).toBe('Reset your Stageline password');
  const link = new URL(/http:\/\/\S+\/reset_pass\?\S+/.exec(mail.text)![0]);
  expect(link.origin).toBe('http://localhost:3000');
  expect(link.searchParams.get('email')).toBe(email);
  return link.searchParams.get('token')!;
}

describe('password reset', () => {
  test('link → validate → confirm: new password works, sessions end, a notice is mailed', async () => {
    const { user, tokens } = await signUp(t.app, mailbox);
    const token = await resetLink(user.email);

    const valid = await post('/api/users/password_reset/validate_token/', { token, email: user.email });
    expect(valid.statusCode).toBe(200);
    expect(valid.json()).toEqual({ detail: 'Token is valid' });

    const confirmed = await post('/api/users/password_reset/confirm/', {
      token,
      email: user.email,
      password: newPassword,
    });
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.json()).toEqual({ detail: 'Password changed' });
    expect((await mailbox.waitFor(user.email)).subject).toBe('Your Stageline password was changed');

    expect((await login(t.app, user.username)).statusCode).toBe(400);
    expect((await login(t.app, user.username, newPassword)).statusCode).toBe(200);
    // Every session that existed is signed out.
    const old = await t.app.inject({ method: 'GET', url: '/api/users/me/', headers: bearer(tokens) });
    expect(old.statusCode).toBe(401);
    expect((await post('/api/token/refresh/', { refresh: tokens.refresh })).statusCode).toBe(401);
  });

  test('an unknown e-mail gets the same answer and no mail', async () => {
    const ghost = uniqueUser('ghost').email;
    const response = await post('/api/users/password_reset/', { email: ghost });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual(sameAnswer);
    expect(await mailbox.none(ghost)).toBe(true);
  });

  test('a link works once', async () => {
    const { user } = await signUp(t.app, mailbox);
    const token = await resetLink(user.email);
    const first = await post('/api/users/password_reset/confirm/', { token, email: user.email, password: newPassword });
    expect(first.statusCode).toBe(200);
    await mailbox.waitFor(user.email);
    const second = await post('/api/users/password_reset/confirm/', {
      token,
      email: user.email,
      password: 'yet another one',
    });
    expect(second.statusCode).toBe(400);
    expect(second.json()).toEqual(invalidToken);
    expect((await post('/api/users/password_reset/validate_token/', { token, email: user.email })).json()).toEqual(
      invalidToken,
    );
  });

  test('an expired link, a wrong token or another e-mail is refused', async () => {
    const { user } = await signUp(t.app, mailbox);
    const other = await signUp(t.app, mailbox);
    const token = await resetLink(user.email);

    const wrongEmail = await post('/api/users/password_reset/validate_token/', { token, email: other.user.email });
    expect(wrongEmail.json()).toEqual(invalidToken);
    const wrongToken = await post('/api/users/password_reset/validate_token/', { token: 'nope', email: user.email });
    expect(wrongToken.json()).toEqual(invalidToken);

    await database.db.execute(sql`update password_reset_tokens set expires_at = now() - interval '1 second'`);
    const expired = await post('/api/users/password_reset/confirm/', {
      token,
      email: user.email,
      password: newPassword,
    });
    expect(expired.statusCode).toBe(400);
    expect(expired.json()).toEqual(invalidToken);
  });

  test('the new password must be long enough', async () => {
    const response = await post('/api/users/password_reset/confirm/', {
      token: 'x',
      email: 'a@example.com',
      password: 'short',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ password: ['Password is too short'] });
  });

  /** An app whose reset budgets are `perEmailFromIp` and `perEmail` (everything else relaxed). */
  async function limitedApp(perEmailFromIp: number, perEmail: number) {
    return buildTestApp({
      database,
      config: { smtpUrl: mailbox.url },
      authLimits: {
        ...relaxedLimits,
        resetPerEmailFromIp: { max: perEmailFromIp, windowSeconds: 3600 },
        resetPerEmail: { max: perEmail, windowSeconds: 3600 },
      },
    });
  }
  const askFrom = (app: TestApp, email: string, remoteAddress: string, host = 'localhost') =>
    app.app.inject({
      method: 'POST',
      url: '/api/users/password_reset/',
      payload: { email },
      headers: { host },
      remoteAddress,
    });

  test('requests are rate-limited per e-mail and client address', async () => {
    const limited = await limitedApp(2, 100);
    try {
      const email = uniqueUser('nobody').email;
      expect((await askFrom(limited, email, '10.0.0.1')).statusCode).toBe(200);
      expect((await askFrom(limited, email.toUpperCase(), '10.0.0.1')).statusCode).toBe(200);
      const third = await askFrom(limited, email, '10.0.0.1');
      expect(third.statusCode).toBe(429);
      expect(Number(third.headers['retry-after'])).toBeGreaterThan(3000);
    } finally {
      await limited.close();
    }
  });

  test('a request refused for its Host spends no e-mail budget', async () => {
    const limited = await limitedApp(2, 2);
    try {
      const email = uniqueUser('nobody').email;
      for (let i = 0; i < 3; i++) {
        const refused = await askFrom(limited, email, '10.0.0.9', 'evil.example');
        expect(refused.statusCode).toBe(400);
        expect(refused.json()).toMatchObject({ code: 'host_not_allowed' });
      }
      expect((await askFrom(limited, email, '10.0.0.9')).statusCode).toBe(200);
      expect((await askFrom(limited, email, '10.0.0.9')).statusCode).toBe(200);
      expect((await askFrom(limited, email, '10.0.0.9')).statusCode).toBe(429);
    } finally {
      await limited.close();
    }
  });

  test('one address cannot spend the budget another has for the same e-mail', async () => {
    const limited = await limitedApp(2, 100);
    try {
      const { user } = await signUp(t.app, mailbox);
      for (let i = 0; i < 2; i++) {
        expect((await askFrom(limited, user.email, '10.0.1.1')).statusCode).toBe(200);
        await mailbox.waitFor(user.email);
      }
      expect((await askFrom(limited, user.email, '10.0.1.1')).statusCode).toBe(429);
      // The owner, elsewhere, still gets a link.
      expect((await askFrom(limited, user.email, '10.0.1.2')).statusCode).toBe(200);
      expect((await mailbox.waitFor(user.email)).subject).toBe('Reset your Stageline password');
    } finally {
      await limited.close();
    }
  });

  test('many addresses together are capped per e-mail, but not those its account signed in from', async () => {
    const limited = await limitedApp(100, 2);
    try {
      // signUp signs in from 127.0.0.1, the address of every injected request by default.
      const { user } = await signUp(t.app, mailbox);
      for (const address of ['10.0.2.1', '10.0.2.2']) {
        expect((await askFrom(limited, user.email, address)).statusCode).toBe(200);
        await mailbox.waitFor(user.email);
      }
      expect((await askFrom(limited, user.email, '10.0.2.3')).statusCode).toBe(429);
      expect((await askFrom(limited, user.email, '127.0.0.1')).statusCode).toBe(200);
      expect((await mailbox.waitFor(user.email)).subject).toBe('Reset your Stageline password');
    } finally {
      await limited.close();
    }
  });

  test('tokens issued before are refused after a reset (the session family is revoked)', async () => {
    const { user } = await signUp(t.app, mailbox);
    const tokens = (await login(t.app, user.username)).json<TTokenPair>();
    const token = await resetLink(user.email);
    await post('/api/users/password_reset/confirm/', { token, email: user.email, password: newPassword });
    expect((await post('/api/token/refresh/', { refresh: tokens.refresh })).statusCode).toBe(401);
  });

  test('a reset revokes every API token: one used after it answers 401, and the notice says so', async () => {
    const { user, tokens } = await signUp(t.app, mailbox);
    const made = await t.app.inject({
      method: 'POST',
      url: '/api/users/me/tokens/',
      headers: bearer(tokens),
      payload: { name: 'Left by an intruder', scope: 'write' },
    });
    expect(made.statusCode, made.body).toBe(201);
    const apiToken = { authorization: `Bearer ${made.json<{ token: string }>().token}` };
    expect((await t.app.inject({ method: 'GET', url: '/api/users/me/', headers: apiToken })).statusCode).toBe(200);

    const token = await resetLink(user.email);
    const confirmed = await post('/api/users/password_reset/confirm/', {
      token,
      email: user.email,
      password: newPassword,
    });
    expect(confirmed.statusCode).toBe(200);
    const notice = await mailbox.waitFor(user.email);
    expect(notice.subject).toBe('Your Stageline password was changed');
    expect(notice.text).toContain('API tokens revoked: 1. Scripts that used them need new tokens.');
    expect(notice.text).not.toContain('Left by an intruder');

    const after = await t.app.inject({ method: 'GET', url: '/api/users/me/', headers: apiToken });
    expect(after.statusCode).toBe(401);
    expect(after.json()).toMatchObject({ code: 'not_authenticated' });
  });
});
