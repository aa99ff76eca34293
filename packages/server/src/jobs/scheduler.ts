import type { PGlite } from '@electric-sql/pglite';
import type { FastifyBaseLogger } from 'fastify';
import type PgBoss from 'pg-boss';
import type pg from 'pg';
import type { Database } from '../db';

/**
 * A recurring or on-demand job. `cron` (UTC, five fields) schedules it; without one it runs only
 * when sent. The handler gets the job's data; a throw is logged and the run is failed (pg-boss
 * retries it `retryLimit` times, none by default: the next scheduled run picks the work up).
 */
export type JobDefinition<T extends object = object> = {
  name: string;
  cron?: string;
  retryLimit?: number;
  /** Seconds between retries. */
  retryDelaySeconds?: number;
  /** How long a run may take before pg-boss counts it as failed (15 minutes by default). */
  expireInSeconds?: number;
  handler: (data: T) => Promise<unknown>;
};

export type Scheduler = {
  /** The pg-boss instance, once `start` began (tests read schedules through it). */
  readonly boss: PgBoss;
  /** Creates the schema and queues, installs the schedules and starts the workers. */
  start(): Promise<void>;
  /** Sends one run of a job now; resolves with the job id. */
  send(name: string, data?: object): Promise<string | null>;
  /** Stops taking jobs and waits (up to `timeoutMs`) for the ones running. Safe to call twice. */
  stop(timeoutMs?: number): Promise<void>;
};

/** The pg-boss schema, beside the app's tables. */
export const jobsSchema = 'pgboss';

/**
 * pg-boss's database adapter over the one PGlite connection of the embedded database. pg-boss sends
 * its schema and its locked maintenance as multi-statement scripts without parameters: PGlite runs
 * those through `exec` (the simple protocol), and parameterised statements through `query`.
 */
export function pgliteAdapter(client: PGlite): PgBoss.Db {
  return {
    async executeSql(text, values) {
      if (!values || values.length === 0) {
        const results = await client.exec(text);
        return { rows: results.at(-1)?.rows ?? [] };
      }
      return client.query(text, values);
    },
  };
}

/**
 * The connection of pg-boss: on PostgreSQL its own small pool on the app's database (so job polling
 * never waits behind requests for a connection); on PGlite the app's single connection, in-process.
 */
function connectionOf(database: Database): PgBoss.ConstructorOptions {
  const client = (database.db as unknown as { $client: unknown }).$client;
  if (database.kind === 'pglite') return { db: pgliteAdapter(client as PGlite) };
  const { connectionString } = (client as pg.Pool & { options: pg.PoolConfig }).options;
  if (!connectionString) throw new Error('The job scheduler needs the PostgreSQL connection string of the app.');
  return { connectionString, max: 2, application_name: 'stageline-jobs' };
}

/**
 * The durable job scheduler (pg-boss 10): schedules live in the database, so with several server
 * processes on one PostgreSQL each cron tick sends ONE job that one process takes; the jobs
 * themselves must still be idempotent (a digest claims its period in `digest_runs`). Failures are
 * logged and never crash the process.
 */
export function createScheduler({
  database,
  jobs,
  log,
  pollingIntervalSeconds = 2,
}: {
  database: Database;
  jobs: JobDefinition<never>[];
  log: FastifyBaseLogger;
  /** How often a worker looks for jobs (tests lower it). */
  pollingIntervalSeconds?: number;
}): Scheduler {
  let instance: PgBoss | undefined;
  const bossOf = () => {
    if (!instance) throw new Error('The job scheduler has not started.');
    return instance;
  };
  let started = false;
  let stopping: Promise<void> | undefined;

  return {
    get boss() {
      return bossOf();
    },
    async start() {
      // pg-boss (and its cron parser) is loaded here, not when the server starts: the scheduler
      // starts after the server answers (docs/decisions.md, entry 152).
      const { default: PgBossClass } = await import('pg-boss');
      const boss = new PgBossClass({
        ...connectionOf(database),
        schema: jobsSchema,
        // Finished jobs are kept a week for inspection, then deleted by pg-boss's own maintenance.
        deleteAfterDays: 7,
        retryLimit: 0,
      });
      boss.on('error', (error) => log.error({ err: error }, 'job scheduler error'));
      instance = boss;
      await boss.start();
      started = true;
      for (const job of jobs) {
        const queue = {
          name: job.name,
          retryLimit: job.retryLimit ?? 0,
          retryDelay: job.retryDelaySeconds ?? 0,
          expireInSeconds: job.expireInSeconds ?? 15 * 60,
        };
        await boss.createQueue(job.name, queue); // a no-op when it exists…
        await boss.updateQueue(job.name, queue); // …so its retry settings follow the code
        await boss.work<object>(job.name, { pollingIntervalSeconds, batchSize: 1 }, async ([item]) => {
          if (!item) return;
          const startedAt = Date.now();
          try {
            const result = await job.handler(item.data as never);
            log.info({ job: job.name, jobId: item.id, ms: Date.now() - startedAt, result }, 'job done');
            return result;
          } catch (error) {
            log.error({ err: error, job: job.name, jobId: item.id }, 'job failed');
            throw error;
          }
        });
        if (job.cron) await boss.schedule(job.name, job.cron, {}, { tz: 'UTC' });
        else await boss.unschedule(job.name);
      }
      log.info({ jobs: jobs.map((job) => job.name) }, 'job scheduler started');
    },
    send: (name, data = {}) => bossOf().send(name, data),
    stop(timeoutMs = 10_000) {
      if (!started) return Promise.resolve();
      stopping ??= bossOf()
        .stop({ graceful: true, wait: true, timeout: timeoutMs })
        .catch((error: unknown) => {
          log.error({ err: error }, 'job scheduler did not stop cleanly');
        });
      return stopping;
    },
  };
}
