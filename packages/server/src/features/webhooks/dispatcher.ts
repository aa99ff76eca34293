import { createHmac } from 'node:crypto';
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { Limits, WebhookMaxAttempts } from '@stageline/shared';
import { rowsOf, schema, type Database, type Db } from '../../db';
import { WebhooksChannel } from '../events';
import { postJson } from './target';

/** Seconds from one failed try of a delivery to the next: 8 tries over about 22 hours. */
export const defaultBackoffSeconds = [60, 300, 900, 3600, 3 * 3600, 6 * 3600, 12 * 3600];
/** A webhook whose deliveries all failed for this long is turned off. */
const disableAfterMs = 24 * 3_600_000;
/** A claimed delivery is this process's for this long (far more than the 10 s a try may take). */
const leaseSeconds = 60;

/**
 * How many tries may be under way at once (docs/decisions.md, 146): one webhook's receiver, one
 * workspace's, and this process's sockets. A receiver that never answers holds at most its
 * webhook's share for the timeout, and a workspace never more than its own, so the others' tries
 * still find free places.
 */
export const DefaultConcurrency = { perWebhook: 2, perWorkspace: 10, perProcess: 100 } as const;

/** Whom to tell about a webhook the server stopped: its workspace's admins, by notification. */
export type TellAdmins = (
  tx: Db,
  told: { kind: 'webhook_disabled' | 'webhook_paused'; workspaceId: number; url: string; admins: number[] },
) => Promise<unknown>;

export type DispatcherOptions = {
  allowPrivate: boolean;
  log?: FastifyBaseLogger;
  /** How long one try waits for an answer (10 s; tests shorten it). */
  timeoutMs?: number;
  /** Tests shorten the waits between tries. */
  backoffSeconds?: number[];
  /** Tries under way at once (`DefaultConcurrency`); tests lower them. */
  concurrency?: Partial<typeof DefaultConcurrency>;
  /**
   * Tells the workspace's admins that a webhook was turned off or paused, in that change's
   * transaction (the app passes the notifications feature's `notify`; webhooks do not depend on it).
   */
  tellAdmins?: TellAdmins;
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
  previous_secret: string | null;
  previous_secret_until: string | Date | null;
  workspace_id: number;
  active: boolean;
};

/** The HMAC key of a `whsec_<base64>` secret (Standard Webhooks): the bytes the base64 encodes. */
const keyOf = (secret: string) => Buffer.from(secret.replace(/^whsec_/, ''), 'base64');

/**
 * The `webhook-signature` of Standard Webhooks (standardwebhooks.com): `v1,<base64 HMAC-SHA256 of
 * "<id>.<timestamp>.<body>">`, one per secret that signs, separated by spaces (after a rotation the
 * new secret's and, during the overlap, the previous one's).
 */
export function signature(secrets: string[], id: string, timestamp: number, body: string): string {
  return secrets
    .map((secret) => `v1,${createHmac('sha256', keyOf(secret)).update(`${id}.${timestamp}.${body}`).digest('base64')}`)
    .join(' ');
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
 * NOTIFY of a committed change, by the end of each of its tries, by a timer for the next retry, and
 * by the minute job of the scheduler. Deliveries are claimed with `FOR UPDATE SKIP LOCKED` and a
 * lease, so of several processes exactly one sends each; each webhook's oldest due ones, round-robin
 * across webhooks, within `DefaultConcurrency` (counted from the leases, so across processes too),
 * and each try runs on its own: a slow receiver holds only its own places. A try that fails or
 * answers non-2xx is retried after the backoff, up to 8 tries; a webhook failing
 * `Limits.webhooks.pauseAfterFailures` tries in a row is paused, one failing for a day is turned
 * off, and its workspace's admins are told either way.
 */
export class WebhookDispatcher {
  private readonly db: Db;
  private running: Promise<void> | null = null;
  private again = false;
  private timer: NodeJS.Timeout | undefined;
  private stopListening: (() => Promise<void>) | undefined;
  private closed = false;
  private readonly backoff: number[];
  private readonly concurrency: typeof DefaultConcurrency;
  private readonly sending = new Set<Promise<void>>();

  constructor(
    private readonly database: Database,
    private readonly options: DispatcherOptions,
  ) {
    this.db = database.db;
    this.backoff = options.backoffSeconds ?? defaultBackoffSeconds;
    this.concurrency = { ...DefaultConcurrency, ...options.concurrency };
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

  /** Stops claiming; resolves once the tries under way have ended (each within its timeout). */
  async stop(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    await this.stopListening?.();
    await this.running;
    await Promise.all([...this.sending]);
  }

  /**
   * Claims what is due now and starts its tries (again once more if woken meanwhile); resolves when
   * the claiming is done, not the tries: each runs on its own and wakes the dispatcher as it ends.
   */
  wake(): Promise<void> {
    if (this.closed) return Promise.resolve();
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      do {
        this.again = false;
        await this.fill();
      } while (this.again && !this.closed);
    })()
      .catch((error: unknown) => this.options.log?.error({ err: error }, 'webhook dispatch failed'))
      .finally(() => {
        this.running = null;
        void this.scheduleNext();
      });
    return this.running;
  }

  /** Claims due deliveries while this process has free places, and starts their tries. */
  private async fill(): Promise<void> {
    while (!this.closed) {
      const free = this.concurrency.perProcess - this.sending.size;
      if (free <= 0) return;
      const claimed = await this.claim(free);
      for (const row of claimed) this.track(this.send({ ...row, id: Number(row.id) }));
      if (claimed.length < free) return;
    }
  }

  private track(sending: Promise<void>): void {
    const tracked: Promise<void> = sending
      .catch((error: unknown) => this.options.log?.error({ err: error }, 'webhook try failed to record'))
      .finally(() => {
        this.sending.delete(tracked);
        void this.wake();
      });
    this.sending.add(tracked);
  }

  /**
   * A timer for the next retry or lease end (at most a minute away: the scheduler's job covers the
   * rest). Deliveries due now but held back by a busy webhook are claimed when one of its tries ends.
   */
  private async scheduleNext(): Promise<void> {
    if (this.closed) return;
    const [next] = await rowsOf<{ wait_ms: number | null }>(
      this.db,
      sql`select (extract(epoch from (min(greatest(d.next_attempt_at, d.locked_until)) - now())) * 1000)::int as wait_ms
          from webhook_deliveries d join webhooks w on w.id = d.webhook_id
          where d.status = 'pending' and w.paused_at is null
            and greatest(d.next_attempt_at, d.locked_until) > now()`,
    ).catch(() => [{ wait_ms: null }]);
    if (this.timer) clearTimeout(this.timer);
    if (next?.wait_ms === null || next?.wait_ms === undefined || this.closed) return;
    this.timer = setTimeout(() => void this.wake(), Math.min(60_000, Math.max(20, next.wait_ms + 20)));
    this.timer.unref();
  }

  /**
   * Leases up to `limit` due deliveries, in ONE statement: at most the two oldest of each webhook
   * that is not paused, less its tries under way (leases not yet ended, of any process), and per
   * workspace less its own; first every webhook's oldest, then their second (round-robin), the
   * workspaces with the fewest tries under way first.
   */
  private async claim(limit: number): Promise<Claimed[]> {
    const { perWebhook, perWorkspace } = this.concurrency;
    return rowsOf<Claimed>(
      this.db,
      sql`
      with busy as (
        select d.webhook_id, count(*)::int as n
        from webhook_deliveries d
        where d.status = 'pending' and d.locked_until >= now()
        group by d.webhook_id
      ),
      hooks as (
        select w.id, w.workspace_id, coalesce(b.n, 0) as busy,
          sum(coalesce(b.n, 0)) over (partition by w.workspace_id) as workspace_busy
        from webhooks w left join busy b on b.webhook_id = w.id
        where w.paused_at is null
      ),
      candidates as (
        select c.id, h.workspace_id, h.workspace_busy, c.turn, c.next_attempt_at,
          row_number() over (partition by h.workspace_id order by c.turn, c.next_attempt_at, c.id) as in_workspace
        from hooks h
        cross join lateral (
          select d.id, d.next_attempt_at, row_number() over (order by d.next_attempt_at, d.id) as turn
          from webhook_deliveries d
          where d.webhook_id = h.id and d.status = 'pending' and d.next_attempt_at <= now()
            and (d.locked_until is null or d.locked_until < now())
          order by d.next_attempt_at, d.id
          limit greatest(${perWebhook} - h.busy, 0)
        ) c
      ),
      picked as (
        select id from candidates
        where in_workspace <= ${perWorkspace} - workspace_busy
        order by turn, workspace_busy, next_attempt_at, id
        limit ${limit}
      ),
      locked as (
        select id from webhook_deliveries
        where id in (select id from picked) and status = 'pending'
          and (locked_until is null or locked_until < now())
        for update skip locked
      )
      update webhook_deliveries d
        set locked_until = now() + make_interval(secs => ${leaseSeconds})
      from webhooks w
      where w.id = d.webhook_id and d.id in (select id from locked)
      returning d.id, d.webhook_id, d.event, d.data, d.attempts, d.created_at, w.url, w.secret,
        w.previous_secret, w.previous_secret_until, w.workspace_id, w.active`,
    );
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
    const id = String(row.id);
    const timestamp = Math.floor(Date.now() / 1000);
    const overlapping =
      row.previous_secret && row.previous_secret_until && new Date(row.previous_secret_until).getTime() > Date.now();
    const secrets = overlapping ? [row.secret, row.previous_secret!] : [row.secret];
    const outcome = await postJson(
      row.url,
      body,
      {
        'user-agent': 'Stageline-Webhooks/1',
        'webhook-id': id,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': signature(secrets, id, timestamp, body),
        'x-stageline-event': row.event,
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
      await this.db.transaction(async (tx) => {
        await tx
          .update(deliveries)
          .set({ ...common, status: 'succeeded', error: null, nextAttemptAt: null })
          .where(eq(deliveries.id, row.id));
        await tx
          .update(schema.webhooks)
          .set({ failingSince: null, failures: 0 })
          .where(eq(schema.webhooks.id, row.webhook_id));
      });
      return;
    }
    const last = attempts >= WebhookMaxAttempts;
    const wait = this.backoff[Math.min(attempts - 1, this.backoff.length - 1)]!;
    // One transaction: the lease ends only with the failure counted, so no new try of a webhook
    // starts between its last failure and its pause.
    const stopped = await this.db.transaction(async (tx) => {
      await tx
        .update(deliveries)
        .set({
          ...common,
          status: last ? 'failed' : 'pending',
          error: outcome.error,
          nextAttemptAt: last ? null : new Date(Date.now() + wait * 1000),
        })
        .where(eq(deliveries.id, row.id));
      return this.noteFailure(tx, row);
    });
    this.options.log?.info(
      { webhook: row.webhook_id, delivery: row.id, attempts, error: outcome.error },
      'webhook try failed',
    );
    if (stopped) this.options.log?.warn({ webhook: row.webhook_id, url: row.url }, `webhook ${stopped}`);
  }

  /**
   * Counts a failed try: `pauseAfterFailures` in a row pause the webhook, a day of failures turns it
   * off; either way its workspace's admins are told, in the same transaction. Answers what happened.
   */
  private async noteFailure(tx: Db, row: Claimed): Promise<string | null> {
    const webhooks = schema.webhooks;
    const [hook] = await tx
      .update(webhooks)
      .set({ failingSince: sql`coalesce(${webhooks.failingSince}, now())`, failures: sql`${webhooks.failures} + 1` })
      .where(eq(webhooks.id, row.webhook_id))
      .returning({
        failingSince: webhooks.failingSince,
        active: webhooks.active,
        failures: webhooks.failures,
        pausedAt: webhooks.pausedAt,
      });
    if (!hook?.active) return null;
    if (hook.failingSince && Date.now() - hook.failingSince.getTime() >= disableAfterMs) {
      await tx
        .update(webhooks)
        .set({ active: false, disabledReason: 'Turned off after a day of failed deliveries.' })
        .where(eq(webhooks.id, row.webhook_id));
      await this.tellAdmins(tx, row, 'webhook_disabled');
      return 'turned off after a day of failures';
    }
    if (hook.failures >= Limits.webhooks.pauseAfterFailures && !hook.pausedAt) {
      await tx
        .update(webhooks)
        .set({ pausedAt: sql`now()` })
        .where(and(eq(webhooks.id, row.webhook_id), isNull(webhooks.pausedAt)));
      await this.tellAdmins(tx, row, 'webhook_paused');
      return 'paused after failed tries in a row';
    }
    return null;
  }

  private async tellAdmins(tx: Db, row: Claimed, kind: 'webhook_disabled' | 'webhook_paused'): Promise<void> {
    const admins = await tx
      .select({ userId: schema.memberships.userId })
      .from(schema.memberships)
      .where(
        and(eq(schema.memberships.workspaceId, row.workspace_id), inArray(schema.memberships.role, ['admin', 'owner'])),
      );
    await this.options.tellAdmins?.(tx, {
      kind,
      workspaceId: row.workspace_id,
      url: row.url,
      admins: admins.map((admin) => admin.userId),
    });
  }
}
