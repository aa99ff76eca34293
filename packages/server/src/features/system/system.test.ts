import { readFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import type { Database } from '../../db';
import { serverRoot } from '../../package-paths';
import { buildTestApp, createTestDatabase, type TestApp } from '../../../test/helpers';

const maintenanceText = 'Sorry, we are under maintenance. Please try again later.';
const packageVersion = (JSON.parse(readFileSync(path.join(serverRoot, 'package.json'), 'utf8')) as { version: string })
  .version;
const databaseKind = inject('testTemplate').kind;

let database: Database;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.close();
});

describe('GET /api/health/', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ database });
  });
  afterAll(async () => {
    await t?.close();
  });

  test('answers ok with the version and the database it reached', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/health/' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.json()).toEqual({
      status: 'ok',
      version: packageVersion,
      database: { kind: databaseKind, ok: true },
    });
  });

  test('is only served with its trailing slash', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ detail: 'Not found.', code: 'not_found' });
  });

  test('answers at once while the database is busy and has just answered (decision 167)', async () => {
    const timed = async () => {
      const started = performance.now();
      const response = await t.app.inject({ method: 'GET', url: '/api/health/' });
      return { status: response.statusCode, ms: performance.now() - started, at: performance.now() };
    };
    let released = 0;
    // A transaction that holds the embedded database's one connection for 1.6 s after a statement.
    const holding = database.db.transaction(async (tx) => {
      await tx.execute(sql`select 1`);
      await new Promise((resolve) => setTimeout(resolve, 1_600));
      released = performance.now();
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const fresh = await timed();
    expect(fresh.status).toBe(200);
    expect(fresh.ms).toBeLessThan(500);
    if (databaseKind === 'pglite') {
      // A second later nothing has answered: the check asks the database, and waits for its turn.
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      const stale = await timed();
      expect(stale.status).toBe(200);
      expect(stale.at).toBeGreaterThanOrEqual(released);
    }
    await holding;
  });

  test('answers 503 degraded when the database is gone', async () => {
    const own = await buildTestApp();
    try {
      await own.database.close();
      const response = await own.app.inject({ method: 'GET', url: '/api/health/' });
      expect(response.statusCode).toBe(503);
      expect(response.json()).toEqual({
        status: 'degraded',
        version: packageVersion,
        database: { kind: databaseKind, ok: false },
      });
    } finally {
      await own.close();
    }
  });
});

describe('GET /api/config/', () => {
  test('gives the public settings', async () => {
    const t = await buildTestApp({ database });
    try {
      const response = await t.app.inject({ method: 'GET', url: '/api/config/' });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({
        version: packageVersion,
        maintenance: false,
        debug: false,
        publicUrl: null,
        maxUploadMb: 100,
        maxUploadsInFlight: 4,
      });
    } finally {
      await t.close();
    }
  });

  test('reflects debug and the public URL', async () => {
    const t = await buildTestApp({ database, config: { debug: true, publicUrl: 'https://stageline.example.com' } });
    try {
      const response = await t.app.inject({
        method: 'GET',
        url: '/api/config/',
        headers: { host: 'stageline.example.com' },
      });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ debug: true, publicUrl: 'https://stageline.example.com' });
    } finally {
      await t.close();
    }
  });
});

describe('OpenAPI', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ database });
  });
  afterAll(async () => {
    await t?.close();
  });

  test('/api/openapi.json is an OpenAPI 3 document with the system routes', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    const document = JSON.parse(response.body) as {
      openapi: string;
      info: { title: string; version: string };
      paths: Record<string, Record<string, unknown>>;
    };
    expect(document.openapi).toMatch(/^3\./);
    expect(document.info).toMatchObject({ title: 'Stageline API', version: packageVersion });
    expect(document.paths['/api/health/']).toHaveProperty('get');
    expect(document.paths['/api/config/']).toHaveProperty('get');
    expect(document.paths).not.toHaveProperty('/api/openapi.json');
  });

  test('/api/docs/ serves the browsable docs', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/docs/' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(response.body).toContain('swagger');
  });
});

describe('maintenance mode', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ database, config: { maintenance: true } });
  });
  afterAll(async () => {
    await t?.close();
  });

  test.each([
    ['GET', '/api/anything'],
    ['GET', '/api/workspaces/'],
    ['POST', '/api/users/login/'],
    ['GET', '/api/openapi.json'],
  ] as const)('%s %s answers 503 maintenance', async (method, url) => {
    const response = await t.app.inject({ method, url });
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({ detail: maintenanceText, code: 'maintenance' });
  });

  test('the maintenance text is translated', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/anything', headers: { 'accept-language': 'ru' } });
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({
      detail: 'Извините, идут технические работы. Пожалуйста, попробуйте позже.',
      code: 'maintenance',
    });
  });

  test('health and config still answer', async () => {
    const health = await t.app.inject({ method: 'GET', url: '/api/health/' });
    expect(health.statusCode).toBe(200);
    expect(health.json()).toMatchObject({ status: 'ok' });

    const config = await t.app.inject({ method: 'GET', url: '/api/config/?t=1' });
    expect(config.statusCode).toBe(200);
    expect(config.json()).toMatchObject({ maintenance: true });
  });
});
