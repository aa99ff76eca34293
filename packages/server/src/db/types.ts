import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type * as schema from './schema';

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
  /** The pool's connections now (PostgreSQL; the embedded database has one and no pool). */
  poolStats?(): { total: number; idle: number; waiting: number };
  /** Throws when the database does not answer. */
  ping(): Promise<void>;
  /** Closes connections (and releases the data directory lock); safe to call twice. */
  close(): Promise<void>;
};
