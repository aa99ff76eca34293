import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { TSession, TTokenPair } from '@stageline/shared';
import type { Database } from '../../db';
import { allowResend, bearer, login, relaxedLimits, signUp } from '../../../test/accounts';
import { buildTestApp, createTestDatabase, type TestApp } from '../../../test/helpers';
import { startMailbox, type Mailbox } from '../../../test/mailbox';

const notFound = { detail: 'Not found.', code: 'not_found' };
const invalidCode = { detail: 'Code is invalid, try to resend', code: 'invalid_code' };

let database: Database;
let mailbox: Mailbox;
let t: TestApp;

beforeAll(async () => {
  [database, mailbox] = await Promise.all([createTestDatabase(), startMailbox()]);
  t = await buildTestApp({ database, config: { smtpUrl: mailbox.url }, authLimits: relaxedLimits });
});
afterAll(async () => {
  await t?.close();
  await mailbox?.close();
  await database?.close();
});

type Tokens = { access: string };
const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, tokens?: Tokens, payload?: object) =>
  t.app.inject({ method, url, headers: tokens ? bearer(tokens) : {}, ...(payload ? { payload } : {}) });

/** Asks for a signed-in code of `purpose` and reads it from the mail. */
async function codeFor(account: { tokens: Tokens; user: { email: string }; id: number }, purpose: string) {
  await allowResend(database, account.id);
  const response = await call('POST', '/api/otp/send/', account.tokens, { purpose });
  expect(response.statusCode, response.body).toBe(200);
  return mailbox.code(account.user.email);
}

describe('signed-in routes need a session', () => {
  test.each([
    ['GET', '/api/users/me/'],
    ['PATCH', '/api/users/1/'],
    ['POST', '/api/users/me/password/'],
    ['POST', '/api/users/me/email/'],
    ['POST', '/api/users/me/email/confirm/'],
    ['POST', '/api/users/me/two_factor/'],
    ['GET', '/api/users/me/sessions/'],
    ['DELETE', '/api/users/me/sessions/1/'],
    ['POST', '/api/users/me/sessions/end_others/'],
    ['POST', '/api/users/me/avatar/'],
    ['DELETE', '/api/users/me/avatar/'],
  ] as const)('%s %s → 401', async (method, url) => {
    const response = await call(method, url, undefined, method === 'GET' || method === 'DELETE' ? undefined : {});
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ detail: 'You must be authorized', code: 'not_authenticated' });
  });
});

describe('PATCH users/{id}/', () => {
  test('edits your own profile', async () => {
    const account = await signUp(t.app, mailbox);
    // recent_workspace must be a workspace the user belongs to (more in workspaces.test.ts).
    const created = await call('POST', '/api/workspaces/', account.tokens, { name: 'Mine' });
    const workspaceId = created.json<{ id: number }>().id;
    const response = await call('PATCH', `/api/users/${account.id}/`, account.tokens, {
      first_name: ' Grace ',
      last_name: 'Hopper',
      language: 'ru',
      recent_workspace: workspaceId,
      notify_browser: false,
      email_frequency: 'weekly',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      first_name: 'Grace',
      last_name: 'Hopper',
      language: 'ru',
      recent_workspace: workspaceId,
      notify_browser: false,
      email_frequency: 'weekly',
    });
    const cleared = await call('PATCH', `/api/users/${account.id}/`, account.tokens, { recent_workspace: null });
    expect(cleared.json()).toMatchObject({ recent_workspace: null, language: 'ru' });
  });

  test('a time zone: unknown until told, then an IANA name; anything else is a field error', async () => {
    const account = await signUp(t.app, mailbox, {});
    const me = await call('GET', '/api/users/me/', account.tokens);
    expect(me.json()).toMatchObject({ time_zone: null });
    const set = await call('PATCH', `/api/users/${account.id}/`, account.tokens, { time_zone: 'Asia/Tokyo' });
    expect(set.json()).toMatchObject({ time_zone: 'Asia/Tokyo' });
    const bad = await call('PATCH', `/api/users/${account.id}/`, account.tokens, { time_zone: 'Mars/Olympus' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ time_zone: ['Choose a time zone from the list.'] });
  });

  test('someone else, or an id that does not exist, is 404', async () => {
    const me = await signUp(t.app, mailbox);
    const other = await signUp(t.app, mailbox);
    for (const id of [other.id, 999_999]) {
      const response = await call('PATCH', `/api/users/${id}/`, me.tokens, { first_name: 'Hacker' });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual(notFound);
    }
  });

  test('a taken username is a field error; your own in another case is fine', async () => {
    const me = await signUp(t.app, mailbox);
    const other = await signUp(t.app, mailbox);
    const taken = await call('PATCH', `/api/users/${me.id}/`, me.tokens, {
      username: other.user.username.toUpperCase(),
    });
    expect(taken.statusCode).toBe(400);
    expect(taken.json()).toEqual({ username: ['A user with that username already exists.'] });
    const own = await call('PATCH', `/api/users/${me.id}/`, me.tokens, { username: me.user.username.toUpperCase() });
    expect(own.statusCode).toBe(200);
    expect(own.json()).toMatchObject({ username: me.user.username.toUpperCase() });
  });

  test('bad values are field errors', async () => {
    const me = await signUp(t.app, mailbox);
    const response = await call('PATCH', `/api/users/${me.id}/`, me.tokens, {
      language: 'de',
      email_frequency: 'daily',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ language: ['Select a valid choice.'] });
  });
});

describe('password change', () => {
  test('with a code: the current session stays, the others end, a notice is mailed', async () => {
    const account = await signUp(t.app, mailbox);
    const other = (await login(t.app, account.user.username)).json<TTokenPair>();
    const code = await codeFor(account, 'password_change');

    const response = await call('POST', '/api/users/me/password/', account.tokens, {
      code,
      password: 'new password 123',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ detail: 'Password changed' });
    expect((await mailbox.waitFor(account.user.email)).subject).toBe('Your Stageline password was changed');

    expect((await call('GET', '/api/users/me/', account.tokens)).statusCode).toBe(200);
    expect((await call('GET', '/api/users/me/', other)).statusCode).toBe(401);
    expect((await call('POST', '/api/token/refresh/', undefined, { refresh: other.refresh })).statusCode).toBe(401);
    expect((await login(t.app, account.user.username, 'new password 123')).statusCode).toBe(200);
  });

  /** Makes a personal API token of `account` and answers its secret. */
  async function makeToken(account: { tokens: Tokens }, name: string) {
    const response = await call('POST', '/api/users/me/tokens/', account.tokens, { name, scope: 'write' });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<{ token: string }>().token;
  }
  const meWith = (token: string) => call('GET', '/api/users/me/', { access: token });

  test('API tokens keep working unless the change revokes them; the notice names the ones that work', async () => {
    const account = await signUp(t.app, mailbox);
    const farm = await makeToken(account, 'Render farm');
    const backup = await makeToken(account, 'Nightly backup');
    await makeToken(account, 'Old expired one');
    await database.db.execute(
      sql`update api_tokens set expires_at = now() - interval '1 minute' where name = 'Old expired one'`,
    );

    const kept = await call('POST', '/api/users/me/password/', account.tokens, {
      code: await codeFor(account, 'password_change'),
      password: 'new password 123',
    });
    expect(kept.statusCode, kept.body).toBe(200);
    const keptMail = await mailbox.waitFor(account.user.email);
    expect(keptMail.text).toContain('These API tokens still work. Revoke any you do not recognise:');
    expect(keptMail.text).toContain('• Render farm');
    expect(keptMail.text).toContain('• Nightly backup');
    expect(keptMail.text).toMatch(/^ {2}http:\/\/localhost(:80)?\/app\/profile$/m);
    expect(keptMail.text).not.toContain('Old expired one');
    expect(keptMail.text).not.toContain('API tokens revoked');
    expect((await meWith(farm)).statusCode).toBe(200);
    expect((await meWith(backup)).statusCode).toBe(200);

    const revoked = await call('POST', '/api/users/me/password/', account.tokens, {
      code: await codeFor(account, 'password_change'),
      password: 'newer password 456',
      revoke_api_tokens: true,
    });
    expect(revoked.statusCode, revoked.body).toBe(200);
    const revokedMail = await mailbox.waitFor(account.user.email);
    expect(revokedMail.subject).toBe('Your Stageline password was changed');
    expect(revokedMail.text).toContain('API tokens revoked: 3. Scripts that used them need new tokens.');
    expect(revokedMail.text).not.toContain('still work');
    expect((await meWith(farm)).statusCode).toBe(401);
    expect((await meWith(backup)).statusCode).toBe(401);
    const list = await call('GET', '/api/users/me/tokens/', account.tokens);
    expect(list.json()).toEqual([]);
    // The session that changed the password is still signed in.
    expect((await call('GET', '/api/users/me/', account.tokens)).statusCode).toBe(200);
  });

  test('the notice is in the user language', async () => {
    const account = await signUp(t.app, mailbox);
    await call('PATCH', `/api/users/${account.id}/`, account.tokens, { language: 'ru' });
    await makeToken(account, 'Ферма');
    const response = await call('POST', '/api/users/me/password/', account.tokens, {
      code: await codeFor(account, 'password_change'),
      password: 'new password 123',
    });
    expect(response.statusCode).toBe(200);
    const mail = await mailbox.waitFor(account.user.email);
    expect(mail.text).toContain('Эти API-токены продолжают работать. Отзовите те, которых вы не узнаёте:');
    expect(mail.text).toContain('• Ферма');
  });

  test('a wrong code, or a code of another purpose, is refused', async () => {
    const account = await signUp(t.app, mailbox);
    const code = await codeFor(account, 'two_factor');
    const response = await call('POST', '/api/users/me/password/', account.tokens, {
      code,
      password: 'new password 123',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual(invalidCode);
  });
});

describe('two-factor authentication', () => {
  test('on and off, each with a code', async () => {
    const account = await signUp(t.app, mailbox);
    const on = await call('POST', '/api/users/me/two_factor/', account.tokens, {
      enabled: true,
      code: await codeFor(account, 'two_factor'),
    });
    expect(on.statusCode).toBe(200);
    expect(on.json()).toEqual({ detail: 'Two-factor authentication is on.' });
    expect((await call('GET', '/api/users/me/', account.tokens)).json()).toMatchObject({ two_factor: true });
    expect((await login(t.app, account.user.username)).json()).toEqual({
      ephemeral_token: expect.any(String) as unknown,
    });
    await mailbox.waitFor(account.user.email);

    const off = await call('POST', '/api/users/me/two_factor/', account.tokens, {
      enabled: false,
      code: await codeFor(account, 'two_factor'),
    });
    expect(off.json()).toEqual({ detail: 'Two-factor authentication is off.' });
    expect((await login(t.app, account.user.username)).json()).toHaveProperty('access');
  });

  test('a wrong code changes nothing', async () => {
    const account = await signUp(t.app, mailbox);
    const code = await codeFor(account, 'two_factor');
    const wrong = code === '000000' ? '111111' : '000000';
    const response = await call('POST', '/api/users/me/two_factor/', account.tokens, { enabled: true, code: wrong });
    expect(response.json()).toEqual(invalidCode);
    expect((await call('GET', '/api/users/me/', account.tokens)).json()).toMatchObject({ two_factor: false });
  });
});

describe('e-mail change', () => {
  async function withTwoFactor() {
    const account = await signUp(t.app, mailbox);
    await database.db.execute(sql`update users set two_factor = true where id = ${account.id}`);
    return account;
  }

  test('an unchanged e-mail changes nothing (no code spent)', async () => {
    const account = await withTwoFactor();
    const response = await call('POST', '/api/users/me/email/', account.tokens, {
      email: account.user.email.toUpperCase(),
      code: '123456',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ detail: 'Email was not changed' });
  });

  test('with 2FA off the e-mail cannot change', async () => {
    const account = await signUp(t.app, mailbox);
    const response = await call('POST', '/api/users/me/email/', account.tokens, {
      email: 'new@example.com',
      code: '123456',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      detail: 'E-mail cannot be changed while two-factor authentication is off.',
      code: 'bad_request',
    });
  });

  test('a taken e-mail is a field error', async () => {
    const account = await withTwoFactor();
    const other = await signUp(t.app, mailbox);
    const response = await call('POST', '/api/users/me/email/', account.tokens, {
      email: other.user.email,
      code: '123456',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ email: ['A user with that email already exists.'] });
  });

  test('code → link to the new address → confirm applies it, once', async () => {
    const account = await withTwoFactor();
    const newEmail = `new-${account.user.email}`;
    const code = await codeFor(account, 'email_change');
    const response = await call('POST', '/api/users/me/email/', account.tokens, { email: newEmail, code });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ detail: 'We sent a confirmation link to the new e-mail address.' });
    const mail = await mailbox.waitFor(newEmail);
    expect(mail.subject).toBe('Confirm your new e-mail address');
    const token = new URL(/http:\/\/\S+\/change_email\?\S+/.exec(mail.text)![0]).searchParams.get('token')!;
    // Nothing changes before the link is opened.
    expect((await call('GET', '/api/users/me/', account.tokens)).json()).toMatchObject({ email: account.user.email });

    const stranger = await signUp(t.app, mailbox);
    const foreign = await call('POST', '/api/users/me/email/confirm/', stranger.tokens, { token });
    expect(foreign.json()).toEqual({ detail: 'Invalid token', code: 'invalid_token' });

    const confirmed = await call('POST', '/api/users/me/email/confirm/', account.tokens, { token });
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.json()).toEqual({ detail: 'E-mail changed', status: 'changed' });
    expect((await call('GET', '/api/users/me/', account.tokens)).json()).toMatchObject({ email: newEmail });
    expect((await login(t.app, newEmail)).json()).toEqual({ ephemeral_token: expect.any(String) as unknown });

    // Opened again (a second tab, a reload): it says so, never 'Invalid token' after a success.
    const again = await call('POST', '/api/users/me/email/confirm/', account.tokens, { token });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({ detail: 'This e-mail change is already confirmed.', status: 'already_confirmed' });
  });

  test('two confirms at once: one changes, the other says already confirmed', async () => {
    const account = await withTwoFactor();
    const newEmail = `both-${account.user.email}`;
    const code = await codeFor(account, 'email_change');
    await call('POST', '/api/users/me/email/', account.tokens, { email: newEmail, code });
    const mail = await mailbox.waitFor(newEmail);
    const token = new URL(/http:\/\/\S+\/change_email\?\S+/.exec(mail.text)![0]).searchParams.get('token')!;
    const answers = await Promise.all([
      call('POST', '/api/users/me/email/confirm/', account.tokens, { token }),
      call('POST', '/api/users/me/email/confirm/', account.tokens, { token }),
    ]);
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200]);
    expect(answers.map((answer) => answer.json<{ status: string }>().status).sort()).toEqual([
      'already_confirmed',
      'changed',
    ]);
  });

  test('a link replaced by a newer request stays invalid', async () => {
    const account = await withTwoFactor();
    const first = `first-${account.user.email}`;
    await call('POST', '/api/users/me/email/', account.tokens, {
      email: first,
      code: await codeFor(account, 'email_change'),
    });
    const mail = await mailbox.waitFor(first);
    const token = new URL(/http:\/\/\S+\/change_email\?\S+/.exec(mail.text)![0]).searchParams.get('token')!;
    const second = `second-${account.user.email}`;
    await call('POST', '/api/users/me/email/', account.tokens, {
      email: second,
      code: await codeFor(account, 'email_change'),
    });
    const stale = await call('POST', '/api/users/me/email/confirm/', account.tokens, { token });
    expect(stale.statusCode).toBe(400);
    expect(stale.json()).toEqual({ detail: 'Invalid token', code: 'invalid_token' });
  });
});

describe('sessions', () => {
  test('lists the live sessions, marks the current one, revokes another', async () => {
    const account = await signUp(t.app, mailbox);
    const laptop = await t.app.inject({
      method: 'POST',
      url: '/api/users/login/',
      payload: { username: account.user.username, password: account.user.password },
      headers: { 'user-agent': 'Laptop browser' },
    });
    const other = laptop.json<TTokenPair>();

    const list = await call('GET', '/api/users/me/sessions/', account.tokens);
    expect(list.statusCode).toBe(200);
    const sessions = list.json<TSession[]>();
    expect(sessions).toHaveLength(2);
    expect(sessions.filter((s) => s.current)).toHaveLength(1);
    const laptopSession = sessions.find((s) => s.user_agent === 'Laptop browser')!;
    expect(laptopSession.current).toBe(false);
    expect(laptopSession).toEqual({
      id: expect.any(Number) as unknown,
      created_at: expect.any(String) as unknown,
      last_used_at: expect.any(String) as unknown,
      user_agent: 'Laptop browser',
      ip: '127.0.0.1',
      current: false,
    });

    const stranger = await signUp(t.app, mailbox);
    const foreign = await call('DELETE', `/api/users/me/sessions/${laptopSession.id}/`, stranger.tokens);
    expect(foreign.statusCode).toBe(404);

    const revoked = await call('DELETE', `/api/users/me/sessions/${laptopSession.id}/`, account.tokens);
    expect(revoked.statusCode).toBe(204);
    expect((await call('GET', '/api/users/me/', other)).statusCode).toBe(401);
    expect((await call('POST', '/api/token/refresh/', undefined, { refresh: other.refresh })).statusCode).toBe(401);
    expect((await call('GET', '/api/users/me/sessions/', account.tokens)).json()).toHaveLength(1);
    expect((await call('DELETE', `/api/users/me/sessions/${laptopSession.id}/`, account.tokens)).statusCode).toBe(404);
  });

  test('signs out everywhere else: every other session ends, this one and other people’s stay', async () => {
    const account = await signUp(t.app, mailbox);
    const stranger = await signUp(t.app, mailbox);
    const elsewhere: TTokenPair[] = [];
    for (const device of ['Laptop', 'Phone']) {
      const login = await t.app.inject({
        method: 'POST',
        url: '/api/users/login/',
        payload: { username: account.user.username, password: account.user.password },
        headers: { 'user-agent': device },
      });
      elsewhere.push(login.json<TTokenPair>());
    }
    const ended = await call('POST', '/api/users/me/sessions/end_others/', account.tokens, {});
    expect(ended.statusCode, ended.body).toBe(200);
    expect(ended.json()).toEqual({ ended: 2 });
    for (const tokens of elsewhere) {
      expect((await call('GET', '/api/users/me/', tokens)).statusCode).toBe(401);
      expect((await call('POST', '/api/token/refresh/', undefined, { refresh: tokens.refresh })).statusCode).toBe(401);
    }
    const left = (await call('GET', '/api/users/me/sessions/', account.tokens)).json<TSession[]>();
    expect(left.map((session) => session.current)).toEqual([true]);
    expect((await call('GET', '/api/users/me/', stranger.tokens)).statusCode).toBe(200);
    expect((await call('POST', '/api/users/me/sessions/end_others/', account.tokens, {})).json()).toEqual({ ended: 0 });
  });
});

describe('OpenAPI', () => {
  test('documents the account routes, signed-in ones with bearer security', async () => {
    const document = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json<{
      paths: Record<string, Record<string, { security?: unknown[]; tags?: string[] }>>;
    }>();
    expect(document.paths['/api/users/register/']?.post?.tags).toEqual(['auth']);
    expect(document.paths['/api/users/me/']?.get?.security).toEqual([{ bearer: [] }]);
    expect(document.paths['/api/users/{id}/']?.patch?.security).toEqual([{ bearer: [] }]);
    for (const path of [
      '/api/otp/check/',
      '/api/otp/send/',
      '/api/token/refresh/',
      '/api/users/password_reset/confirm/',
    ]) {
      expect(document.paths, path).toHaveProperty(path);
    }
  });
});
