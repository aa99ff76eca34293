import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { schema, type Database } from '../db';
import { relaxedLimits, signUp, uniqueUser } from '../../test/accounts';
import { buildTestApp, createTestDatabase, type TestApp } from '../../test/helpers';
import { startMailbox, type Mailbox } from '../../test/mailbox';
import { buildUser, buildWorkspace } from '../../test/workspaces';

/**
 * Links in e-mails never come from what a caller typed (docs/security.md): without PUBLIC_URL, a
 * Host (or a trusted X-Forwarded-Host) that does not name this server is refused before any mail.
 */

const hostNotAllowed = {
  detail:
    'This address cannot be used in e-mailed links. Open the app at its public address, or set PUBLIC_URL on the server.',
  code: 'host_not_allowed',
};

let database: Database;
let mailbox: Mailbox;
let plain: TestApp;
let proxied: TestApp;
let published: TestApp;

beforeAll(async () => {
  [database, mailbox] = await Promise.all([createTestDatabase(), startMailbox()]);
  const base = { database, authLimits: relaxedLimits };
  [plain, proxied, published] = await Promise.all([
    buildTestApp({ ...base, config: { smtpUrl: mailbox.url } }),
    buildTestApp({ ...base, config: { smtpUrl: mailbox.url, trustProxy: true } }),
    buildTestApp({ ...base, config: { smtpUrl: mailbox.url, publicUrl: 'https://stageline.example.com' } }),
  ]);
});
afterAll(async () => {
  await Promise.all([plain?.close(), proxied?.close(), published?.close()]);
  await mailbox?.close();
  await database?.close();
});

const askReset = (t: TestApp, email: string, headers: Record<string, string>) =>
  t.app.inject({ method: 'POST', url: '/api/users/password_reset/', payload: { email }, headers });

const linkIn = (text: string) => new URL(/https?:\/\/\S+/.exec(text)![0]);

describe('password-reset links', () => {
  test('a foreign Host is refused and nothing is mailed', async () => {
    const { user } = await signUp(plain.app, mailbox);
    const response = await askReset(plain, user.email, { host: 'evil.example' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual(hostNotAllowed);
    expect(await mailbox.none(user.email)).toBe(true);
    const tokens = await database.db
      .select()
      .from(schema.passwordResetTokens)
      .innerJoin(schema.users, eq(schema.users.id, schema.passwordResetTokens.userId))
      .where(eq(schema.users.email, user.email));
    expect(tokens).toHaveLength(0);
  });

  test('a Host tricked in with a user part or a path is refused too', async () => {
    const { user } = await signUp(plain.app, mailbox);
    for (const host of ['localhost@evil.example', 'evil.example#localhost', 'localhost:3000.evil.example']) {
      expect((await askReset(plain, user.email, { host })).statusCode, host).toBe(400);
    }
    expect(await mailbox.none(user.email)).toBe(true);
  });

  test('behind a trusted proxy, a foreign X-Forwarded-Host is refused', async () => {
    const { user } = await signUp(proxied.app, mailbox);
    const response = await askReset(proxied, user.email, { host: 'localhost', 'x-forwarded-host': 'evil.example' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual(hostNotAllowed);
    expect(await mailbox.none(user.email)).toBe(true);
  });

  test('a Host naming this machine is used', async () => {
    const { user } = await signUp(plain.app, mailbox);
    expect((await askReset(plain, user.email, { host: 'localhost:3000' })).statusCode).toBe(200);
    expect(linkIn((await mailbox.waitFor(user.email)).text).origin).toBe('http://localhost:3000');
  });

  test('with PUBLIC_URL, links use it whatever a forwarded host says', async () => {
    // (A request on another Host is redirected to PUBLIC_URL before it reaches any route.)
    const { user } = await signUp(plain.app, mailbox);
    const response = await askReset(published, user.email, {
      host: 'stageline.example.com',
      'x-forwarded-host': 'evil.example',
    });
    expect(response.statusCode).toBe(200);
    const link = linkIn((await mailbox.waitFor(user.email)).text);
    expect(link.origin).toBe('https://stageline.example.com');
    expect(link.pathname).toBe('/reset_pass');
  });
});

describe('invite and e-mail change links', () => {
  test('an invite from a foreign Host is refused before the invite exists', async () => {
    const owner = await buildUser(plain);
    const workspace = await buildWorkspace(plain, { owner });
    const invitee = uniqueUser('invitee');
    const response = await plain.app.inject({
      method: 'POST',
      url: `/api/workspaces/${workspace.id}/invite/`,
      headers: { ...owner.headers, host: 'evil.example' },
      payload: { users: [invitee.email], role: 'member' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual(hostNotAllowed);
    expect(await mailbox.none(invitee.email)).toBe(true);
    const invites = await database.db.select().from(schema.invites).where(eq(schema.invites.workspaceId, workspace.id));
    expect(invites).toHaveLength(0);
  });

  test('an invite with PUBLIC_URL links there', async () => {
    const owner = await buildUser(plain);
    const workspace = await buildWorkspace(plain, { owner });
    const invitee = uniqueUser('invitee');
    const response = await published.app.inject({
      method: 'POST',
      url: `/api/workspaces/${workspace.id}/invite/`,
      headers: { ...owner.headers, host: 'stageline.example.com', 'x-forwarded-host': 'evil.example' },
      payload: { users: [invitee.email], role: 'member' },
    });
    expect(response.json()).toMatchObject({ invited: 1 });
    const link = linkIn((await mailbox.waitFor(invitee.email)).text);
    expect(link.origin).toBe('https://stageline.example.com');
    expect(link.pathname).toMatch(/^\/p\/[A-Za-z0-9_-]{43}$/);
  });

  test('an e-mail change from a foreign Host is refused', async () => {
    const user = await buildUser(plain);
    const response = await plain.app.inject({
      method: 'POST',
      url: '/api/users/me/email/',
      headers: { ...user.headers, host: 'evil.example' },
      payload: { email: uniqueUser().email, code: '123456' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual(hostNotAllowed);
  });
});

describe('on a listening server', () => {
  let port: number;
  beforeAll(async () => {
    await plain.app.listen({ port: 0, host: '127.0.0.1' });
    port = (plain.app.server.address() as AddressInfo).port;
  });

  /** A real HTTP request with the Host header we choose (fetch does not let us set it). */
  const resetOver = (host: string, email: string) =>
    new Promise<number>((resolve, reject) => {
      const body = JSON.stringify({ email });
      const request = http.request(
        { host: '127.0.0.1', port, method: 'POST', path: '/api/users/password_reset/' },
        (response) => {
          response.resume();
          response.on('end', () => resolve(response.statusCode ?? 0));
        },
      );
      request.setHeader('host', host);
      request.setHeader('content-type', 'application/json');
      request.on('error', reject);
      request.end(body);
    });

  test('the Host must carry the port the connection came in on', async () => {
    const { user } = await signUp(plain.app, mailbox);
    expect(await resetOver(`127.0.0.1:${port + 1}`, user.email)).toBe(400);
    expect(await resetOver('127.0.0.1', user.email)).toBe(400);
    expect(await mailbox.none(user.email)).toBe(true);
    expect(await resetOver(`127.0.0.1:${port}`, user.email)).toBe(200);
    expect(linkIn((await mailbox.waitFor(user.email)).text).origin).toBe(`http://127.0.0.1:${port}`);
  });
});
