import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DataDirLockedError, openDatabase, schema } from './index';

describe('openDatabase on an embedded data directory', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'stageline-db-test-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  test('creates pgdata, migrates, locks the directory and keeps data across reopening', async () => {
    const first = await openDatabase({ dataDir: dir });
    try {
      expect(first.kind).toBe('pglite');
      expect(existsSync(path.join(dir, 'pgdata', 'PG_VERSION'))).toBe(true);
      expect(await first.db.select().from(schema.users)).toEqual([]);

      await expect(openDatabase({ dataDir: dir })).rejects.toBeInstanceOf(DataDirLockedError);
      await expect(openDatabase({ dataDir: dir })).rejects.toThrow(/in use by another Stageline process/);
      // The refused second open must not disturb the first.
      await first.ping();

      await first.db.insert(schema.users).values({ username: 'alice', email: 'alice@example.com' });
    } finally {
      await first.close();
    }
    await first.close(); // safe to call twice
    expect(existsSync(path.join(dir, '.lock'))).toBe(false);

    const second = await openDatabase({ dataDir: dir });
    try {
      const rows = await second.db
        .select({ username: schema.users.username, email: schema.users.email })
        .from(schema.users);
      expect(rows).toEqual([{ username: 'alice', email: 'alice@example.com' }]);
    } finally {
      await second.close();
    }
  });
});
