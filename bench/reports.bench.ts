/**
 * Issue 33 item 4: a project's reports at scale (docs/reports.md), through the real app
 * (`buildApp` + inject: routing, validation, auth, SQL and serialization; no network). A pipeline of
 * `BENCH_UNITS` units × 20 stages (10,000 × 20 by default) gets two years of history written
 * straight in SQL: every task but one in five started, submitted and reviewed, one in three of those
 * rejected in round 1 and accepted in round 2 — about 900,000 history rows at the default size.
 *
 * Each report (the whole project over two years, no filter) is timed beside a plain `count(*)` of
 * the same history rows (the pipeline's tasks joined to their history) in the same round, with the
 * ratio (decision 127; issue 33's targets: each report ≤ 300 ms on PostgreSQL and ≤ 3× that count).
 * Rows give the medians of `BENCH_ROUNDS` rounds' p50 and p95.
 *
 * Env: BENCH_DATABASE_URL=postgres://… (a fresh database on that server, dropped after unless
 * BENCH_KEEP=1); otherwise PGlite in a temporary directory. BENCH_UNITS=n (default 10,000),
 * BENCH_REQUESTS=n per row and round (default 20), BENCH_ROUNDS=n (default 5).
 * Run: `npm run bench -- reports`, or alone: `node --import tsx bench/reports.bench.ts`.
 */
import { pathToFileURL } from 'node:url';
import { sql } from 'drizzle-orm';
import { buildApp, type App } from '../packages/server/src/app';
import { refreshPipelineReadiness, rowsOf } from '../packages/server/src/features/tasks';
import { config, openBenchDatabase, print, seedWorkspace, thousands, type Headers } from './support/seed';

const Stages = 20;
const Units = Number(process.env.BENCH_UNITS ?? 10_000);
const Requests = Number(process.env.BENCH_REQUESTS ?? 20);
const Rounds = Number(process.env.BENCH_ROUNDS ?? 5);
const Reports = ['burnup', 'first_pass', 'rounds', 'blocking', 'estimates'] as const;
/** The report read from the time logs, measured against a count of those logs; the others read the history. */
const fromTimeLogs = new Set<string>(['estimates']);

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
const median = (values: number[]) => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)]!;
const ms = (value: number) => value.toFixed(1);

type Latency = { p50: number; p95: number };

/** p50 and p95 (ms) of `count` sequential runs of `work`. */
async function measure(count: number, work: () => Promise<unknown>): Promise<Latency> {
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    await work();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p95: percentile(times, 95) };
}

async function report(app: App, headers: Headers, url: string): Promise<void> {
  const response = await app.inject({ method: 'GET', url, headers });
  if (response.statusCode !== 200) throw new Error(`GET ${url}: ${response.statusCode} ${response.body.slice(0, 300)}`);
}

export default async function run(): Promise<void> {
  const { database, label, cleanup } = await openBenchDatabase();
  const app = await buildApp({ config, database, logger: false });
  const db = database.db;
  try {
    const { me, reviewer, workspace, project, pipelineOf, batch, signIn } = await seedWorkspace(app, db);
    const pipeline = await pipelineOf('Reports', Stages);
    for (let done = 0; done < Units; done += 10_000) {
      await batch(pipeline.id, Math.min(10_000, Units - done), `Shot {count}-${done}`);
    }

    // Two years of history. A task's age (days before now) spreads its rows over 700 days; one in
    // five only started, one in three of the others rejected in round 1 and accepted in round 2.
    const seedStarted = performance.now();
    const day = (days: string) => sql.raw(`now() - (${days}) * interval '1 day'`);
    await db.execute(sql`
      with ts as (select id, (id * 7919) % 700 as age, id % 5 = 0 as started_only, id % 3 = 0 as rejected
        from tasks where pipeline_id = ${pipeline.id})
      insert into task_history (task_id, action, from_status, to_status, iteration, actor_id, created_at)
      select id, 'start', 'todo', 'in_progress', null::int, ${me.id}::int, ${day('age + 3')} from ts
      union all
      select id, 'submit', 'in_progress', 'review', 1, ${me.id}::int, ${day('age + 2')} from ts where not started_only
      union all
      select id, case when rejected then 'reject' else 'accept' end, 'review',
        case when rejected then 'edit' else 'done' end, 1, ${reviewer.id}::int, ${day('age + 1.5')}
        from ts where not started_only
      union all
      select id, 'submit', 'edit', 'review', 2, ${me.id}::int, ${day('age + 1')} from ts where not started_only and rejected
      union all
      select id, 'accept', 'review', 'done', 2, ${reviewer.id}::int, ${day('age')} from ts where not started_only and rejected`);
    await db.execute(sql`
      with ts as (select id, (id * 7919) % 700 as age, id % 5 = 0 as started_only, id % 3 = 0 as rejected
        from tasks where pipeline_id = ${pipeline.id})
      insert into task_iterations (task_id, number, closed, outcome, created_at, closed_at)
      select id, 1, true, case when rejected then 'edit' else 'done' end, ${day('age + 2')}, ${day('age + 1.5')}
        from ts where not started_only
      union all
      select id, 2, true, 'done', ${day('age + 1')}, ${day('age')} from ts where not started_only and rejected`);
    await db.execute(sql`update tasks set
        status = case when id % 5 = 0 then 'in_progress' else 'done' end,
        iteration_number = case when id % 5 = 0 then 0 when id % 3 = 0 then 2 else 1 end,
        created_at = now() - interval '730 days'
      where pipeline_id = ${pipeline.id}`);
    // Estimates on three tasks in four; about 500,000 time logs: up to three days per task, by
    // two people, over the same two years.
    await db.execute(sql`update tasks set estimate_hours = case when id % 4 = 0 then null else 4 + id % 9 end
      where pipeline_id = ${pipeline.id}`);
    await db.execute(sql`
      insert into time_logs (workspace_id, project_id, task_id, user_id, date, hours)
      select ${workspace.id}::int, ${project.id}::int, t.id, case when k = 2 then ${reviewer.id}::int else ${me.id}::int end,
        current_date - ((t.id * 7919) % 700 + k * 2)::int, 1 + (t.id * k) % 8
      from tasks t cross join generate_series(1, 3) k
      where t.pipeline_id = ${pipeline.id} and not (k = 3 and t.id % 2 = 0)`);
    await refreshPipelineReadiness(db, pipeline.id, new Date());
    await db.execute(sql`analyze`);
    const seedMs = performance.now() - seedStarted;
    const [history] = await rowsOf<{ n: number }>(
      db,
      sql`select count(*)::int as n from task_history h join tasks t on t.id = h.task_id where t.pipeline_id = ${pipeline.id}`,
    );
    const [logs] = await rowsOf<{ n: number }>(
      db,
      sql`select count(*)::int as n from time_logs where project_id = ${project.id}`,
    );

    const from = new Date(Date.now() - 730 * 86_400_000).toISOString().slice(0, 10);
    const url = (kind: string) => `/api/projects/${project.id}/reports/${kind}/?from=${from}`;
    // The reference: counting the same history rows, found the same way (the stages' tasks, then their history).
    const count = () =>
      db.execute(sql`select count(*) from tasks t join task_history h on h.task_id = t.id
        where t.stage_id in (select id from stages where pipeline_id = ${pipeline.id})`);
    // And for the estimates: counting the same rows it reads, the range's logs of the pipeline's tasks.
    const countLogs = () =>
      db.execute(sql`select count(*) from time_logs l join tasks t on t.id = l.task_id
        where l.project_id = ${project.id} and l.date >= ${from}::date
          and t.stage_id in (select id from stages where pipeline_id = ${pipeline.id})`);
    // A week's timesheet: my logs of one week, through the API, beside the same rows read in SQL.
    const monday = new Date(Date.now() - 14 * 86_400_000);
    monday.setUTCDate(monday.getUTCDate() - ((monday.getUTCDay() + 6) % 7));
    const weekFrom = monday.toISOString().slice(0, 10);
    const weekTo = new Date(monday.getTime() + 6 * 86_400_000).toISOString().slice(0, 10);
    const week = `/api/time/?workspace=${workspace.id}&person=${me.id}&from=${weekFrom}&to=${weekTo}`;
    const weekSql = () =>
      db.execute(sql`select l.*, t.unit_id, t.stage_id from time_logs l join tasks t on t.id = l.task_id
        where l.user_id = ${me.id} and l.date between ${weekFrom}::date and ${weekTo}::date`);
    let meHeaders = await signIn();
    for (const kind of Reports) await report(app, meHeaders, url(kind)); // warm-up
    await report(app, meHeaders, week);

    const rounds: Record<string, Latency>[] = [];
    for (let round = 0; round < Rounds; round++) {
      meHeaders = await signIn();
      const row: Record<string, Latency> = {
        count: await measure(Requests, count),
        countLogs: await measure(Requests, countLogs),
        weekSql: await measure(Requests, weekSql),
        week: await measure(Requests, () => report(app, meHeaders, week)),
      };
      for (const kind of Reports) row[kind] = await measure(Requests, () => report(app, meHeaders, url(kind)));
      rounds.push(row);
    }
    const result = (key: string): Latency => ({
      p50: median(rounds.map((r) => r[key]!.p50)),
      p95: median(rounds.map((r) => r[key]!.p95)),
    });
    const reference = result('count');
    const logsReference = result('countLogs');

    print(
      `${label}; ${thousands(Units)} units × ${Stages} stages (${thousands(Units * Stages)} tasks), ` +
        `${thousands(history!.n)} history rows and ${thousands(logs!.n)} time logs written in ${ms(seedMs / 1000)} s; ` +
        `${Requests} requests × ${Rounds} rounds, medians.`,
    );
    print('');
    print('| report (whole project, two years) | p50 / p95 | × count(*) p50 | target |');
    print('| --- | --- | --- | --- |');
    print(`| plain count(*) of the same history rows | ${ms(reference.p50)} / ${ms(reference.p95)} ms | 1.00× | — |`);
    print(
      `| plain count(*) of the same time logs (with their tasks) | ${ms(logsReference.p50)} / ${ms(logsReference.p95)} ms | 1.00× | — |`,
    );
    for (const kind of Reports) {
      const latency = result(kind);
      const base = fromTimeLogs.has(kind) ? logsReference : reference;
      print(
        `| ${kind}${fromTimeLogs.has(kind) ? ' (× the time logs count)' : ''} | ${ms(latency.p50)} / ${ms(latency.p95)} ms | ` +
          `${(latency.p50 / base.p50).toFixed(2)}× | ≤ 300 ms, ≤ 3× |`,
      );
    }
    const weekSqlLatency = result('weekSql');
    const weekLatency = result('week');
    print('');
    print("| a week's timesheet (one person) | p50 / p95 | × reference p50 | target |");
    print('| --- | --- | --- | --- |');
    print(`| the same rows in SQL | ${ms(weekSqlLatency.p50)} / ${ms(weekSqlLatency.p95)} ms | 1.00× | — |`);
    print(
      `| GET /api/time/ for the week | ${ms(weekLatency.p50)} / ${ms(weekLatency.p95)} ms | ` +
        `${(weekLatency.p50 / weekSqlLatency.p50).toFixed(2)}× | ≤ 20 ms |`,
    );
  } finally {
    await app.close();
    await database.close();
    await cleanup();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await run();
