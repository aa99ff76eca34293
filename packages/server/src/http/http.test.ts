import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { BuildHeader, ZIdParams } from '@stageline/shared';
import type { App } from '../app';
import { schema, type Database } from '../db';
import { buildTestApp, createTestDatabase, type TestApp } from '../../test/helpers';
import { AppError } from './errors';

const notFound = { detail: 'Not found.', code: 'not_found' };

let database: Database;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.close();
});

const ZSignup = z.object({
  username: z.string().min(3).max(20),
  email: z.email(),
  profile: z.object({ age: z.number().int().min(18) }).optional(),
});

/** Routes that exist only in this file, to drive each branch of the error handler. */
function addTestRoutes(app: App, db: Database): void {
  app.post('/api/test/signup/', { schema: { body: ZSignup } }, async (request) => request.body);
  app.get('/api/test/items/:id/', { schema: { params: ZIdParams } }, async (request) => ({ id: request.params.id }));
  app.get('/api/test/forbidden/', async () => {
    throw new AppError('permission_denied');
  });
  app.get('/api/test/slow-down/', async () => {
    throw new AppError('rate_limited', undefined, { seconds: 42 }, { 'retry-after': '42' });
  });
  app.post(
    '/api/test/users/',
    { schema: { body: z.object({ username: z.string(), email: z.string() }) } },
    async (request) => {
      const [row] = await db.db.insert(schema.users).values(request.body).returning({ id: schema.users.id });
      return row;
    },
  );
  app.get('/api/test/crash/', async () => {
    throw new Error('secret: postgres://admin:hunter2@db.internal/stageline');
  });
  app.get('/api/test/big/', async () => ({
    items: Array.from({ length: 100 }, (_, i) => ({ i, text: 'Work that flows through stages.' })),
  }));
}

describe('API errors', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ database });
    addTestRoutes(t.app, database);
  });
  afterAll(async () => {
    await t?.close();
  });

  test('an unknown API path is a JSON 404', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/x' });
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.json()).toEqual(notFound);
  });

  test('without a web build, any other path is a JSON 404 too', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/app/workspaces' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual(notFound);
  });

  test.each([
    ['ru', 'Не найдено.'],
    ['ru-RU,ru;q=0.9,en;q=0.8', 'Не найдено.'],
    ['en;q=0.5, ru;q=0.8', 'Не найдено.'],
    ['de-DE', 'Not found.'],
    ['en-GB', 'Not found.'],
  ])('Accept-Language: %s gives %s', async (acceptLanguage, detail) => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/x',
      headers: { 'accept-language': acceptLanguage },
    });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ detail, code: 'not_found' });
  });

  test('malformed JSON is a 400 parse_error', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/test/signup/',
      headers: { 'content-type': 'application/json' },
      payload: '{"username": "alice",',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ detail: 'Malformed request body.', code: 'parse_error' });
  });

  test('an empty JSON body is a 400 parse_error', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/test/signup/',
      headers: { 'content-type': 'application/json' },
      payload: '',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ detail: 'Malformed request body.', code: 'parse_error' });
  });

  test('a body of another content type is a 415', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/test/signup/',
      headers: { 'content-type': 'application/xml' },
      payload: '<user/>',
    });
    expect(response.statusCode).toBe(415);
    expect(response.json()).toEqual({ detail: 'Unsupported content type.', code: 'unsupported_media_type' });
  });

  test('a body over 1 MB is a 413', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/test/signup/',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ username: 'x'.repeat(1100 * 1024), email: 'a@example.com' }),
    });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual({ detail: 'Request is too large.', code: 'payload_too_large' });
  });

  test('a valid body passes validation', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/test/signup/',
      payload: { username: 'alice', email: 'alice@example.com' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ username: 'alice', email: 'alice@example.com' });
  });

  test('field errors name each field, nested ones with dots', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/test/signup/',
      payload: { username: 'al', email: 'not an email', profile: { age: 12 } },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      username: ['Ensure this field has at least 3 characters.'],
      email: ['Invalid email'],
      'profile.age': ['Ensure this value is greater than or equal to 18.'],
    });
  });

  test('field errors are translated', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/test/signup/',
      headers: { 'accept-language': 'ru' },
      payload: { username: 'x'.repeat(21), email: 'nope' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ username: ['Не более 20 символов.'], email: ['Неверный e-mail'] });
  });

  test('a missing field is Required', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/api/test/signup/', payload: { username: 'alice' } });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ email: ['Required'] });
  });

  test('a body of the wrong shape is a whole-request validation error', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/api/test/signup/', payload: [1, 2] });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ detail: 'Invalid value.', code: 'validation_error' });
  });

  test('a valid id param passes', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/test/items/7/' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ id: 7 });
  });

  test.each(['abc', '0', '-1', '1.5', '2147483648'])('an invalid id param (%s) is a 404', async (id) => {
    const response = await t.app.inject({ method: 'GET', url: `/api/test/items/${id}/` });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual(notFound);
  });

  test('a thrown AppError answers with its status and code', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/test/forbidden/' });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ detail: 'Access denied', code: 'permission_denied' });

    const ru = await t.app.inject({ method: 'GET', url: '/api/test/forbidden/', headers: { 'accept-language': 'ru' } });
    expect(ru.json()).toEqual({ detail: 'Доступ запрещён', code: 'permission_denied' });
  });

  test('an AppError carries its parameters and headers', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/test/slow-down/' });
    expect(response.statusCode).toBe(429);
    expect(response.headers['retry-after']).toBe('42');
    expect(response.json()).toEqual({ detail: 'Too many attempts. Try again in 42 seconds.', code: 'rate_limited' });
  });

  test('a unique violation in the database is a 409 conflict, not a 500', async () => {
    const first = await t.app.inject({
      method: 'POST',
      url: '/api/test/users/',
      payload: { username: 'bob', email: 'bob@example.com' },
    });
    expect(first.statusCode).toBe(200);
    expect(first.json<{ id: unknown }>().id).toBeTypeOf('number');

    const duplicate = await t.app.inject({
      method: 'POST',
      url: '/api/test/users/',
      payload: { username: 'BOB', email: 'other@example.com' },
    });
    expect(duplicate.statusCode).toBe(409);
    expect(duplicate.json()).toEqual({
      detail: 'Conflict: the record was changed or already exists.',
      code: 'conflict',
    });
  });

  test('a value too long for its column is a 400, not a 500', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/test/users/',
      payload: { username: 'u'.repeat(151), email: 'long@example.com' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ detail: 'Bad request.', code: 'bad_request' });
  });

  test('an unexpected error is a bare 500 that leaks nothing', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/test/crash/' });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({ detail: 'Unknown error', code: 'internal' });
    expect(response.body).not.toContain('hunter2');
    expect(response.body).not.toContain('stack');
  });

  test('security headers are set', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/health/' });
    const csp = String(response.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('upgrade-insecure-requests');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['strict-transport-security']).toBeUndefined();
  });

  test('error responses carry the security headers too', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/x' });
    expect(response.headers['content-security-policy']).toContain("script-src 'self'");
    expect(response.headers['x-content-type-options']).toBe('nosniff');
  });

  test('a large response is gzipped when the client accepts it', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/test/big/',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe('gzip');
    const body = JSON.parse(gunzipSync(response.rawPayload).toString('utf8')) as { items: unknown[] };
    expect(body.items).toHaveLength(100);
  });

  test('a response is not compressed when the client does not ask', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/test/big/',
      headers: { 'accept-encoding': 'identity' },
    });
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(response.json<{ items: unknown[] }>().items).toHaveLength(100);
  });
});

test('without a web build, API answers name none', async () => {
  const t = await buildTestApp({ database });
  try {
    expect((await t.app.inject({ method: 'GET', url: '/api/health/' })).headers[BuildHeader]).toBeUndefined();
  } finally {
    await t.close();
  }
});

describe('with an https PUBLIC_URL', () => {
  const publicUrl = 'https://stageline.example.com';
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ database, config: { publicUrl } });
  });
  afterAll(async () => {
    await t?.close();
  });

  test('a request under another host is redirected with its path and query', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/app/workspaces/3?tab=members&q=a%20b',
      headers: { host: 'stageline-1.internal:3000' },
    });
    expect(response.statusCode).toBe(308);
    expect(response.headers.location).toBe('https://stageline.example.com/app/workspaces/3?tab=members&q=a%20b');
  });

  test('a POST under another host is redirected with 308 too', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/api/users/login/', headers: { host: '10.0.0.5' } });
    expect(response.statusCode).toBe(308);
    expect(response.headers.location).toBe('https://stageline.example.com/api/users/login/');
  });

  test('a request under the public host passes, whatever its case', async () => {
    for (const host of ['stageline.example.com', 'Stageline.Example.COM']) {
      const response = await t.app.inject({ method: 'GET', url: '/api/config/', headers: { host } });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ publicUrl });
    }
  });

  test('the health check is exempt', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/health/', headers: { host: '10.0.0.5:3000' } });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ status: 'ok' });
  });

  test('HSTS and upgrade-insecure-requests are sent', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/config/',
      headers: { host: 'stageline.example.com' },
    });
    expect(response.headers['strict-transport-security']).toContain('max-age=15552000');
    expect(response.headers['content-security-policy']).toContain('upgrade-insecure-requests');
  });
});

describe('serving the web app', () => {
  const indexHtml =
    '<!doctype html><html><head><script type="module" src="/assets/app-abc123.js"></script></head>' +
    '<body><div id="root"></div></body></html>';
  const script = 'console.log("stageline");';
  let distDir: string;
  let t: TestApp;
  beforeAll(async () => {
    distDir = await mkdtemp(path.join(os.tmpdir(), 'stageline-web-dist-'));
    await mkdir(path.join(distDir, 'assets'));
    await writeFile(path.join(distDir, 'index.html'), indexHtml);
    await writeFile(path.join(distDir, 'assets', 'app-abc123.js'), script);
    await writeFile(path.join(distDir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    t = await buildTestApp({ database, webDistDir: distDir });
  });
  afterAll(async () => {
    await t?.close();
    await rm(distDir, { recursive: true, force: true });
  });

  test.each(['/app/workspaces', '/', '/app/workspaces/3/projects/5?tab=units'])(
    'a client-side route (%s) gets index.html, revalidated',
    async (url) => {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toMatch(/^text\/html/);
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(response.body).toBe(indexHtml);
    },
  );

  test('every API answer names the build served, the entry script index.html loads (decision 139)', async () => {
    for (const url of ['/api/health/', '/api/config/', '/api/users/me/']) {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.headers[BuildHeader], url).toBe('/assets/app-abc123.js');
    }
    // Pages and files do not carry it: the app reads it from its API calls.
    expect((await t.app.inject({ method: 'GET', url: '/assets/app-abc123.js' })).headers[BuildHeader]).toBeUndefined();
  });

  test('a hashed asset is cached for a year', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/assets/app-abc123.js' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/javascript/);
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(response.body).toBe(script);
  });

  test('other files at the root are revalidated', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/favicon.svg' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-cache');
  });

  test.each(['/assets/missing.js', '/assets/'])('a missing asset (%s) is a JSON 404, not index.html', async (url) => {
    const response = await t.app.inject({ method: 'GET', url });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual(notFound);
  });

  test('an unknown API path is still a JSON 404', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/unknown' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual(notFound);
  });

  test('a POST to a page path is a JSON 404', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/app/workspaces', payload: {} });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual(notFound);
  });

  test('the page is served with the CSP', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/app/workspaces' });
    expect(response.headers['content-security-policy']).toContain("script-src 'self'");
  });
});
