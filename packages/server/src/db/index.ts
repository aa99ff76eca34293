import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { sql, type SQL } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { PgDialect, type PgDatabase, type PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { migrationsDir } from '../package-paths';
import { lockDataDir, type DataDirLock } from './data-dir-lock';
import { countStatement, uncounted } from './statements';
import * as schema from './schema';

export { DataDirLockedError } from './data-dir-lock';
export { countStatements } from './statements';

export { schema };

/** The Drizzle handle every service uses; it does not say whether PGlite or PostgreSQL is behind it. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

/**
 * The NOTIFY channel every server process LISTENs on, through the live-event hub
 * (`features/events/hub.ts`): event ids, and `session:<id>` when a session ends (docs/security.md).
 */
export const NotifyChannel = 'stageline_events';

/** What `listen` tells its caller besides payloads. */
export type ListenOptions = {
  /**
   * Called after the dedicated connection was lost and is listening again (PostgreSQL only):
   * notifications sent in between are lost, so the caller catches up from the table.
   */
  onReconnect?: () => void;
  /** Called when the dedicated connection is lost (PostgreSQL only), before any `onReconnect`. */
  onLost?: () => void;
};

/** Rows of a raw statement, on PGlite and node-postgres alike (both answer `{ rows }`). */
export async function rowsOf<T>(db: Db, query: SQL): Promise<T[]> {
  const result: unknown = await db.execute(query);
  return (result as { rows: T[] }).rows;
}

const dialect = new PgDialect();

/**
 * `rowsOf` as a named prepared statement (docs/architecture.md, "Statements"): node-postgres parses
 * and PostgreSQL plans it once per connection, then only binds and runs it. For the big one-statement
 * reads, whose planning costs more than running them (a task's detail: about 1.5 ms to plan, 0.8 ms
 * to run). `name` must name one SQL text (the parameters may change); PGlite ignores it.
 */
export async function preparedRowsOf<T>(db: Db, name: string, query: SQL): Promise<T[]> {
  const prepared = db._.session.prepareQuery(dialect.sqlToQuery(query), undefined, name, false);
  const result: unknown = await prepared.execute();
  return (result as { rows: T[] }).rows;
}

/** Text for `LIKE`/`ILIKE` whose `%`, `_` and `\\` typed by the user match themselves. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

export type Database = {
  kind: 'pglite' | 'postgres';
  db: Db;
  /** Connections that can run statements at once (1 for the embedded database). */
  poolSize: number;
  /**
   * LISTENs on `channel` and calls `onPayload` with each NOTIFY's payload (delivered only after the
   * notifying transaction commits). Resolves once listening, so a NOTIFY sent after it is never
   * missed; the answer stops listening. PostgreSQL uses a dedicated connection outside the pool that
   * reconnects after errors; PGlite its own `listen`.
   */
  listen(channel: string, onPayload: (payload: string) => void, options?: ListenOptions): Promise<() => Promise<void>>;
  /** Throws when the database does not answer. */
  ping(): Promise<void>;
  /** Closes connections (and releases the data directory lock); safe to call twice. */
  close(): Promise<void>;
};

export type DatabaseOptions =
  | { databaseUrl: string; migrate?: boolean; poolSize?: number }
  | {
      dataDir: string;
      migrate?: boolean;
      /** Told when the lock of a process that is gone is taken over (for the log). */
      onLockTakeover?: (reason: string) => void;
    }
  /** An already opened PGlite, for tests that load a prepared template in memory. */
  | { pglite: PGlite; migrate?: boolean };

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
  // Every statement, pooled or in a transaction, goes through a client's `query`.
  pool.on('connect', (client) => {
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args) => {
      countStatement();
      return query(...args);
    };
  });
  const db = drizzlePg({ client: pool, schema }) as unknown as Db;
  let closed = false;
  const listeners = new Set<() => Promise<void>>();
  return {
    kind: 'postgres',
    db,
    poolSize,
    ping: async () => {
      await db.execute(sql`select 1`);
    },
    listen: async (channel, onPayload, options) => {
      const stop = await listenPostgres(databaseUrl, channel, uncounted(onPayload), options);
      const remove = async () => {
        listeners.delete(remove);
        await stop();
      };
      listeners.add(remove);
      return remove;
    },
    close: async () => {
      if (closed) return;
      closed = true;
      await Promise.all([...listeners].map((stop) => stop()));
      await pool.end();
    },
  };
}

const quoteChannel = (channel: string) => {
  if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`Unexpected channel name ${channel}`);
  return `"${channel}"`;
};

/**
 * LISTEN on a dedicated connection (a pooled one would be handed to queries and lose it). When the
 * connection fails it is replaced, with a growing delay (up to 5 s), and `onReconnect` says so.
 */
async function listenPostgres(
  databaseUrl: string,
  channel: string,
  onPayload: (payload: string) => void,
  options: ListenOptions = {},
): Promise<() => Promise<void>> {
  let stopped = false;
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  let attempt = 0;

  const connect = async (): Promise<void> => {
    const next = new pg.Client({ connectionString: databaseUrl });
    next.on('notification', (message) => {
      if (message.channel === channel) onPayload(message.payload ?? '');
    });
    const lost = () => {
      if (client !== next || stopped) return;
      client = undefined;
      next.end().catch(() => undefined);
      options.onLost?.();
      schedule();
    };
    next.on('error', lost);
    next.on('end', lost);
    client = next;
    try {
      await next.connect();
      await next.query(`LISTEN ${quoteChannel(channel)}`);
    } catch (error) {
      client = undefined;
      await next.end().catch(() => undefined);
      throw error;
    }
  };

  const schedule = () => {
    if (stopped || retry) return;
    const delay = Math.min(5000, 100 * 2 ** attempt);
    attempt += 1;
    retry = setTimeout(() => {
      retry = undefined;
      connect().then(
        () => {
          attempt = 0;
          options.onReconnect?.();
        },
        () => schedule(),
      );
    }, delay);
    retry.unref();
  };

  await connect();
  return async () => {
    stopped = true;
    if (retry) clearTimeout(retry);
    const current = client;
    client = undefined;
    await current?.end().catch(() => undefined);
  };
}

async function openPglite(
  options: { dataDir: string; onLockTakeover?: (reason: string) => void } | { pglite: PGlite },
): Promise<Database> {
  let client: PGlite;
  let lock: DataDirLock | undefined;
  if ('pglite' in options) {
    client = options.pglite;
  } else {
    const dir = path.resolve(options.dataDir);
    await mkdir(dir, { recursive: true });
    lock = await lockDataDir(dir, { onTakeover: options.onLockTakeover });
    try {
      client = await PGlite.create(path.join(dir, 'pgdata'));
    } catch (error) {
      await lock.release();
      throw error;
    }
  }
  const db = drizzlePglite({ client, schema }) as unknown as Db;
  let closed = false;
  // Queries and execs, in a transaction or not, each take PGlite's query lock once.
  const exclusive = client._runExclusiveQuery.bind(client);
  client._runExclusiveQuery = (run) => {
    countStatement();
    return exclusive(run);
  };
  return {
    kind: 'pglite',
    db,
    poolSize: 1,
    ping: async () => {
      await client.query('select 1');
    },
    listen: async (channel, onPayload) => {
      // Awaited before anything NOTIFYs, or the notification is missed (STACK.md).
      const unlisten = await client.listen(channel, uncounted(onPayload));
      return async () => {
        if (!client.closed) await unlisten();
      };
    },
    close: async () => {
      if (closed) return;
      closed = true;
      if (!client.closed) await client.close();
      await lock?.release();
    },
  };
}
