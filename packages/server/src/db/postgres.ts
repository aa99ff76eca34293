import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { migrationsDir } from '../package-paths';
import * as schema from './schema';
import { createLiveness } from './liveness';
import { countStatement, statementTimer, uncounted } from './statements';
import type { Database, Db, ListenOptions } from './types';

/*
 * The PostgreSQL server's side of `openDatabase` (`DATABASE_URL`), loaded only when one is
 * configured: the embedded database's start does not pay for the driver (docs/decisions.md, 166).
 */

/** Applies the migrations not yet applied to this server's database. */
export async function migratePostgres(database: Database, folder: string = migrationsDir): Promise<void> {
  await migrate(database.db as Parameters<typeof migrate>[0], { migrationsFolder: folder });
}

const isPromise = (value: unknown): value is Promise<unknown> =>
  typeof (value as { then?: unknown } | null)?.then === 'function';

export function openPostgres(databaseUrl: string, poolSize = 10): Database {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: poolSize });
  // An idle client that loses its server must not crash the process; the next query reconnects.
  pool.on('error', () => undefined);
  const db = drizzle({ client: pool, schema }) as unknown as Db;
  const liveness = createLiveness(() => db.execute(sql`select 1`));
  // Every statement, pooled or in a transaction, goes through a client's `query`.
  pool.on('connect', (client) => {
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args) => {
      countStatement();
      const timer = statementTimer();
      const started = performance.now();
      const ran = () => timer?.(performance.now() - started);
      // The pool's own `query` passes a callback; Drizzle's transactions await the promise.
      const last = args.at(-1);
      if (typeof last === 'function') {
        const callback = last as (error: unknown, result: unknown) => void;
        return query(...args.slice(0, -1), (error: unknown, result: unknown) => {
          ran();
          if (!error) liveness.noteAnswer();
          callback(error, result);
        });
      }
      const result = query(...args);
      if (!isPromise(result)) return result;
      result.then(ran, ran);
      return liveness.answered(result);
    };
  });
  let closed = false;
  const listeners = new Set<() => Promise<void>>();
  return {
    kind: 'postgres',
    db,
    poolSize,
    ping: () => liveness.ping(),
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
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
      liveness.forget();
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
