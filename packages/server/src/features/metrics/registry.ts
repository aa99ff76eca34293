import { sql } from 'drizzle-orm';
import { collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import { rowsOf, type Database } from '../../db';

/** What the metrics read from the rest of the app when scraped; nothing is kept between scrapes. */
export type MetricsSources = {
  database: Database;
  /** API requests running and waiting in the admission queue now. */
  admission: () => { running: number; waiting: number };
  /** Live-event streams open on this process. */
  liveConnections: () => number;
  /** The job scheduler's schema (its `job` table gives each job's lag). */
  jobsSchema: string;
};

/** Request times in seconds: from a cached read (a few ms) to the slowest import (minutes). */
const durationBuckets = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/**
 * This process's metrics in Prometheus's text format (docs/operations.md, "Metrics"): one registry per
 * app, so tests and several apps in one process never mix their counts. Request times and admission
 * waits are observed as they happen; gauges read their source at each scrape, the database ones
 * with one statement each (a failed one leaves its gauge out of that scrape, not the whole answer).
 */
export function createMetrics(sources: MetricsSources) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });

  const requests = new Histogram({
    name: 'stageline_http_request_duration_seconds',
    help: 'API requests by route pattern, method and status, from arrival to the answer.',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: durationBuckets,
    registers: [registry],
  });
  const admissionWait = new Histogram({
    name: 'stageline_admission_wait_seconds',
    help: 'How long admitted API requests waited for their turn (0 for those admitted at once).',
    buckets: [0, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  });
  new Gauge({
    name: 'stageline_admission_requests',
    help: 'API requests being worked on and waiting for their turn now.',
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      const { running, waiting } = sources.admission();
      this.set({ state: 'running' }, running);
      this.set({ state: 'waiting' }, waiting);
    },
  });
  new Gauge({
    name: 'stageline_database_connections',
    help: 'Database connections of this process by state (PostgreSQL pool; the embedded database has one).',
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      const pool = sources.database.poolStats?.() ?? { total: 1, idle: 0, waiting: 0 };
      this.set({ state: 'open' }, pool.total);
      this.set({ state: 'idle' }, pool.idle);
      this.set({ state: 'waited_for' }, pool.waiting);
    },
  });
  new Gauge({
    name: 'stageline_live_connections',
    help: 'Live-event streams open on this process.',
    registers: [registry],
    collect() {
      this.set(sources.liveConnections());
    },
  });
  const db = sources.database.db;
  const webhookCount = new Gauge({
    name: 'stageline_webhook_deliveries',
    help: 'Webhook deliveries by state, all processes together.',
    labelNames: ['state'] as const,
    registers: [registry],
  });
  const webhookAge = new Gauge({
    name: 'stageline_webhook_oldest_pending_seconds',
    help: 'Age of the oldest webhook delivery still to be sent (0 when none is).',
    registers: [registry],
  });
  const jobLag = new Gauge({
    name: 'stageline_job_lag_seconds',
    help: 'Per job, how long its oldest due run has waited for a worker (0 when none waits).',
    labelNames: ['job'] as const,
    registers: [registry],
  });

  /** The gauges that need the database: read at each scrape; one failing leaves only itself out. */
  async function readDatabaseGauges(): Promise<void> {
    webhookCount.reset();
    webhookAge.reset();
    jobLag.reset();
    await Promise.all([
      rowsOf<{ status: string; n: number; oldest_pending: number | null }>(
        db,
        sql`select status, count(*)::int as n,
              extract(epoch from now() - min(created_at) filter (where status = 'pending'))::float8 as oldest_pending
            from webhook_deliveries group by status`,
      ).then((rows) => {
        for (const state of ['pending', 'succeeded', 'failed']) webhookCount.set({ state }, 0);
        webhookAge.set(0);
        for (const row of rows) {
          webhookCount.set({ state: row.status }, row.n);
          if (row.status === 'pending') webhookAge.set(Math.max(0, row.oldest_pending ?? 0));
        }
      }, ignore),
      rowsOf<{ name: string; lag: number }>(
        db,
        sql`select name, coalesce(extract(epoch from now() - min(start_after) filter (where state in ('created', 'retry') and start_after <= now())), 0)::float8 as lag
            from ${sql.identifier(sources.jobsSchema)}.job group by name`,
      ).then((rows) => {
        for (const row of rows) jobLag.set({ job: row.name }, Math.max(0, row.lag));
      }, ignore),
    ]);
  }

  return {
    registry,
    observeRequest(method: string, route: string, status: number, seconds: number): void {
      requests.observe({ method, route, status: String(status) }, seconds);
    },
    observeAdmissionWait(seconds: number): void {
      admissionWait.observe(seconds);
    },
    /** The text a scrape answers. */
    async render(): Promise<string> {
      await readDatabaseGauges();
      return registry.metrics();
    },
  };
}

export type Metrics = ReturnType<typeof createMetrics>;

/** A gauge whose statement failed (the job schema not made yet, a database gone) is left out. */
const ignore = () => undefined;
