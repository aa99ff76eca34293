import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import type { TTokenPair } from '@stageline/shared';
import { eq, sql } from 'drizzle-orm';
import type { App } from '../src/app';
import { schema, type Database } from '../src/db';
import { defaultAuthLimits, type AuthLimits } from '../src/features/auth';
import type { Mailbox } from './mailbox';

export const password = 'correct horse battery';

/** A username and e-mail no other test uses. */
export function uniqueUser(prefix = 'user') {
  const tag = `${prefix}${randomBytes(4).toString('hex')}`;
  return { username: tag, email: `${tag}@example.com`, password };
}

export const bearer = (tokens: { access: string }) => ({ authorization: `Bearer ${tokens.access}` });

/** Registers through the API and answers the ephemeral token. */
export async function register(app: App, user = uniqueUser(), extra: Record<string, unknown> = {}) {
  const response = await app.inject({ method: 'POST', url: '/api/users/register/', payload: { ...user, ...extra } });
  expect(response.statusCode, response.body).toBe(201);
  return { user, ephemeral: response.json<{ ephemeral_token: string }>().ephemeral_token };
}

/**
 * A verified, signed-in account: registers, reads the code from the SMTP server, checks it. The
 * code's mail is consumed from the mailbox.
 */
export async function signUp(app: App, mailbox: Mailbox, overrides: Partial<ReturnType<typeof uniqueUser>> = {}) {
  const { user, ephemeral } = await register(app, { ...uniqueUser(), ...overrides });
  const code = await mailbox.code(user.email);
  const response = await app.inject({
    method: 'POST',
    url: '/api/otp/check/',
    payload: { code, ephemeral_token: ephemeral },
  });
  expect(response.statusCode, response.body).toBe(200);
  const tokens = response.json<TTokenPair>();
  const me = await app.inject({ method: 'GET', url: '/api/users/me/', headers: bearer(tokens) });
  return { user, tokens, id: me.json<{ id: number }>().id };
}

export async function login(app: App, username: string, secret = password) {
  return app.inject({ method: 'POST', url: '/api/users/login/', payload: { username, password: secret } });
}

/** The id of the user with this e-mail. */
export async function userIdOf(database: Database, email: string): Promise<number> {
  const [row] = await database.db
    .select({ id: schema.users.id })
    .from(schema.users)
    .where(eq(schema.users.email, email));
  if (!row) throw new Error(`No user ${email}`);
  return row.id;
}

/** Backdates the codes sent to a user so another may be sent at once (otp_timeout is 30 s). */
export async function allowResend(database: Database, userId: number) {
  await database.db.execute(
    sql`update one_time_codes set sent_at = sent_at - interval '31 seconds' where user_id = ${userId}`,
  );
}

/** Limits high enough that one test file's sign-ins from 127.0.0.1 never trip them. */
export const relaxedLimits: Partial<AuthLimits> = Object.fromEntries(
  Object.keys(defaultAuthLimits).map((name) => [name, { max: 10_000, windowSeconds: 60 }]),
);
