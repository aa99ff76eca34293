import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import lockfile from 'proper-lockfile';
import { migrationsDir } from '../package-paths';
import * as schema from './schema';

export { schema };

/** The Drizzle handle every service uses; it does not say whether PGlite or PostgreSQL is behind it. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export type Database = {
  kind: 'pglite' | 'postgres';
  db: Db;
  /** Throws when the database does not answer. */
  ping(): Promise<void>;
  /** Closes connections (and releases the data directory lock); safe to call twice. */
  close(): Promise<void>;
};

export type DatabaseOptions =
  | { databaseUrl: string; migrate?: boolean; poolSize?: number }
  | { dataDir: string; migrate?: boolean }
  /** An already opened PGlite, for tests that load a prepared template in memory. */
  | { pglite: PGlite; migrate?: boolean };

export class DataDirLockedError extends Error {
  constructor(dir: string) {
    super(
      `The data directory ${dir} is in use by another Stageline process. ` +
        'One process may open an embedded database; to run several, set DATABASE_URL to a PostgreSQL server.',
    );
    this.name = 'DataDirLockedError';
  }
}

/**
 * Opens the database: a PostgreSQL server when a URL is given, otherwise the embedded PGlite in
 * `dataDir/pgdata`, locked so a second process cannot open it and silently lose writes. Migrations
 * are applied before it is returned.
 */
export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  const database =
    'databaseUrl' in options ? openPostgres(options.databaseUrl, options.poolSize) : await openPglite(options);
  if (options.migrate !== false) {
    try {
      await migrateDatabase(database);
    } catch (error) {
      await database.close();
      throw error;
    }
  }
  return database;
}

async function migrateDatabase(database: Database): Promise<void> {
  if (database.kind === 'pglite') {
    await migratePglite(database.db as Parameters<typeof migratePglite>[0], { migrationsFolder: migrationsDir });
  } else {
    await migratePg(database.db as Parameters<typeof migratePg>[0], { migrationsFolder: migrationsDir });
  }
}

function openPostgres(databaseUrl: string, poolSize = 10): Database {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: poolSize });
  // An idle client that loses its server must not crash the process; the next query reconnects.
  pool.on('error', () => undefined);
  const db = drizzlePg({ client: pool, schema }) as unknown as Db;
  let closed = false;
  return {
    kind: 'postgres',
    db,
    ping: async () => {
      await db.execute(sql`select 1`);
    },
    close: async () => {
      if (closed) return;
      closed = true;
      await pool.end();
    },
  };
}

async function openPglite(options: { dataDir: string } | { pglite: PGlite }): Promise<Database> {
  let client: PGlite;
  let release: (() => Promise<void>) | undefined;
  if ('pglite' in options) {
    client = options.pglite;
  } else {
    const dir = path.resolve(options.dataDir);
    await mkdir(dir, { recursive: true });
    try {
      release = await lockfile.lock(dir, { lockfilePath: path.join(dir, '.lock'), stale: 10_000, update: 2_000 });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ELOCKED') throw new DataDirLockedError(dir);
      throw error;
    }
    try {
      client = await PGlite.create(path.join(dir, 'pgdata'));
    } catch (error) {
      await release();
      throw error;
    }
  }
  const db = drizzlePglite({ client, schema }) as unknown as Db;
  let closed = false;
  return {
    kind: 'pglite',
    db,
    ping: async () => {
      await client.query('select 1');
    },
    close: async () => {
      if (closed) return;
      closed = true;
      if (!client.closed) await client.close();
      await release?.();
    },
  };
}
