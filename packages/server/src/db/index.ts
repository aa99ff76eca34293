import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { PGlite, type QueryOptions } from '@electric-sql/pglite';
import type { SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { migrationsDir } from '../package-paths';
import { lockDataDir, type DataDirLock } from './data-dir-lock';
import { createLiveness } from './liveness';
import { createPgliteDataDir, pgliteStartParams } from './pglite-data-dir';
import { countStatement, statementTimer, uncounted, uncountedWork } from './statements';
import * as schema from './schema';
import type { Database, Db } from './types';

export { DataDirLockedError } from './data-dir-lock';
export { countStatements, tallyRequest } from './statements';
export { PgliteSettings } from './pglite-data-dir';

export { schema };
export { NotifyChannel, type Database, type Db, type ListenOptions } from './types';

/** Rows of a raw statement, on PGlite and node-postgres alike (both answer `{ rows }`). */
export async function rowsOf<T>(db: Db, query: SQL): Promise<T[]> {
  const result: unknown = await db.execute(query);
  return (result as { rows: T[] }).rows;
}

const dialect = new PgDialect();

/** The PGlite behind each of its transactions' clients (`openPglite` records them), for `preparedRowsOf`. */
const pgliteOfTransaction = new WeakMap<object, PGlite>();
/** The statements PREPAREd on each PGlite (its one session lives as long as it), by name. */
const preparedOnPglite = new WeakMap<PGlite, Map<string, { sql: string; ready: Promise<void> }>>();

/** A parameter as an SQL literal of unknown type (PostgreSQL converts it to the parameter's type), if it is one we write. */
function literalOf(value: unknown): string | undefined {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'number' && Number.isFinite(value)) return `'${value}'`;
  if (typeof value === 'bigint' || typeof value === 'boolean') return `'${value}'`;
  // standard_conforming_strings is on: a quote doubled is the only escape.
  if (typeof value === 'string' && !value.includes('\0')) return `'${value.replaceAll("'", "''")}'`;
  return undefined;
}

/**
 * `rowsOf` as a named prepared statement (docs/architecture.md, "Statements"): planned once, then
 * only bound and run. For the big one-statement reads, whose planning costs more than running them
 * (a task's detail: about 1.5 ms to plan, 0.8 ms to run). `name` must name one SQL text (the
 * parameters may change). node-postgres prepares it once per connection. PGlite's driver has no
 * named statements, so on PGlite (decision 113) the first call PREPAREs it with SQL — once per
 * PGlite, remembered here, outside the statement count (it is the database's, not the request's) —
 * and every call runs `EXECUTE name(…)` with the parameters written as literals. A PREPARE fails only
 * when its statement would, so one made inside a transaction cannot abort it for another reason, and
 * it outlives a rollback. Parameters other than numbers, strings, booleans and nulls run unprepared.
 */
export async function preparedRowsOf<T>(db: Db, name: string, query: SQL): Promise<T[]> {
  const text = dialect.sqlToQuery(query);
  const prepared = db._.session.prepareQuery(text, undefined, name, false);
  const client = (prepared as unknown as { client?: object }).client;
  const pglite = client instanceof PGlite ? client : client ? pgliteOfTransaction.get(client) : undefined;
  const literals = text.params.map(literalOf);
  if (!pglite || !client || literals.some((literal) => literal === undefined) || !/^[a-z_][a-z0-9_]*$/.test(name)) {
    const result: unknown = await prepared.execute();
    return (result as { rows: T[] }).rows;
  }
  const session = client as PGlite;
  const statements = preparedOnPglite.get(pglite) ?? new Map<string, { sql: string; ready: Promise<void> }>();
  preparedOnPglite.set(pglite, statements);
  let statement = statements.get(name);
  if (!statement) {
    const ready = uncountedWork(() => session.exec(`prepare ${name} as ${text.sql}`)).then(() => undefined);
    statements.set(name, (statement = { sql: text.sql, ready }));
    ready.catch(() => statements.delete(name));
  } else if (statement.sql !== text.sql) {
    // As node-postgres refuses it: the name would run the other statement.
    throw new Error(`Prepared statement ${name} was used for a different statement`);
  }
  await statement.ready;
  // Drizzle's own options for raw rows: dates and intervals stay text, as on node-postgres.
  const options = (prepared as unknown as { rawQueryConfig: QueryOptions }).rawQueryConfig;
  const result = await session.query<T>(`execute ${name}(${literals.join(', ')})`, [], options);
  return result.rows;
}

/** Text for `LIKE`/`ILIKE` whose `%`, `_` and `\\` typed by the user match themselves. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

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
  let database: Database;
  let migrate: (database: Database) => Promise<void>;
  if ('databaseUrl' in options) {
    // The PostgreSQL driver is loaded only for a server (docs/decisions.md, 166).
    const postgres = await import('./postgres');
    database = postgres.openPostgres(options.databaseUrl, options.poolSize);
    migrate = postgres.migratePostgres;
  } else {
    database = await openPglite(options);
    migrate = (opened) =>
      migratePglite(opened.db as Parameters<typeof migratePglite>[0], { migrationsFolder: migrationsDir });
  }
  if (options.migrate !== false) {
    try {
      await migrate(database);
    } catch (error) {
      await database.close();
      throw error;
    }
  }
  return database;
}

/**
 * Applies the migrations of `folder` not yet applied (the backup's restore builds the schema of an
 * older archive with a folder of fewer migrations, then runs the rest: docs/operations.md).
 */
export async function migrateDatabase(database: Database, folder: string = migrationsDir): Promise<void> {
  if (database.kind === 'postgres') {
    const postgres = await import('./postgres');
    await postgres.migratePostgres(database, folder);
  } else await migratePglite(database.db as Parameters<typeof migratePglite>[0], { migrationsFolder: folder });
}

/** How long statements of the embedded database may run one after another without letting the event loop turn. */
const yieldEveryMs = 10;

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
      const pgdata = path.join(dir, 'pgdata');
      if (!existsSync(path.join(pgdata, 'PG_VERSION'))) await createPgliteDataDir(pgdata);
      client = await PGlite.create(pgdata, { startParams: pgliteStartParams() });
    } catch (error) {
      await lock.release();
      throw error;
    }
  }
  const db = drizzlePglite({ client, schema }) as unknown as Db;
  let closed = false;
  // A transaction's client says which PGlite it belongs to (`preparedRowsOf`).
  const transaction = client.transaction.bind(client);
  client.transaction = (callback) =>
    transaction((tx) => {
      pgliteOfTransaction.set(tx, client);
      return callback(tx);
    });
  // Queries and execs, in a transaction or not, each take PGlite's query lock once.
  const exclusive = client._runExclusiveQuery.bind(client);
  const liveness = createLiveness(() => client.query('select 1'));
  let turnAt = performance.now();
  client._runExclusiveQuery = (run) => {
    countStatement();
    const timer = statementTimer();
    return liveness.answered(
      exclusive(async () => {
        // PGlite runs each statement synchronously and hands its lock on through promises, so a
        // queue of statements ran back to back in one microtask chain: the event loop accepted no
        // connection for up to half a second. Every `yieldEveryMs` the next statement waits for
        // the loop to turn once (decision 167).
        if (performance.now() - turnAt > yieldEveryMs) {
          await new Promise<void>((resolve) => setImmediate(resolve));
          turnAt = performance.now();
        }
        const started = performance.now();
        try {
          return await run();
        } finally {
          timer?.(performance.now() - started);
        }
      }),
    );
  };
  return {
    kind: 'pglite',
    db,
    poolSize: 1,
    ping: () => liveness.ping(),
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
      liveness.forget();
      if (!client.closed) await client.close();
      await lock?.release();
    },
  };
}
