import type { PGlite } from '@electric-sql/pglite';
import { eq, sql } from 'drizzle-orm';
import pino from 'pino';
import PgBoss from 'pg-boss';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildApp } from '../app';
import { openDatabase, rowsOf, schema, type Database } from '../db';
import { runDigests } from '../features/digests';
import { createTestDatabase, testConfig, type TestApp } from '../../test/helpers';
import { startMailbox, type Mailbox } from '../../test/mailbox';
import { buildNotification, digestContext, setEmailFrequency } from '../../test/notifications';
import { buildUser } from '../../test/workspaces';
import { digestJobName, pruneEventsJob } from './jobs';
import { createScheduler, jobsSchema, pgliteAdapter } from './scheduler';

const silent = pino({ level: 'silent' });
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
if (!onPostgres) {
  // eslint-disable-next-line no-console -- the skip must say why
  console.info('jobs.test.ts: the two-instance test needs TEST_DATABASE_URL (PGlite is one process, one connection).');
}

/** A time zone whose wall clock reads 07:xx at this moment (zones cover every UTC hour). */
function zoneAtSevenNow(): string {
  const hour = (zone: string) =>
    Number(new Intl.DateTimeFormat('en-GB', { timeZone: zone, hour: '2-digit', hourCycle: 'h23' }).format(new Date()));
  const zone = Intl.supportedValuesOf('timeZone').find((candidate) => hour(candidate) === 7);
  if (!zone) throw new Error('no time zone is at 07:00 now');
  return zone;
}

/** Another pg-boss client on the same database, as a second process would be: it only sends. */
async function sender(database: Database): Promise<PgBoss> {
  const client = (database.db as unknown as { $client: PGlite | (pg.Pool & { options: pg.PoolConfig }) }).$client;
  const connection =
    database.kind === 'pglite'
      ? { db: pgliteAdapter(client as PGlite) }
      : { connectionString: (client as pg.Pool & { options: pg.PoolConfig }).options.connectionString, max: 1 };
  const boss = new PgBoss({ ...connection, schema: jobsSchema, supervise: false, schedule: false, migrate: false });
  boss.on('error', () => undefined);
  await boss.start();
  return boss;
}

describe('the scheduler (pg-boss)', () => {
  let database: Database;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database?.close();
  });

  test(`starts on ${onPostgres ? 'PostgreSQL' : 'PGlite (in-process, through the adapter)'}, runs sent jobs, survives a failing one`, async () => {
    const seen: object[] = [];
    let failures = 0;
    let wake: () => void = () => undefined;
    const scheduler = createScheduler({
      database,
      log: silent,
      pollingIntervalSeconds: 0.5,
      jobs: [
        {
          name: 'echo',
          handler: async (data: object) => {
            seen.push(data);
            wake();
          },
        },
        {
          name: 'boom',
          handler: async () => {
            failures += 1;
            throw new Error('boom');
          },
        },
        { name: 'nightly', cron: '0 3 * * *', handler: async () => undefined },
      ],
    });
    await scheduler.start();
    try {
      const done = new Promise<void>((resolve) => (wake = resolve));
      await scheduler.send('boom', {});
      await scheduler.send('echo', { hello: 'world' });
      await done;
      expect(seen).toEqual([{ hello: 'world' }]);
      const schedules = await scheduler.boss.getSchedules();
      expect(schedules.map((s) => [s.name, s.cron])).toEqual([['nightly', '0 3 * * *']]);
      // The failed job is recorded as failed (after its run), and the process is still here.
      for (let i = 0; i < 40 && failures === 0; i++) await new Promise((r) => setTimeout(r, 100));
      expect(failures).toBe(1);
    } finally {
      await scheduler.stop();
    }
    await scheduler.stop(); // twice is fine
  });
});

describe('the app with jobs: true', () => {
  let mailbox: Mailbox;
  let database: Database;
  beforeAll(async () => {
    mailbox = await startMailbox();
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database?.close();
    await mailbox?.close();
  });

  test('schedules the digests and the pruning, runs a digest sent to its queue, stops on close', async () => {
    const config = testConfig({ smtpUrl: mailbox.url });
    const app = await buildApp({ config, database, jobs: true });
    const t: TestApp = { app, database, config, close: () => app.close() };
    const boss = await sender(database);
    try {
      // pg-boss's rows carry the time zone, which its type leaves out.
      const schedules = (await boss.getSchedules()) as (PgBoss.Schedule & { timezone: string })[];
      expect(Object.fromEntries(schedules.map((s) => [s.name, [s.cron, s.timezone]]))).toEqual({
        'digest-hourly': ['0 * * * *', 'UTC'],
        'digest-daily': ['*/15 * * * *', 'UTC'],
        'digest-weekly': ['*/15 * * * *', 'UTC'],
        'prune-events': ['30 * * * *', 'UTC'],
        webhooks: ['* * * * *', 'UTC'],
        'sweep-files': ['* * * * *', 'UTC'],
      });

      const user = await buildUser(t, { firstName: 'Cy' });
      await setEmailFrequency(t, user, 'daily');
      // Daily digests go out in the hour after 07:00 on the user's clock: put Cy where that is now.
      await database.db.update(schema.users).set({ timeZone: zoneAtSevenNow() }).where(eq(schema.users.id, user.id));
      await buildNotification(t, { user, kind: 'invited' });
      const old = new Date(Date.now() - 25 * 3_600_000);
      await database.db.insert(schema.events).values([
        { userId: user.id, type: 'notification', payload: {}, createdAt: old },
        { userId: user.id, type: 'notification', payload: {} },
      ]);

      await boss.send(digestJobName('daily'), {});
      await boss.send(pruneEventsJob, {});
      const mail = await mailbox.waitFor(user.email, () => true, 15_000);
      expect(mail.subject).toBe('Stageline: 1 new notification');
      for (let i = 0; i < 50; i++) {
        const rows = await database.db.select({ id: schema.events.id }).from(schema.events);
        if (rows.length === 1) break;
        await new Promise((r) => setTimeout(r, 200));
      }
      expect(await database.db.select({ id: schema.events.id }).from(schema.events)).toHaveLength(1);
    } finally {
      await boss.stop({ graceful: false, close: true });
      await app.close();
    }
  });
});

/**
 * Two server processes on one PostgreSQL database, each with its scheduler running, both running
 * the digest of the same period at the same instant: each user still gets exactly one mail.
 */
describe.skipIf(!onPostgres)('two app instances on one PostgreSQL database', () => {
  let mailbox: Mailbox;
  let database: Database;
  let second: Database;
  beforeAll(async () => {
    mailbox = await startMailbox();
    database = await createTestDatabase();
    const url = (database.db as unknown as { $client: { options: pg.PoolConfig } }).$client.options.connectionString!;
    second = await openDatabase({ databaseUrl: url, migrate: false, poolSize: 4 });
  });
  afterAll(async () => {
    await second?.close();
    await database?.close();
    await mailbox?.close();
  });

  test('send exactly one digest per user for one period', async () => {
    const config = testConfig({ smtpUrl: mailbox.url });
    const apps = [
      await buildApp({ config, database, jobs: true }),
      await buildApp({ config, database: second, jobs: true }),
    ];
    const [a, b] = apps.map((app, i) => ({
      app,
      database: i === 0 ? database : second,
      config,
      close: () => app.close(),
    }));
    try {
      const users = [];
      for (let i = 0; i < 12; i++) {
        const user = await buildUser(a!, { firstName: `U${i}` });
        await setEmailFrequency(a!, user, 'hourly');
        await buildNotification(a!, { user, kind: 'invited' });
        await buildNotification(a!, { user, kind: 'assigned' });
        users.push(user);
      }
      const contexts = [await digestContext(a!), await digestContext(b!)];
      const boss = await sender(database);
      try {
        const now = new Date();
        const direct = contexts.flatMap((ctx) => [runDigests(ctx, 'hourly', now), runDigests(ctx, 'hourly', now)]);
        // And through the schedulers: two jobs of the same period, taken by whichever worker polls first.
        await Promise.all([boss.send(digestJobName('hourly'), {}), boss.send(digestJobName('hourly'), {})]);
        const results = await Promise.all(direct);
        const sent = results.reduce((sum, r) => sum + r.sent, 0);
        expect(results.every((r) => r.failed === 0)).toBe(true);
        for (const user of users) {
          const mail = await mailbox.waitFor(user.email);
          expect(mail.subject).toBe('Stageline: 2 new notifications');
        }
        // Give the queued jobs time to run, then make sure nobody got a second mail.
        await new Promise((r) => setTimeout(r, 5000));
        for (const user of users) expect(await mailbox.none(user.email, 0)).toBe(true);
        expect(sent).toBeLessThanOrEqual(users.length);
        const claims = await database.db.select().from(schema.digestRuns);
        expect(claims).toHaveLength(users.length);
      } finally {
        await boss.stop({ graceful: false, close: true });
        await Promise.all(contexts.map((ctx) => ctx.close()));
      }
    } finally {
      await Promise.all(apps.map((app) => app.close()));
    }
  });
});

/**
 * Issue 31, item 8: after a restart the server answers before the scheduler sets itself up, since on
 * the embedded database pg-boss's setup and the health probe share one connection (decision 152).
 */
describe("the app with jobs: 'after-listen'", () => {
  let database: Database;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database?.close();
  });

  const jobsSchemaExists = async () =>
    (
      await rowsOf<{ found: boolean }>(
        database.db,
        sql`select exists (select 1 from pg_namespace where nspname = ${jobsSchema}) as found`,
      )
    )[0]?.found;

  test('answers health while the scheduler waits to start, then starts it', async () => {
    let open: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const app = await buildApp({ config: testConfig(), database, jobs: 'after-listen', jobsStartGate: () => gate });
    try {
      const url = await app.listen({ port: 0, host: '127.0.0.1' });
      const health = await fetch(`${url}/api/health/`);
      expect(health.status).toBe(200);
      // A second later the scheduler has still not touched the database (it did at once before).
      await new Promise((r) => setTimeout(r, 1000));
      expect(await jobsSchemaExists()).toBe(false);
      expect((await fetch(`${url}/api/health/`)).status).toBe(200);

      open();
      let schedules = 0;
      for (let i = 0; i < 100 && schedules < 6; i++) {
        await new Promise((r) => setTimeout(r, 200));
        if (await jobsSchemaExists()) {
          schedules = (
            await rowsOf<{ n: number }>(database.db, sql`select count(*)::int as n from pgboss.schedule`)
          )[0]!.n;
        }
      }
      expect(schedules).toBe(6);
    } finally {
      await app.close();
    }
  });

  test('closing before the gate opens never starts the scheduler', async () => {
    let open: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const fresh = await createTestDatabase();
    const app = await buildApp({
      config: testConfig(),
      database: fresh,
      jobs: 'after-listen',
      jobsStartGate: () => gate,
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    await app.close();
    open();
    await new Promise((r) => setTimeout(r, 300));
    const [row] = await rowsOf<{ found: boolean }>(
      fresh.db,
      sql`select exists (select 1 from pg_namespace where nspname = ${jobsSchema}) as found`,
    );
    await fresh.close();
    expect(row?.found).toBe(false);
  });
});
