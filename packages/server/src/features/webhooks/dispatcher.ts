import { createHmac } from 'node:crypto';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { WebhookMaxAttempts } from '@stageline/shared';
import { rowsOf, schema, type Database, type Db } from '../../db';
import { WebhooksChannel } from '../events';
import { postJson } from './target';

/** Seconds from one failed try of a delivery to the next: 8 tries over about 22 hours. */
export const defaultBackoffSeconds = [60, 300, 900, 3600, 3 * 3600, 6 * 3600, 12 * 3600];
/** A webhook whose deliveries all failed for this long is turned off. */
const disableAfterMs = 24 * 3_600_000;
/** A claimed delivery is this process's for this long (far more than the 10 s a try may take). */
const leaseSeconds = 60;
const batch = 10;

export type DispatcherOptions = {
  allowPrivate: boolean;
  log?: FastifyBaseLogger;
  timeoutMs?: number;
  /** Tests shorten the waits between tries. */
  backoffSeconds?: number[];
  /**
   * Tells the workspace's admins that a webhook was turned off, in that change's transaction (the
   * app passes the notifications feature's `notify`; webhooks do not depend on it).
   */
  onTurnedOff?: (tx: Db, turnedOff: { workspaceId: number; url: string; admins: number[] }) => Promise<unknown>;
};

type Claimed = {
  id: number;
  webhook_id: number;
  event: string;
  data: unknown;
  attempts: number;
  created_at: string | Date;
  url: string;
  secret: string;
  workspace_id: number;
  active: boolean;
};

/** `sha256=<hex HMAC-SHA256 of the raw body with the webhook's secret>`. */
export function signature(secret: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

/** The JSON a receiver gets: the event, this delivery's id, when, which workspace, and the data. */
export function deliveryBody(row: Pick<Claimed, 'id' | 'event' | 'data' | 'created_at' | 'workspace_id'>): string {
  return JSON.stringify({
    event: row.event,
    delivery: String(row.id),
    created_at: new Date(row.created_at).toISOString(),
    workspace: row.workspace_id,
    data: row.data,
  });
}

/**
 * Sends queued webhook deliveries (docs/integrations.md). Every process runs one: woken by the
 * NOTIFY of a committed change, by a timer for the next retry, and by the minute job of the
 * scheduler. A delivery is claimed with `FOR UPDATE SKIP LOCKED` and a lease, so of several
 * processes exactly one sends it; a try that fails or answers non-2xx is retried after the backoff,
 * up to 8 tries; a webhook failing for a day is turned off and its workspace's admins are told.
 */
export class WebhookDispatcher {
  private readonly db: Db;
  private running: Promise<void> | null = null;
  private again = false;
  private timer: NodeJS.Timeout | undefined;
  private stopListening: (() => Promise<void>) | undefined;
  private closed = false;
  private readonly backoff: number[];

  constructor(
    private readonly database: Database,
    private readonly options: DispatcherOptions,
  ) {
    this.db = database.db;
    this.backoff = options.backoffSeconds ?? defaultBackoffSeconds;
  }

  async start(): Promise<void> {
    // A database that cannot listen now (gone, restarting) is not fatal: the scheduler's minute job
    // and the retry timer still wake the dispatcher.
    try {
      this.stopListening = await this.database.listen(WebhooksChannel, () => void this.wake());
    } catch (error) {
      this.options.log?.warn({ err: error }, 'webhook dispatcher could not listen for commits');
      return;
    }
    void this.wake();
  }

  async stop(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    await this.stopListening?.();
    await this.running;
  }

  /** Sends what is due now (again once more if woken meanwhile); resolves when done. */
  wake(): Promise<void> {
    if (this.closed) return Promise.resolve();
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      do {
        this.again = false;
        while (!this.closed && (await this.sendBatch()) > 0) {
          // keep going while there is work
        }
      } while (this.again && !this.closed);
    })()
      .catch((error: unknown) => this.options.log?.error({ err: error }, 'webhook dispatch failed'))
      .finally(() => {
        this.running = null;
        void this.scheduleNext();
      });
    return this.running;
  }

  /** A timer for the next retry due (at most a minute away: the scheduler's job covers the rest). */
  private async scheduleNext(): Promise<void> {
    if (this.closed) return;
    const [next] = await rowsOf<{ wait_ms: number | null }>(
      this.db,
      sql`select (extract(epoch from (min(next_attempt_at) - now())) * 1000)::int as wait_ms
          from webhook_deliveries where status = 'pending'`,
    ).catch(() => [{ wait_ms: null }]);
    if (this.timer) clearTimeout(this.timer);
    if (next?.wait_ms === null || next?.wait_ms === undefined || this.closed) return;
    this.timer = setTimeout(() => void this.wake(), Math.min(60_000, Math.max(20, next.wait_ms + 20)));
    this.timer.unref();
  }

  /** Claims and sends one batch of due deliveries; answers how many. */
  private async sendBatch(): Promise<number> {
    const claimed = await rowsOf<Claimed>(
      this.db,
      sql`
      update webhook_deliveries d
        set locked_until = now() + make_interval(secs => ${leaseSeconds})
      from webhooks w
      where w.id = d.webhook_id and d.id in (
        select id from webhook_deliveries
        where status = 'pending' and next_attempt_at <= now() and (locked_until is null or locked_until < now())
        order by next_attempt_at, id
        limit ${batch}
        for update skip locked
      )
      returning d.id, d.webhook_id, d.event, d.data, d.attempts, d.created_at, w.url, w.secret, w.workspace_id, w.active`,
    );
    await Promise.all(claimed.map((row) => this.send({ ...row, id: Number(row.id) })));
    return claimed.length;
  }

  private async send(row: Claimed): Promise<void> {
    const deliveries = schema.webhookDeliveries;
    if (!row.active) {
      await this.db
        .update(deliveries)
        .set({ status: 'failed', error: 'The webhook is off.', lockedUntil: null, nextAttemptAt: null })
        .where(eq(deliveries.id, row.id));
      return;
    }
    const body = deliveryBody(row);
    const outcome = await postJson(
      row.url,
      body,
      {
        'user-agent': 'Stageline-Webhooks/1',
        'x-stageline-event': row.event,
        'x-stageline-delivery': String(row.id),
        'x-stageline-signature': signature(row.secret, body),
      },
      { allowPrivate: this.options.allowPrivate, timeoutMs: this.options.timeoutMs ?? 10_000 },
    );
    const attempts = row.attempts + 1;
    const common = {
      attempts,
      lastAttemptAt: new Date(),
      responseStatus: outcome.status,
      durationMs: outcome.durationMs,
      responseExcerpt: outcome.body,
      lockedUntil: null,
    };
    if (outcome.ok) {
      await this.db
        .update(deliveries)
        .set({ ...common, status: 'succeeded', error: null, nextAttemptAt: null })
        .where(eq(deliveries.id, row.id));
      await this.db.update(schema.webhooks).set({ failingSince: null }).where(eq(schema.webhooks.id, row.webhook_id));
      return;
    }
    const last = attempts >= WebhookMaxAttempts;
    const wait = this.backoff[Math.min(attempts - 1, this.backoff.length - 1)]!;
    await this.db
      .update(deliveries)
      .set({
        ...common,
        status: last ? 'failed' : 'pending',
        error: outcome.error,
        nextAttemptAt: last ? null : new Date(Date.now() + wait * 1000),
      })
      .where(eq(deliveries.id, row.id));
    this.options.log?.info(
      { webhook: row.webhook_id, delivery: row.id, attempts, error: outcome.error },
      'webhook try failed',
    );
    await this.noteFailure(row);
  }

  /** Starts or continues a failure streak; a day of it turns the webhook off and tells the admins. */
  private async noteFailure(row: Claimed): Promise<void> {
    const webhooks = schema.webhooks;
    const [hook] = await this.db
      .update(webhooks)
      .set({ failingSince: sql`coalesce(${webhooks.failingSince}, now())` })
      .where(eq(webhooks.id, row.webhook_id))
      .returning({ failingSince: webhooks.failingSince, active: webhooks.active });
    if (!hook?.active || !hook.failingSince || Date.now() - hook.failingSince.getTime() < disableAfterMs) return;
    await this.db.transaction(async (tx) => {
      const [off] = await tx
        .update(webhooks)
        .set({ active: false, disabledReason: 'Turned off after a day of failed deliveries.' })
        .where(and(eq(webhooks.id, row.webhook_id), eq(webhooks.active, true)))
        .returning({ id: webhooks.id });
      if (!off) return;
      const admins = await tx
        .select({ userId: schema.memberships.userId })
        .from(schema.memberships)
        .where(
          and(
            eq(schema.memberships.workspaceId, row.workspace_id),
            inArray(schema.memberships.role, ['admin', 'owner']),
          ),
        );
      await this.options.onTurnedOff?.(tx, {
        workspaceId: row.workspace_id,
        url: row.url,
        admins: admins.map((admin) => admin.userId),
      });
    });
    this.options.log?.warn({ webhook: row.webhook_id, url: row.url }, 'webhook turned off after a day of failures');
  }
}
