import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  countStatements,
  DataDirLockedError,
  openDatabase,
  PgliteSettings,
  preparedRowsOf,
  rowsOf,
  schema,
} from './index';

describe('openDatabase on an embedded data directory', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'stageline-db-test-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  test('creates pgdata past a killed first start, migrates, locks the directory and keeps data across reopening', async () => {
    // What a killed first start leaves: the directory under its temporary name, half-made. Nothing
    // that passes for a database: it is cleared and made anew (one test, as making one takes seconds).
    await mkdir(path.join(dir, 'pgdata.partial-123-0a1b2c3d', 'base'), { recursive: true });
    await writeFile(path.join(dir, 'pgdata.partial-123-0a1b2c3d', 'PG_VERSION'), '18\n');
    const first = await openDatabase({ dataDir: dir });
    try {
      expect(first.kind).toBe('pglite');
      expect(existsSync(path.join(dir, 'pgdata', 'PG_VERSION'))).toBe(true);
      expect((await readdir(dir)).sort()).toEqual(['.lock', 'pgdata']);
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

  test('runs with its memory settings from the command line, which a directory made before them gets too', async () => {
    const database = await openDatabase({ dataDir: dir });
    try {
      const settings = await rowsOf<{ name: string; value: string; source: string }>(
        database.db,
        sql`select name, current_setting(name) as value, source from pg_settings
          where name in ('shared_buffers', 'maintenance_work_mem') order by name`,
      );
      expect(settings).toEqual(
        Object.entries(PgliteSettings)
          .sort(([a], [b]) => a.localeCompare(b))
          .map(([name, value]) => ({ name, value, source: 'command line' })),
      );
    } finally {
      await database.close();
    }
  });

  test('a prepared read is PREPAREd once, outside the count, even inside a transaction that rolls back', async () => {
    const database = await openDatabase({ dataDir: dir });
    const { db } = database;
    try {
      const read = (tx: typeof db, n: string, value: string | null) =>
        preparedRowsOf<{ n: number; text: string | null; at: string }>(
          tx,
          'db_test_read',
          sql`select ${Number(n)}::int + 1 as n, ${value}::text as text, timestamptz '2026-01-02T03:04:05Z' as at`,
        );
      const prepared = () =>
        rowsOf<{ name: string }>(db, sql`select name from pg_prepared_statements where name = 'db_test_read'`);
      await db
        .transaction(async (tx) => {
          expect(await read(tx, '1', "it's")).toEqual([{ n: 2, text: "it's", at: '2026-01-02 03:04:05+00' }]);
          throw new Error('roll back');
        })
        .catch((error: unknown) => expect(String(error)).toMatch(/roll back/));
      expect(await prepared()).toEqual([{ name: 'db_test_read' }]);
      const { result, statements } = await countStatements(() => read(db, '41', null));
      expect(result).toEqual([{ n: 42, text: null, at: '2026-01-02 03:04:05+00' }]);
      expect(statements).toBe(1);
      // A parameter written as a literal stays a value, whatever quotes and backslashes it holds.
      const hostile = "\\'); drop table tasks; -- ' \\";
      expect((await read(db, '1', hostile))[0]?.text).toBe(hostile);
      // What rowsOf answers for the same statement, dates as text included.
      expect(
        await rowsOf(
          db,
          sql`select ${41}::int + 1 as n, ${null}::text as text, timestamptz '2026-01-02T03:04:05Z' as at`,
        ),
      ).toEqual(result);
    } finally {
      await database.close();
    }
  });
});
