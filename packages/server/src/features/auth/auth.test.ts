import { sql } from 'drizzle-orm';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { TTokenPair } from '@stageline/shared';
import { rowsOf, type Database } from '../../db';
import {
  allowResend,
  bearer,
  login,
  password,
  register,
  relaxedLimits,
  signUp,
  uniqueUser,
  userIdOf,
} from '../../../test/accounts';
import { buildTestApp, createTestDatabase, type TestApp } from '../../../test/helpers';
import { startMailbox, type Mailbox } from '../../../test/mailbox';

const secretKey = 'test-secret-key-of-at-least-32-characters!';
const invalidCode = { detail: 'Code is invalid, try to resend', code: 'invalid_code' };
const tokenInvalid = { detail: 'Token invalid', code: 'token_not_valid' };

let database: Database;
let mailbox: Mailbox;
let t: TestApp;

beforeAll(async () => {
  [database, mailbox] = await Promise.all([createTestDatabase(), startMailbox()]);
  t = await buildTestApp({ database, config: { smtpUrl: mailbox.url, secretKey }, authLimits: relaxedLimits });
});
afterAll(async () => {
  await t?.close();
  await mailbox?.close();
  await database?.close();
});

const post = (url: string, payload: unknown, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url, payload: payload as Record<string, unknown>, headers });
const me = (tokens: { access: string }) =>
  t.app.inject({ method: 'GET', url: '/api/users/me/', headers: bearer(tokens) });

describe('register → code → otp/check', () => {
  test('signs up, e-mails a 6-digit code and logs in with it', async () => {
    const user = uniqueUser();
    const response = await post('/api/users/register/', { ...user, first_name: 'Ada', last_name: 'Lovelace' });
    expect(response.statusCode).toBe(201);
    const { ephemeral_token } = response.json<{ ephemeral_token: string }>();
    expect(ephemeral_token).toEqual(expect.any(String));

    const mail = await mailbox.waitFor(user.email);
    expect(mail.subject).toBe('Your Stageline verification code');
    expect(mail.text).toContain('Hello, Ada Lovelace!');
    const code = /^\d{6}$/m.exec(mail.text)![0];
    expect(mail.html).toContain(code);

    const checked = await post('/api/otp/check/', { code, ephemeral_token });
    expect(checked.statusCode).toBe(200);
    const tokens = checked.json<TTokenPair>();
    const profile = await me(tokens);
    expect(profile.statusCode).toBe(200);
    expect(profile.json()).toEqual({
      id: expect.any(Number) as unknown,
      username: user.username,
      email: user.email,
      first_name: 'Ada',
      last_name: 'Lovelace',
      language: 'en',
      two_factor: false,
      recent_workspace: null,
      avatar: null,
      workspaces: [],
      has_password: true,
      oauth_accounts: [],
      notify_browser: true,
      email_frequency: 'daily',
      onboarding: 'pending',
      time_zone: null,
    });
    // The sign-up token cannot be used again once the e-mail is verified.
    const again = await post('/api/otp/check/', { code, ephemeral_token });
    expect(again.json()).toEqual({ detail: 'Invalid token', code: 'invalid_token' });
  });

  test('a taken username or e-mail is a field error, whatever the case', async () => {
    const { user } = await signUp(t.app, mailbox);
    const byName = await post('/api/users/register/', { ...uniqueUser(), username: user.username.toUpperCase() });
    expect(byName.statusCode).toBe(400);
    expect(byName.json()).toEqual({ username: ['A user with that username already exists.'] });

    const byEmail = await post('/api/users/register/', { ...uniqueUser(), email: user.email.toUpperCase() });
    expect(byEmail.statusCode).toBe(400);
    expect(byEmail.json()).toEqual({ email: ['A user with that email already exists.'] });

    const both = await post('/api/users/register/', { ...user, password });
    expect(both.json()).toEqual({
      username: ['A user with that username already exists.'],
      email: ['A user with that email already exists.'],
    });
  });

  test('bad input names its fields', async () => {
    const response = await post('/api/users/register/', { username: 'a', email: 'nope', password: 'short' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      username: ['Ensure this field has at least 3 characters.'],
      email: ['Invalid email'],
      password: ['Password is too short'],
    });
  });

  test('a wrong code five times burns it: the right one is then refused', async () => {
    const { user, ephemeral } = await register(t.app);
    const code = await mailbox.code(user.email);
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i++) {
      const response = await post('/api/otp/check/', { code: wrong, ephemeral_token: ephemeral });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual(invalidCode);
    }
    const right = await post('/api/otp/check/', { code, ephemeral_token: ephemeral });
    expect(right.json()).toEqual(invalidCode);

    // A new code works.
    await allowResend(database, await userIdOf(database, user.email));
    expect((await post('/api/otp/send/', { ephemeral_token: ephemeral })).statusCode).toBe(200);
    const fresh = await mailbox.code(user.email);
    expect((await post('/api/otp/check/', { code: fresh, ephemeral_token: ephemeral })).statusCode).toBe(200);
  });

  test('an expired code is refused', async () => {
    const { user, ephemeral } = await register(t.app);
    const code = await mailbox.code(user.email);
    await database.db.execute(
      sql`update one_time_codes set expires_at = now() - interval '1 second'
          where user_id = (select id from users where email = ${user.email})`,
    );
    const response = await post('/api/otp/check/', { code, ephemeral_token: ephemeral });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual(invalidCode);
  });

  test('a code is 6 digits', async () => {
    const { ephemeral } = await register(t.app);
    const response = await post('/api/otp/check/', { code: '12ab', ephemeral_token: ephemeral });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ code: ['Enter 6-digits code'] });
  });

  test('a forged ephemeral token is refused', async () => {
    const response = await post('/api/otp/check/', { code: '123456', ephemeral_token: 'not.a.token' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ detail: 'Invalid token', code: 'invalid_token' });
  });
});

describe('otp/send', () => {
  test('a resend sooner than 30 s is 429 with Retry-After; later it sends a new code', async () => {
    const { user, ephemeral } = await register(t.app);
    await mailbox.code(user.email);
    const early = await post('/api/otp/send/', { ephemeral_token: ephemeral });
    expect(early.statusCode).toBe(429);
    const retryAfter = Number(early.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(25);
    expect(retryAfter).toBeLessThanOrEqual(30);
    expect(early.json()).toEqual({
      detail: `Too many attempts. Try again in ${retryAfter} seconds.`,
      code: 'rate_limited',
    });

    await allowResend(database, await userIdOf(database, user.email));
    const later = await post('/api/otp/send/', { ephemeral_token: ephemeral });
    expect(later.statusCode).toBe(200);
    expect(later.json()).toEqual({ detail: 'Code sent, check your email.' });
    const code = await mailbox.code(user.email);
    expect((await post('/api/otp/check/', { code, ephemeral_token: ephemeral })).statusCode).toBe(200);
  });

  test('signed in, sends a code for a purpose; signed out without a token is 401', async () => {
    const { user, tokens } = await signUp(t.app, mailbox);
    const response = await post('/api/otp/send/', { purpose: 'two_factor' }, bearer(tokens));
    expect(response.statusCode).toBe(200);
    const mail = await mailbox.waitFor(user.email);
    expect(mail.subject).toBe('Your Stageline confirmation code');
    expect(mail.text).toContain('two-factor authentication');

    const anonymous = await post('/api/otp/send/', {});
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toEqual({ detail: 'You must be authorized', code: 'not_authenticated' });
  });
});

describe('users/login/', () => {
  test('by username or e-mail, case-insensitively', async () => {
    const { user } = await signUp(t.app, mailbox);
    for (const name of [user.username, user.email.toUpperCase(), ` ${user.username.toUpperCase()} `]) {
      const response = await login(t.app, name);
      expect(response.statusCode, name).toBe(200);
      const tokens = response.json<TTokenPair>();
      expect((await me(tokens)).json()).toMatchObject({ username: user.username });
    }
  });

  test('a wrong password or unknown user: 400 Failed to login', async () => {
    const { user } = await signUp(t.app, mailbox);
    for (const [name, secret] of [
      [user.username, 'wrong password'],
      ['nobody-here', password],
    ] as const) {
      const response = await login(t.app, name, secret);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ detail: 'Failed to login', code: 'invalid_credentials' });
    }
  });

  test('an unverified e-mail: 403 with an ephemeral token and a code to verify it', async () => {
    const { user } = await register(t.app);
    await mailbox.code(user.email);
    await allowResend(database, await userIdOf(database, user.email));
    const response = await login(t.app, user.username);
    expect(response.statusCode).toBe(403);
    const body = response.json<{ ephemeral_token: string }>();
    expect(body).toEqual({
      detail: 'Your email is not verified',
      code: 'email_not_verified',
      ephemeral_token: expect.any(String) as unknown,
    });
    const code = await mailbox.code(user.email);
    const checked = await post('/api/otp/check/', { code, ephemeral_token: body.ephemeral_token });
    expect(checked.statusCode).toBe(200);
    expect((await login(t.app, user.email)).statusCode).toBe(200);
  });

  test('with 2FA on: an ephemeral token, a code by e-mail, then tokens', async () => {
    const { user, id } = await signUp(t.app, mailbox);
    await database.db.execute(sql`update users set two_factor = true where id = ${id}`);
    const response = await login(t.app, user.username);
    expect(response.statusCode).toBe(200);
    const { ephemeral_token } = response.json<{ ephemeral_token: string }>();
    expect(response.json()).not.toHaveProperty('access');
    const mail = await mailbox.waitFor(user.email);
    expect(mail.subject).toBe('Your Stageline sign-in code');
    const code = /^\d{6}$/m.exec(mail.text)![0];

    const wrong = await post('/api/otp/check/', { code: code === '999999' ? '000000' : '999999', ephemeral_token });
    expect(wrong.json()).toEqual(invalidCode);
    const checked = await post('/api/otp/check/', { code, ephemeral_token });
    expect(checked.statusCode).toBe(200);
    expect((await me(checked.json<TTokenPair>())).statusCode).toBe(200);
  });
});

describe('2FA sign-ins close together (decision 194)', () => {
  test('a second sign-in within 30 s of a spent code gets a new code; one still unspent is kept', async () => {
    const { user, id } = await signUp(t.app, mailbox);
    await database.db.execute(sql`update users set two_factor = true where id = ${id}`);
    const first = (await login(t.app, user.username)).json<{ ephemeral_token: string }>();
    const code = await mailbox.code(user.email);
    expect((await post('/api/otp/check/', { code, ephemeral_token: first.ephemeral_token })).statusCode).toBe(200);

    // Seconds later, on another device: the spent code cannot be used, so a new one is e-mailed.
    const second = await login(t.app, user.username);
    expect(second.statusCode).toBe(200);
    const { ephemeral_token } = second.json<{ ephemeral_token: string }>();
    const next = await mailbox.code(user.email);
    expect(next).toMatch(/^\d{6}$/);
    const reused = await post('/api/otp/check/', { code, ephemeral_token });
    if (next !== code) expect(reused.json()).toEqual(invalidCode);
    const checked = await post('/api/otp/check/', { code: next, ephemeral_token });
    expect(checked.statusCode).toBe(200);

    // A third sign-in gets a new code again (the second was spent); a fourth, while that code is still
    // unspent, gets none: the code in the inbox stays the one to use, and it signs in.
    await login(t.app, user.username);
    const waiting = await mailbox.code(user.email);
    const fourth = (await login(t.app, user.username)).json<{ ephemeral_token: string }>();
    expect(await mailbox.none(user.email)).toBe(true);
    const [codes] = await rowsOf<{ n: number }>(
      database.db,
      sql`select count(*)::int as n from one_time_codes where user_id = ${id} and purpose = 'login'`,
    );
    expect(codes!.n).toBe(3);
    expect((await post('/api/otp/check/', { code: waiting, ephemeral_token: fourth.ephemeral_token })).statusCode).toBe(
      200,
    );
  });

  test('an explicit resend after a spent code is not made to wait either', async () => {
    const { user, ephemeral } = await register(t.app);
    const code = await mailbox.code(user.email);
    expect((await post('/api/otp/check/', { code, ephemeral_token: ephemeral })).statusCode).toBe(200);
    const id = await userIdOf(database, user.email);
    await database.db.execute(sql`update users set two_factor = true where id = ${id}`);
    const login1 = (await login(t.app, user.username)).json<{ ephemeral_token: string }>();
    const sent = await mailbox.code(user.email);
    expect((await post('/api/otp/check/', { code: sent, ephemeral_token: login1.ephemeral_token })).statusCode).toBe(
      200,
    );
    const resend = await post('/api/otp/send/', { ephemeral_token: login1.ephemeral_token });
    expect(resend.statusCode).toBe(200);
    expect(await mailbox.code(user.email)).toMatch(/^\d{6}$/);
    // …while a fresh, unspent code still makes a resend wait.
    const early = await post('/api/otp/send/', { ephemeral_token: login1.ephemeral_token });
    expect(early.statusCode).toBe(429);
    expect(Number(early.headers['retry-after'])).toBeGreaterThan(25);
  });
});

describe('tokens', () => {
  test('refresh rotates; the new pair works', async () => {
    const { tokens } = await signUp(t.app, mailbox);
    const response = await post('/api/token/refresh/', { refresh: tokens.refresh });
    expect(response.statusCode).toBe(200);
    const rotated = response.json<TTokenPair>();
    expect(rotated.refresh).not.toBe(tokens.refresh);
    expect((await me(rotated)).statusCode).toBe(200);
    expect((await post('/api/token/refresh/', { refresh: rotated.refresh })).statusCode).toBe(200);
  });

  test('reusing a rotated refresh token revokes the whole family', async () => {
    const { tokens } = await signUp(t.app, mailbox);
    const rotated = (await post('/api/token/refresh/', { refresh: tokens.refresh })).json<TTokenPair>();

    const reused = await post('/api/token/refresh/', { refresh: tokens.refresh });
    expect(reused.statusCode).toBe(401);
    expect(reused.json()).toEqual(tokenInvalid);

    const newer = await post('/api/token/refresh/', { refresh: rotated.refresh });
    expect(newer.statusCode).toBe(401);
    expect(newer.json()).toEqual(tokenInvalid);
    expect((await me(rotated)).json()).toEqual(tokenInvalid);
  });

  test('logout revokes the refresh token and the session', async () => {
    const { tokens } = await signUp(t.app, mailbox);
    const response = await post('/api/users/logout/', { refresh: tokens.refresh });
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe('');
    expect((await post('/api/token/refresh/', { refresh: tokens.refresh })).statusCode).toBe(401);
    expect((await me(tokens)).statusCode).toBe(401);
  });

  test('no header: 401 not_authenticated; expired, forged or wrong-type token: 401 token_not_valid', async () => {
    const { tokens, id } = await signUp(t.app, mailbox);
    const missing = await t.app.inject({ method: 'GET', url: '/api/users/me/' });
    expect(missing.statusCode).toBe(401);
    expect(missing.json()).toEqual({ detail: 'You must be authorized', code: 'not_authenticated' });

    const sid = JSON.parse(Buffer.from(tokens.access.split('.')[1]!, 'base64url').toString()) as { sid: number };
    const sign = (key: string, exp: number, typ = 'access') =>
      new SignJWT({ typ, sid: sid.sid, sub: String(id) })
        .setProtectedHeader({ alg: 'HS256' })
        .setIssuedAt(exp - 300)
        .setExpirationTime(exp)
        .sign(new TextEncoder().encode(key));
    const now = Math.floor(Date.now() / 1000);
    const cases = {
      expired: await sign(secretKey, now - 10),
      forged: await sign('another-secret-key-of-at-least-32-characters', now + 300),
      refreshAsAccess: tokens.refresh,
      wrongType: await sign(secretKey, now + 300, 'ephemeral'),
      garbage: 'abc',
    };
    for (const [name, token] of Object.entries(cases)) {
      const response = await me({ access: token });
      expect(response.statusCode, name).toBe(401);
      expect(response.json(), name).toEqual(tokenInvalid);
    }
    expect((await me({ access: await sign(secretKey, now + 300) })).statusCode).toBe(200);
  });

  test('a bad refresh token is 401 token_not_valid', async () => {
    const response = await post('/api/token/refresh/', { refresh: 'x.y.z' });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual(tokenInvalid);
  });
});

describe('Russian', () => {
  test('errors and mail follow the language', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/users/login/',
      payload: { username: 'nobody', password },
      headers: { 'accept-language': 'ru-RU,ru;q=0.9' },
    });
    expect(response.json()).toEqual({ detail: 'Не удалось войти', code: 'invalid_credentials' });

    const user = uniqueUser();
    const registered = await t.app.inject({
      method: 'POST',
      url: '/api/users/register/',
      payload: user,
      headers: { 'accept-language': 'ru' },
    });
    expect(registered.statusCode).toBe(201);
    const mail = await mailbox.waitFor(user.email);
    expect(mail.subject).toBe('Код подтверждения Stageline');
    expect(mail.text).toContain(`Здравствуйте, ${user.username}!`);

    const taken = await t.app.inject({
      method: 'POST',
      url: '/api/users/register/',
      payload: user,
      headers: { 'accept-language': 'ru' },
    });
    expect(taken.json()).toEqual({
      username: ['Пользователь с таким именем уже существует.'],
      email: ['Пользователь с таким e-mail уже существует.'],
    });
  });
});

describe('rate limits', () => {
  let limited: TestApp;
  beforeAll(async () => {
    // Counters live in the database this file shares: start the limited app on fresh windows.
    await database.db.execute(sql`delete from rate_limits`);
    limited = await buildTestApp({
      database,
      config: { smtpUrl: mailbox.url, secretKey },
      authLimits: {
        ...relaxedLimits,
        loginFailuresPerAccount: { max: 3, windowSeconds: 60 },
        loginPerIp: { max: 5, windowSeconds: 60 },
        otpCheckPerIp: { max: 2, windowSeconds: 60 },
        registerPerIp: { max: 1, windowSeconds: 60 },
      },
    });
  });
  afterAll(async () => {
    await limited?.close();
  });

  test('failed logins of an unknown name, then per address: 429 with Retry-After, translated', async () => {
    const attempt = (username: string, language = 'en') =>
      limited.app.inject({
        method: 'POST',
        url: '/api/users/login/',
        payload: { username, password: 'wrong password' },
        headers: { 'accept-language': language },
      });
    for (let i = 0; i < 3; i++) expect((await attempt('victim')).statusCode).toBe(400);
    const blocked = await attempt('VICTIM', 'ru');
    expect(blocked.statusCode).toBe(429);
    const seconds = Number(blocked.headers['retry-after']);
    expect(seconds).toBeGreaterThan(0);
    expect(seconds).toBeLessThanOrEqual(60);
    expect(blocked.json()).toEqual({
      detail: `Слишком много попыток. Повторите через ${seconds} с.`,
      code: 'rate_limited',
    });
    // Another account from the same address still gets through, until the address limit.
    expect((await attempt('someone-else')).statusCode).toBe(400);
    const address = await attempt('third-person');
    expect(address.statusCode).toBe(429);
  });

  test('otp/check and register', async () => {
    const check = () =>
      limited.app.inject({ method: 'POST', url: '/api/otp/check/', payload: { code: '123456', ephemeral_token: 'x' } });
    expect((await check()).statusCode).toBe(400);
    expect((await check()).statusCode).toBe(400);
    expect((await check()).statusCode).toBe(429);

    const signUpOnce = () => limited.app.inject({ method: 'POST', url: '/api/users/register/', payload: uniqueUser() });
    expect((await signUpOnce()).statusCode).toBe(201);
    const second = await signUpOnce();
    expect(second.statusCode).toBe(429);
    expect(second.headers['retry-after']).toBeDefined();
  });
});
