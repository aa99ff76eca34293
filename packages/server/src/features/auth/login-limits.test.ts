import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { TTokenPair } from '@stageline/shared';
import { schema, type Database } from '../../db';
import { password, relaxedLimits, signUp, userIdOf } from '../../../test/accounts';
import { buildTestApp, createTestDatabase, type TestApp } from '../../../test/helpers';
import { startMailbox, type Mailbox } from '../../../test/mailbox';

/**
 * Failed sign-ins count per account (docs/security.md): naming the account by username or by
 * e-mail shares one counter; past it the password alone no longer signs in, but nobody is locked
 * out — the owner finishes with an e-mailed code, which a right password alone triggers.
 */

const lockedDetail = 'Too many failed sign-ins. If the password was right, we e-mailed you a code to finish.';
const failuresPerAccount = 4;

let database: Database;
let mailbox: Mailbox;
let t: TestApp;

beforeAll(async () => {
  [database, mailbox] = await Promise.all([createTestDatabase(), startMailbox()]);
  t = await buildTestApp({
    database,
    config: { smtpUrl: mailbox.url },
    authLimits: { ...relaxedLimits, loginFailuresPerAccount: { max: failuresPerAccount, windowSeconds: 300 } },
  });
});
afterAll(async () => {
  await t?.close();
  await mailbox?.close();
  await database?.close();
});

type LoginAnswer = { ephemeral_token: string; detail?: string };

const logIn = async (username: string, secret: string) => {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/users/login/',
    payload: { username, password: secret },
  });
  return Object.assign(response, { answer: () => response.json<LoginAnswer>() });
};

describe('failed sign-ins per account', () => {
  test('username and e-mail share one counter; then every answer is the same and only a right password mails a code', async () => {
    const { user } = await signUp(t.app, mailbox);
    // Half the failures by username, half by e-mail: one account, one counter.
    for (let i = 0; i < failuresPerAccount; i++) {
      const name = i % 2 === 0 ? user.username : user.email.toUpperCase();
      expect((await logIn(name, 'wrong password')).statusCode).toBe(400);
    }

    const wrong = await logIn(user.email, 'still wrong');
    const right = await logIn(user.username, password);
    for (const response of [wrong, right]) {
      expect(response.statusCode).toBe(200);
      expect(Object.keys(response.json()).sort()).toEqual(['detail', 'ephemeral_token']);
      expect(response.answer().detail).toBe(lockedDetail);
    }
    // Only the right password sent a code: exactly one mail.
    const code = await mailbox.code(user.email);
    expect(await mailbox.none(user.email)).toBe(true);

    // The wrong try's token cannot take the code; the right one's can.
    const withWrong = await t.app.inject({
      method: 'POST',
      url: '/api/otp/check/',
      payload: { code: code === '000000' ? '000001' : '000000', ephemeral_token: wrong.answer().ephemeral_token },
    });
    expect(withWrong.statusCode).toBe(400);
    const signedIn = await t.app.inject({
      method: 'POST',
      url: '/api/otp/check/',
      payload: { code, ephemeral_token: right.answer().ephemeral_token },
    });
    expect(signedIn.statusCode).toBe(200);
    expect(Object.keys(signedIn.json<TTokenPair>()).sort()).toEqual(['access', 'refresh']);

    // Signing in cleared the failures: the password alone works again.
    expect(Object.keys((await logIn(user.username, password)).json()).sort()).toEqual(['access', 'refresh']);
  });

  test('a locked account cannot get a new code without the password', async () => {
    const { user } = await signUp(t.app, mailbox);
    for (let i = 0; i < failuresPerAccount; i++) await logIn(user.username, 'wrong password');
    const locked = await logIn(user.username, 'wrong again');
    const resend = await t.app.inject({
      method: 'POST',
      url: '/api/otp/send/',
      payload: { ephemeral_token: locked.answer().ephemeral_token },
    });
    expect(resend.statusCode).toBe(400);
    expect(resend.json()).toEqual({
      detail: 'Sign in again with your password to get a new code.',
      code: 'invalid_token',
    });
    expect(await mailbox.none(user.email)).toBe(true);
  });

  test('unknown names are limited by name: 429 past the limit', async () => {
    for (let i = 0; i < failuresPerAccount; i++) expect((await logIn('nobody-here', 'x')).statusCode).toBe(400);
    const limited = await logIn('NOBODY-HERE', 'x');
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
  });
});

describe('codes under a burst of guesses', () => {
  test('five tries are counted, however many arrive at once', async () => {
    const { user } = await signUp(t.app, mailbox);
    const userId = await userIdOf(database, user.email);
    // Two-factor on, to get a login code step.
    await database.db.update(schema.users).set({ twoFactor: true }).where(eq(schema.users.id, userId));
    const { ephemeral_token } = (await logIn(user.username, password)).answer();
    const code = await mailbox.code(user.email);
    const wrong = (n: number) => String((Number(code) + n) % 1_000_000).padStart(6, '0');

    const burst = await Promise.all([
      ...Array.from({ length: 9 }, (_, i) =>
        t.app.inject({ method: 'POST', url: '/api/otp/check/', payload: { code: wrong(i + 1), ephemeral_token } }),
      ),
      t.app.inject({ method: 'POST', url: '/api/otp/check/', payload: { code, ephemeral_token } }),
    ]);
    const [row] = await database.db
      .select({ attempts: schema.oneTimeCodes.attempts, consumedAt: schema.oneTimeCodes.consumedAt })
      .from(schema.oneTimeCodes)
      .where(and(eq(schema.oneTimeCodes.userId, userId), eq(schema.oneTimeCodes.purpose, 'login')));
    // Never more than five comparisons, the right code's included.
    expect(row!.attempts).toBeLessThanOrEqual(5);
    const succeeded = burst.filter((response) => response.statusCode === 200).length;
    expect(succeeded).toBeLessThanOrEqual(1);
    expect(burst.filter((response) => response.statusCode === 400)).toHaveLength(burst.length - succeeded);
    // The right code got in only if its try was among the five counted.
    expect(Boolean(row!.consumedAt)).toBe(succeeded === 1);
  });
});
