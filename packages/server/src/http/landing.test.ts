import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildTestApp, createTestDatabase, type TestApp } from '../../test/helpers';
import type { Database } from '../db';

const indexHtml = '<!doctype html><html lang="en"><body><div id="root"></div></body></html>';
const landing = (language: string) => `<!doctype html><html lang="${language}" data-prerendered="${language}"></html>`;
const loginPage = (language: string) =>
  `<!doctype html><html lang="${language}" data-prerendered="${language}"><form></form></html>`;

const script = `export const words = ${JSON.stringify('stage '.repeat(400))};`;

let database: Database;
let distDir: string;
let t: TestApp;
let closed: TestApp;

beforeAll(async () => {
  database = await createTestDatabase();
  distDir = await mkdtemp(path.join(os.tmpdir(), 'stageline-landing-'));
  await mkdir(path.join(distDir, 'landing'));
  await mkdir(path.join(distDir, 'login'));
  await writeFile(path.join(distDir, 'index.html'), indexHtml);
  await mkdir(path.join(distDir, 'assets'));
  await writeFile(path.join(distDir, 'assets', 'app-1.js'), script);
  await writeFile(path.join(distDir, 'assets', 'app-1.js.br'), brotliCompressSync(script));
  for (const language of ['en', 'ru'])
    await writeFile(path.join(distDir, 'landing', `${language}.html`), landing(language));
  for (const language of ['en', 'ru'])
    await writeFile(path.join(distDir, 'login', `${language}.html`), loginPage(language));
  t = await buildTestApp({ database, webDistDir: distDir });
  closed = await buildTestApp({ database, webDistDir: distDir, config: { maintenance: true } });
});
afterAll(async () => {
  await t?.close();
  await closed?.close();
  await rm(distDir, { recursive: true, force: true });
  await database?.close();
});

describe('the prerendered landing page at /', () => {
  test.each([
    ['ru-RU,ru;q=0.9,en;q=0.8', 'ru'],
    ['en-GB', 'en'],
    ['de-DE', 'en'],
    [undefined, 'en'],
  ])('Accept-Language %s gets the %s page, revalidated and varying by language', async (header, language) => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/',
      headers: header ? { 'accept-language': header } : {},
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(response.headers.vary).toContain('Accept-Language');
    expect(response.headers['content-security-policy']).toContain("script-src 'self'");
    expect(response.body).toBe(landing(language));
  });

  test('HEAD answers like GET; other pages still get the app', async () => {
    const head = await t.app.inject({ method: 'HEAD', url: '/' });
    expect(head.statusCode).toBe(200);
    const page = await t.app.inject({ method: 'GET', url: '/register', headers: { 'accept-language': 'ru' } });
    expect(page.body).toBe(indexHtml);
  });

  test('in maintenance mode / is the app, which shows the maintenance text', async () => {
    const response = await closed.app.inject({ method: 'GET', url: '/', headers: { 'accept-language': 'ru' } });
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe(indexHtml);
  });
});

describe('the prerendered login form at /login', () => {
  test.each([
    ['ru-RU,ru;q=0.9', 'ru'],
    ['de-DE', 'en'],
  ])('Accept-Language %s gets the %s page, with or without a query', async (header, language) => {
    for (const url of ['/login', '/login?next=%2Fapp%2Fprofile']) {
      const response = await t.app.inject({ method: 'GET', url, headers: { 'accept-language': header } });
      expect(response.statusCode).toBe(200);
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(response.headers.vary).toContain('Accept-Language');
      expect(response.body).toBe(loginPage(language));
    }
  });

  test('/login/ and the files themselves answer as pages do', async () => {
    const slash = await t.app.inject({ method: 'GET', url: '/login/', headers: { 'accept-language': 'ru' } });
    expect(slash.statusCode).toBe(200);
    expect([indexHtml, loginPage('ru')]).toContain(slash.body);
  });

  test('in maintenance mode /login is the app, which shows the maintenance text', async () => {
    const response = await closed.app.inject({ method: 'GET', url: '/login' });
    expect(response.body).toBe(indexHtml);
  });
});

describe('the build precompressed', () => {
  test('a script goes out as its .br file to a browser that accepts brotli, plain to one that does not', async () => {
    const compressed = await t.app.inject({
      method: 'GET',
      url: '/assets/app-1.js',
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(compressed.statusCode).toBe(200);
    expect(compressed.headers['content-encoding']).toBe('br');
    expect(compressed.headers['cache-control']).toContain('immutable');
    expect(brotliDecompressSync(compressed.rawPayload).toString()).toBe(script);

    const plain = await t.app.inject({
      method: 'GET',
      url: '/assets/app-1.js',
      headers: { 'accept-encoding': 'identity' },
    });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(script);
  });
});
