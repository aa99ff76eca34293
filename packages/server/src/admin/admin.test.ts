import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { buildApp, type App } from '../app';
import { loadConfig } from '../config';
import { openDatabase, schema, type Database } from '../db';
import { admin } from './main';
import { AdminSecretHeader, writeAdminSecret } from './secret';

/**
 * `npm run admin -- …` (docs/operations.md, "Admin commands") against a running server on the
 * embedded database: the data directory is locked, so the CLI asks the server, with the secret the
 * server wrote there. Then the server stops and a backup taken through it restores elsewhere.
 */

let dir: string;
let database: Database;
let app: App;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'stageline-admin-test-'));
  const dataDir = path.join(dir, 'data');
  env = { DATA_DIR: dataDir, HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'silent', NODE_ENV: 'test' };
  database = await openDatabase({ dataDir });
  const secret = await writeAdminSecret(dataDir);
  app = await buildApp({ config: loadConfig(env), database, adminSecret: secret });
  await app.listen({ port: 0, host: '127.0.0.1' });
  env.PORT = String((app.server.address() as AddressInfo).port);
}, 180_000);
afterAll(async () => {
  await app?.close();
  await database?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** Runs the CLI in this process, answering its exit code and what it printed. */
async function run(...argv: string[]) {
  const out: string[] = [];
  const write = (chunk: string | Uint8Array) => {
    out.push(String(chunk));
    return true;
  };
  const stdout = vi.spyOn(process.stdout, 'write').mockImplementation(write);
  const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(write);
  try {
    const code = await admin(argv, env);
    return { code, text: out.join('') };
  } finally {
    stdout.mockRestore();
    stderr.mockRestore();
  }
}

const signIn = (username: string, password: string) =>
  app.inject({ method: 'POST', url: '/api/users/login/', payload: { username, password } });

describe('admin commands through a running server', () => {
  test('create-admin, revoke-sessions, reset-2fa, migrate-status, backup and verify; restore after it stops', async () => {
    const created = await run('create-admin', 'boss@example.com');
    expect(created.code, created.text).toBe(0);
    expect(created.text).toContain('Created boss <boss@example.com>, owner of the workspace "Studio"');
    const password = /Password \(shown once; change it after signing in\): (\S+)/.exec(created.text)![1]!;
    const login = await signIn('boss', password);
    expect(login.statusCode, login.body).toBe(200);
    const access = login.json<{ access: string }>().access;
    const me = () =>
      app.inject({ method: 'GET', url: '/api/users/me/', headers: { authorization: `Bearer ${access}` } });
    expect((await me()).statusCode).toBe(200);
    expect((await run('create-admin', 'boss@example.com')).text).toContain('boss@example.com already has an account.');

    const revoked = await run('revoke-sessions', 'boss');
    expect(revoked.text).toContain('Signed boss out of 1 session.');
    expect((await me()).statusCode).toBe(401);

    await database.db.update(schema.users).set({ twoFactor: true }).where(eq(schema.users.username, 'boss'));
    expect((await run('reset-2fa', 'boss@example.com')).text).toContain('The second sign-in step of boss is off');
    const [boss] = await database.db.select().from(schema.users).where(eq(schema.users.username, 'boss'));
    expect(boss!.twoFactor).toBe(false);
    const unknown = await run('reset-2fa', 'nobody');
    expect(unknown.code).toBe(1);
    expect(unknown.text).toContain('No user has the username or e-mail nobody.');

    const status = await run('migrate-status');
    expect(status.text).toMatch(/^(\d+) of \1 migrations applied \(the last: \d{4}_\w+\)\.\nNone waiting\.\n$/);

    const file = path.join(dir, 'running.tar.gz');
    const backedUp = await run('backup', file);
    expect(backedUp.code, backedUp.text).toBe(0);
    expect(backedUp.text).toMatch(/^Backed up \d+ tables \(\d+ rows\) and 0 files/);
    expect((await run('verify', file)).text).toContain('every checksum matches');
    const refused = await run('restore', file);
    expect(refused.code).toBe(1);
    expect(refused.text).toContain('Stop the server first');

    // The route answers this machine with the secret only.
    const url = `http://127.0.0.1:${env.PORT}/api/admin/`;
    const body = JSON.stringify({ command: 'migrate-status', args: [] });
    const headers = { 'content-type': 'application/json' };
    expect((await fetch(url, { method: 'POST', headers, body })).status).toBe(404);
    const wrong = { ...headers, [AdminSecretHeader]: 'guess' };
    expect((await fetch(url, { method: 'POST', headers: wrong, body })).status).toBe(404);

    // Another data directory, nobody running on it: the restore goes in, and boss signs in there.
    const elsewhere = { ...env, DATA_DIR: path.join(dir, 'elsewhere') };
    const restoreEnv = env;
    env = elsewhere;
    try {
      const restored = await run('restore', file);
      expect(restored.code, restored.text).toBe(0);
      expect(restored.text).toMatch(/^Restored \d+ tables/);
      const again = await openDatabase({ dataDir: elsewhere.DATA_DIR });
      try {
        const users = await again.db.select().from(schema.users).where(eq(schema.users.username, 'boss'));
        expect(users).toHaveLength(1);
      } finally {
        await again.close();
      }
      const twice = await run('restore', file);
      expect(twice.code).toBe(1);
      expect(twice.text).toContain('The target is not empty');
    } finally {
      env = restoreEnv;
    }
    expect((await run('no-such-command')).code).toBe(2);
  }, 240_000);
});
