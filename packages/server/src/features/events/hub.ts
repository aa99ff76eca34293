import { and, asc, gt, inArray, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { schema, type Database, type Db } from '../../db';
import { EventsChannel } from './publish';

export type EventRow = typeof schema.events.$inferSelect;

/** One open stream of one user: the hub hands it the rows addressed to that user. */
export type Sink = { userId: number; deliver(row: EventRow): void };

export type HubOptions = {
  /**
   * How long a missing id holds back later events (a transaction that took its id earlier may still
   * commit); after it, the gap is passed over and a late row is still delivered when it comes.
   */
  gapHoldMs?: number;
  log?: FastifyBaseLogger;
  /**
   * Told of the channel's other payloads (not event ids), such as `session:<id>` when a session
   * ends (docs/security.md): one LISTEN per process serves both.
   */
  onSignal?: (payload: string) => void;
  /**
   * Told when listening starts or starts again (true) and when the connection is lost (false):
   * payloads sent while it was down are lost.
   */
  onListening?: (up: boolean) => void;
};

const batchSize = 500;
/** Passed-over ids are remembered this long, so a transaction that commits late is still delivered. */
const lateWindowMs = 5 * 60 * 1000;

/**
 * The per-process hub of live events. Every server process LISTENs on `stageline_events`; a NOTIFY
 * (sent by `publish` inside the change's transaction, so only on commit) carries the new row's id.
 * The hub reads rows past its cursor in id order, in batches, and fans each out: a user's row to
 * that user's open streams, a workspace's row to the open streams of users who are members at that
 * moment (checked here, so a removed member stops receiving at once).
 *
 * Ids are taken when a row is inserted, but transactions commit in any order: id 11 may commit
 * before id 10. The hub delivers in id order: a missing id holds later rows back for `gapHoldMs`,
 * then is passed over (a rolled-back transaction never fills it); if that row commits later after
 * all, its NOTIFY brings it and it is delivered then. So a stream's ids only go up, and a client
 * resuming from the last id it saw misses nothing that committed within the hold.
 */
export class EventHub {
  private readonly db: Db;
  private readonly sinks = new Map<number, Set<Sink>>();
  /** Every id up to here was delivered or passed over. */
  private cursor = 0;
  private gapSince: number | null = null;
  private gapTimer: NodeJS.Timeout | undefined;
  /** Ids passed over in a gap, with when; a NOTIFY of one of them delivers it late. */
  private readonly passedOver = new Map<number, number>();
  private readonly late = new Set<number>();
  private draining: Promise<void> | null = null;
  private again = false;
  private stopListening: (() => Promise<void>) | undefined;
  private closed = false;
  private readonly gapHoldMs: number;
  private readonly log: FastifyBaseLogger | undefined;
  private readonly onSignal: ((payload: string) => void) | undefined;
  private readonly onListening: ((up: boolean) => void) | undefined;

  constructor(
    private readonly database: Database,
    options: HubOptions = {},
  ) {
    this.db = database.db;
    this.gapHoldMs = options.gapHoldMs ?? 2000;
    this.log = options.log;
    this.onSignal = options.onSignal;
    this.onListening = options.onListening;
  }

  /** Listens first (a NOTIFY sent before would be missed), then starts after the newest row. */
  async start(): Promise<void> {
    this.stopListening = await this.database.listen(EventsChannel, (payload) => this.notified(payload), {
      onReconnect: () => {
        this.log?.info('live events: listening again, catching up');
        this.onListening?.(true);
        this.poke();
      },
      onLost: () => this.onListening?.(false),
    });
    this.onListening?.(true);
    this.cursor = await this.newestId();
  }

  async close(): Promise<void> {
    this.closed = true;
    this.onListening?.(false);
    if (this.gapTimer) clearTimeout(this.gapTimer);
    await this.draining;
    await this.stopListening?.();
  }

  /** The id of the newest row the hub has passed: where a fresh stream starts. */
  get position(): number {
    return this.cursor;
  }

  /** Streams open on this process now (the metrics read it). */
  get connections(): number {
    let count = 0;
    for (const set of this.sinks.values()) count += set.size;
    return count;
  }

  /** Registers an open stream; the answer removes it. */
  subscribe(sink: Sink): () => void {
    let set = this.sinks.get(sink.userId);
    if (!set) this.sinks.set(sink.userId, (set = new Set()));
    set.add(sink);
    return () => {
      set.delete(sink);
      if (set.size === 0 && this.sinks.get(sink.userId) === set) this.sinks.delete(sink.userId);
    };
  }

  private async newestId(): Promise<number> {
    const [row] = await this.db.select({ id: sql<string | null>`max(${schema.events.id})` }).from(schema.events);
    return Number(row?.id ?? 0);
  }

  private notified(payload: string): void {
    if (!/^\d+$/.test(payload)) {
      this.onSignal?.(payload);
      return;
    }
    const id = Number(payload);
    if (Number.isSafeInteger(id) && id <= this.cursor && this.passedOver.has(id)) this.late.add(id);
    this.poke();
  }

  /** Runs a catch-up, or asks the running one to go again (NOTIFYs arrive in bursts). */
  private poke(): void {
    if (this.closed) return;
    if (this.draining) {
      this.again = true;
      return;
    }
    this.draining = (async () => {
      do {
        this.again = false;
        try {
          await this.catchUp();
        } catch (error) {
          this.log?.error({ err: error }, 'live events: catching up failed');
        }
      } while (this.again && !this.closed);
    })().finally(() => {
      this.draining = null;
    });
  }

  private async catchUp(): Promise<void> {
    if (this.late.size > 0) {
      const ids = [...this.late];
      this.late.clear();
      for (const id of ids) this.passedOver.delete(id);
      const rows = await this.db
        .select()
        .from(schema.events)
        .where(inArray(schema.events.id, ids))
        .orderBy(asc(schema.events.id));
      await this.dispatch(rows);
    }
    for (;;) {
      const rows = await this.db
        .select()
        .from(schema.events)
        .where(gt(schema.events.id, this.cursor))
        .orderBy(asc(schema.events.id))
        .limit(batchSize);
      const ready: EventRow[] = [];
      let blocked = false;
      for (const row of rows) {
        if (row.id !== this.cursor + 1) {
          const now = Date.now();
          this.gapSince ??= now;
          if (now - this.gapSince < this.gapHoldMs) {
            blocked = true;
            break;
          }
          // The gap is old enough: pass over it, remembering the ids in case they commit late.
          if (row.id - this.cursor < 10_000)
            for (let id = this.cursor + 1; id < row.id; id++) this.passedOver.set(id, now);
        }
        this.gapSince = null;
        this.cursor = row.id;
        ready.push(row);
      }
      await this.dispatch(ready);
      if (blocked) {
        this.scheduleGapCheck();
        break;
      }
      if (rows.length < batchSize) break;
    }
    this.forgetOldGaps();
  }

  private scheduleGapCheck(): void {
    if (this.gapTimer || this.gapSince === null) return;
    const wait = Math.max(0, this.gapSince + this.gapHoldMs - Date.now()) + 5;
    this.gapTimer = setTimeout(() => {
      this.gapTimer = undefined;
      this.poke();
    }, wait);
    this.gapTimer.unref();
  }

  private forgetOldGaps(): void {
    const limit = Date.now() - lateWindowMs;
    for (const [id, when] of this.passedOver) if (when < limit) this.passedOver.delete(id);
  }

  /** Hands rows to the streams of their audience; workspace audiences are checked against memberships now. */
  private async dispatch(rows: EventRow[]): Promise<void> {
    if (rows.length === 0 || this.sinks.size === 0) return;
    const connected = [...this.sinks.keys()];
    const workspaceIds = [
      ...new Set(rows.flatMap((r) => (r.userId === null && r.workspaceId !== null ? [r.workspaceId] : []))),
    ];
    const members = new Map<number, number[]>();
    if (workspaceIds.length > 0) {
      const found = await this.db
        .select({ workspaceId: schema.memberships.workspaceId, userId: schema.memberships.userId })
        .from(schema.memberships)
        .where(
          and(inArray(schema.memberships.workspaceId, workspaceIds), inArray(schema.memberships.userId, connected)),
        );
      for (const m of found) members.set(m.workspaceId, [...(members.get(m.workspaceId) ?? []), m.userId]);
    }
    for (const row of rows) {
      const audience = row.userId !== null ? [row.userId] : (members.get(row.workspaceId ?? -1) ?? []);
      for (const userId of audience) {
        for (const sink of this.sinks.get(userId) ?? []) {
          try {
            sink.deliver(row);
          } catch (error) {
            this.log?.warn({ err: error }, 'live events: a stream refused an event');
          }
        }
      }
    }
  }
}
