import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { bearer, relaxedLimits, signUp } from '../../../test/accounts';
import { buildTestApp, createTestDatabase, type TestApp } from '../../../test/helpers';
import { startMailbox, type Mailbox } from '../../../test/mailbox';
import type { Database } from '../../db';

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

const me = async (tokens: { access: string }) =>
  (await t.app.inject({ method: 'GET', url: '/api/users/me/', headers: bearer(tokens) })).json<{
    onboarding: string;
  }>();
const patch = (account: { id: number; tokens: { access: string } }, onboarding: unknown) =>
  t.app.inject({
    method: 'PATCH',
    url: `/api/users/${account.id}/`,
    headers: bearer(account.tokens),
    payload: { onboarding },
  });

describe('the quickstart state (users.onboarding)', () => {
  test('a new account is pending; skipping, resuming and finishing are saved; finished is final', async () => {
    const account = await signUp(t.app, mailbox);
    expect((await me(account.tokens)).onboarding).toBe('pending');

    const skipped = await patch(account, 'skipped');
    expect(skipped.statusCode, skipped.body).toBe(200);
    expect(skipped.json()).toMatchObject({ onboarding: 'skipped' });
    expect((await patch(account, 'pending')).json()).toMatchObject({ onboarding: 'pending' });

    expect((await patch(account, 'done')).json()).toMatchObject({ onboarding: 'done' });
    const again = await patch(account, 'skipped');
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ onboarding: ['The quickstart is already finished.'] });
    expect((await patch(account, 'done')).statusCode).toBe(200);
    expect((await me(account.tokens)).onboarding).toBe('done');
  });

  test('an unknown state is a field error', async () => {
    const account = await signUp(t.app, mailbox);
    const response = await patch(account, 'halfway');
    expect(response.statusCode).toBe(400);
    expect(Object.keys(response.json<Record<string, unknown>>())).toEqual(['onboarding']);
    expect((await me(account.tokens)).onboarding).toBe('pending');
  });
});
