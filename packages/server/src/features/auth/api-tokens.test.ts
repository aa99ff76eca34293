import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { TApiToken, TApiTokenCreated } from '@stageline/shared';
import { schema } from '../../db';
import { relaxedLimits } from '../../../test/accounts';
import { buildTestApp, type TestApp } from '../../../test/helpers';
import { buildUser, type TestUser } from '../../../test/workspaces';

/** Personal API tokens: made by a signed-in person, used by scripts with the owner's rights. */

let t: TestApp;
let ada: TestUser;

beforeAll(async () => {
  t = await buildTestApp({ authLimits: relaxedLimits });
  ada = await buildUser(t);
});
afterAll(async () => {
  await t?.close();
});

async function makeToken(scope: 'read' | 'write', extra: Record<string, unknown> = {}) {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/users/me/tokens/',
    headers: ada.headers,
    payload: { name: `Render farm ${scope}`, scope, ...extra },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<TApiTokenCreated>();
}

const withToken = (token: string) => ({ authorization: `Bearer ${token}` });

describe('personal API tokens', () => {
  test('shown once, stored as a hash, listed with when they were last used', async () => {
    const created = await makeToken('read');
    expect(created.token).toMatch(/^stl_[A-Za-z0-9_-]{43}$/);
    expect(created).toMatchObject({ scope: 'read', expires_at: null, last_used_at: null });
    const [row] = await t.database.db.select().from(schema.apiTokens).where(eq(schema.apiTokens.id, created.id));
    expect(JSON.stringify(row)).not.toContain(created.token);

    const me = await t.app.inject({ method: 'GET', url: '/api/users/me/', headers: withToken(created.token) });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({ id: ada.id });

    const list = await t.app.inject({ method: 'GET', url: '/api/users/me/tokens/', headers: ada.headers });
    const listed = list.json<TApiToken[]>().find((token) => token.id === created.id)!;
    expect(listed).not.toHaveProperty('token');
    expect(listed.last_used_at).not.toBeNull();
    expect(list.body).not.toContain(created.token);
  });

  test('a read token reads and is refused any write; a write token writes with its owner rights', async () => {
    const reader = await makeToken('read');
    const refused = await t.app.inject({
      method: 'POST',
      url: '/api/workspaces/',
      headers: withToken(reader.token),
      payload: { name: 'From a script' },
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ detail: 'This API token can only read.', code: 'permission_denied' });

    const writer = await makeToken('write');
    const made = await t.app.inject({
      method: 'POST',
      url: '/api/workspaces/',
      headers: withToken(writer.token),
      payload: { name: 'From a script' },
    });
    expect(made.statusCode).toBe(201);
    expect(made.json()).toMatchObject({ role: 'owner', owner: { id: ada.id } });
  });

  test('revoked or expired: 401', async () => {
    const revoked = await makeToken('write');
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `/api/users/me/tokens/${revoked.id}/`,
      headers: ada.headers,
    });
    expect(deleted.statusCode).toBe(204);
    const after = await t.app.inject({ method: 'GET', url: '/api/users/me/', headers: withToken(revoked.token) });
    expect(after.statusCode).toBe(401);
    expect(after.json()).toEqual({
      detail: 'This API token is not valid: it was revoked, has expired or never existed.',
      code: 'not_authenticated',
    });

    const expiring = await makeToken('read', { expires_at: new Date(Date.now() + 60_000).toISOString() });
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/users/me/', headers: withToken(expiring.token) })).statusCode,
    ).toBe(200);
    await t.database.db.execute(
      sql`update api_tokens set expires_at = now() - interval '1 second' where id = ${expiring.id}`,
    );
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/users/me/', headers: withToken(expiring.token) })).statusCode,
    ).toBe(401);
  });

  test('cannot manage tokens, the password, the e-mail, 2FA, sessions, linked accounts or open the event stream', async () => {
    const writer = await makeToken('write');
    const headers = withToken(writer.token);
    const calls: [string, string, object?][] = [
      ['POST', '/api/users/me/tokens/', { name: 'Another', scope: 'write' }],
      ['GET', '/api/users/me/tokens/'],
      ['DELETE', `/api/users/me/tokens/${writer.id}/`],
      ['POST', '/api/users/me/password/', { code: '000000', password: 'a new long password' }],
      ['POST', '/api/users/me/email/', { email: 'new@example.com', code: '000000' }],
      ['POST', '/api/users/me/two_factor/', { enabled: true, code: '000000' }],
      ['GET', '/api/users/me/sessions/'],
      ['DELETE', '/api/users/me/oauth/github/'],
      ['GET', '/api/events/'],
      ['POST', '/api/otp/send/', { purpose: 'password_change' }],
    ];
    for (const [method, url, payload] of calls) {
      const response = await t.app.inject({ method: method as 'GET', url, headers, payload });
      expect(response.statusCode, `${method} ${url}`).toBe(403);
      expect(response.json<{ code: string }>().code).toBe('permission_denied');
    }
  });

  test("someone else's token cannot be revoked; bad input is a field error", async () => {
    const other = await buildUser(t);
    const mine = await makeToken('read');
    const foreign = await t.app.inject({
      method: 'DELETE',
      url: `/api/users/me/tokens/${mine.id}/`,
      headers: other.headers,
    });
    expect(foreign.statusCode).toBe(404);
    const past = await t.app.inject({
      method: 'POST',
      url: '/api/users/me/tokens/',
      headers: ada.headers,
      payload: { name: 'Old', scope: 'read', expires_at: '2020-01-01T00:00:00Z' },
    });
    expect(past.statusCode).toBe(400);
    expect(past.json()).toEqual({ expires_at: ['The expiry date must be in the future.'] });
    const scope = await t.app.inject({
      method: 'POST',
      url: '/api/users/me/tokens/',
      headers: { ...ada.headers, 'accept-language': 'ru' },
      payload: { name: 'X', scope: 'admin' },
    });
    expect(scope.json()).toEqual({ scope: ['Выберите допустимое значение.'] });
  });

  test('failed tokens from one address are rate-limited', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 32; i++) {
      const response = await t.app.inject({
        method: 'GET',
        url: '/api/users/me/',
        headers: withToken(`stl_guess${i}`),
        remoteAddress: '198.51.100.7',
      });
      statuses.push(response.statusCode);
    }
    expect(statuses.slice(0, 30).every((status) => status === 401)).toBe(true);
    expect(statuses.slice(30)).toEqual([429, 429]);
  });
});
