/**
 * Issue 6 item 5: units and the task engine at scale, through the real app (`buildApp` + inject, so
 * routing, validation, auth, SQL and serialization are all measured; no network). Reports:
 * batch-create 1,000 units in a 20-stage pipeline; one page (50 rows) of the matrix of 10,000 units ×
 * 20 stages; an accept (review action); My work for a user with 1,000 tasks. Targets on a PostgreSQL
 * server: batch ≤ 1 s, matrix p95 ≤ 100 ms, review action p95 ≤ 20 ms, My work p95 ≤ 50 ms.
 *
 * Memory (issue 13, item 5): the process's peak RSS through seeding and reading the whole matrix, and
 * at the end, beside the peak of a child process that opens the same kind of database, empty, and
 * builds the same app (`--baseline`).
 *
 * Latency rows are measured in `BENCH_ROUNDS` rounds (default 5), each row beside its reference in
 * the same round; a row gives the medians of the rounds' p50 and p95 (issue 13: medians of 5 runs).
 *
 * Env: BENCH_DATABASE_URL=postgres://… (a server: a fresh database is created on it and dropped at
 * the end, unless BENCH_KEEP=1); otherwise PGlite in a temporary directory. BENCH_REQUESTS=n
 * requests per row and round (default 100); BENCH_ROUNDS=n (default 5); BENCH_UNITS=n units in the
 * matrix pipeline (default 10,000).
 * Run: `npm run bench -- tasks`, or alone: `node --import tsx bench/tasks.bench.ts`.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { eq, inArray, sql, type SQL } from 'drizzle-orm';
import Fastify from 'fastify';
import { buildApp, type App } from '../packages/server/src/app';
import { countStatements, schema } from '../packages/server/src/db';
import { writeCursor } from '../packages/server/src/http/cursor';
import { refreshPipelineReadiness, rowsOf } from '../packages/server/src/features/tasks';
import {
  call,
  config,
  openBenchDatabase,
  password,
  print,
  seedWorkspace,
  thousands,
  type Headers,
} from './support/seed';
import { ensureBuilt, peakRssOf, startServer } from './support/server';

const Stages = 20;
const Requests = Number(process.env.BENCH_REQUESTS ?? 100);
const Rounds = Number(process.env.BENCH_ROUNDS ?? 5);
/** Units of the matrix pipeline (`BENCH_UNITS`, default 10,000): docs/benchmarks.md's table runs 1k, 10k and 50k. */
const MatrixUnits = Number(process.env.BENCH_UNITS ?? 10_000);

/**
 * The process's peak resident memory so far, in MB (the kernel's high-water mark, `VmHWM`). Not
 * `process.resourceUsage().maxRSS`: Linux carries that across `exec` from the forked parent, so the
 * baseline child reported the bench's own size at the moment it was started.
 */
const peakRssMb = () => peakRssOf(process.pid);

/**
 * The baseline for the peak: a child process (same Node flags) that opens a fresh database of the
 * same kind, builds the app, answers one signed-out request and reports its own peak, in MB.
 */
async function baselineRssMb(): Promise<number> {
  const { stdout } = await promisify(execFile)(process.execPath, [
    ...process.execArgv,
    fileURLToPath(import.meta.url),
    '--baseline',
  ]);
  return Number(/baseline-rss-mb (\d+(\.\d+)?)/.exec(stdout)?.[1] ?? Number.NaN);
}

async function baseline(): Promise<void> {
  const { database, cleanup } = await openBenchDatabase();
  const app = await buildApp({ config, database, logger: false });
  try {
    await app.inject({ method: 'GET', url: '/api/health/' });
    print(`baseline-rss-mb ${(await peakRssMb()).toFixed(0)}`);
  } finally {
    await app.close();
    await database.close();
    await cleanup();
  }
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
const ms = (value: number) => value.toFixed(1);
const median = (values: number[]) => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)]!;

type Latency = { p50: number; p95: number };

/**
 * Rows measured in `Rounds` rounds: `round(i)` measures every row once (a route and its reference
 * side by side); the result holds, per row, the medians of the rounds' p50 and p95, and the rest of
 * the first round's figures (statement counts).
 */
async function inRounds<T extends Record<string, Latency>>(round: (index: number) => Promise<T>): Promise<T> {
  const results: T[] = [];
  for (let index = 0; index < Rounds; index++) results.push(await round(index));
  const first = results[0]!;
  return Object.fromEntries(
    Object.keys(first).map((key) => [
      key,
      {
        ...first[key],
        p50: median(results.map((result) => result[key]!.p50)),
        p95: median(results.map((result) => result[key]!.p95)),
      },
    ]),
  ) as T;
}

/** Latencies (ms) of `count` sequential requests built by `url(i)`. */
async function measure(
  app: App,
  headers: Headers,
  count: number,
  request: (i: number) => { method: 'GET' | 'POST'; url: string; payload?: object },
) {
  const times: number[] = [];
  let statements = 0;
  for (let i = 0; i < count; i++) {
    const { method, url, payload } = request(i);
    const started = performance.now();
    // The statements of one request, counted by the driver wrappers: the last, since the first after a
    // long pause (seeding 50,000 units) also re-checks the session, which is known for 30 s (docs/security.md).
    const { result: response, statements: sent } = await countStatements(() =>
      app.inject({ method, url, headers, payload }),
    );
    times.push(performance.now() - started);
    if (i === count - 1) statements = sent;
    if (response.statusCode >= 300)
      throw new Error(`${method} ${url}: ${response.statusCode} ${response.body.slice(0, 300)}`);
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p95: percentile(times, 95), statements };
}

/** Latencies (ms) of `count` sequential runs of a plain statement: a reference for the rows a route reads. */
async function measureSql(count: number, statement: () => Promise<unknown>) {
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    await statement();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p95: percentile(times, 95) };
}

export default async function run(): Promise<void> {
  const { database, label, cleanup, serverEnv } = await openBenchDatabase();
  const app = await buildApp({ config, database, logger: false });
  const db = database.db;
  let closed = false;
  try {
    const { me, reviewer, meHeaders, reviewerHeaders, pipelineOf, batch } = await seedWorkspace(app, db);
    ensureBuilt();

    // 1. Batch create: 1,000 units × 20 stages, three times (fresh pipelines), median.
    const batchTimes: number[] = [];
    for (let i = 0; i < 3; i++) {
      const pipeline = await pipelineOf(`Batch ${i}`, Stages);
      const started = performance.now();
      await batch(pipeline.id, 1000);
      batchTimes.push(performance.now() - started);
    }
    batchTimes.sort((a, b) => a - b);

    // 2. The matrix: `BENCH_UNITS` units × 20 stages (200,000 tasks by default), mixed statuses, some due dates.
    const matrix = await pipelineOf('Matrix', Stages);
    const seedStarted = performance.now();
    for (let done = 0; done < MatrixUnits; done += 10_000) {
      await batch(matrix.id, Math.min(10_000, MatrixUnits - done), `Shot {count}-${done}`);
    }
    const seedMs = performance.now() - seedStarted;
    await db.execute(sql`update tasks set use_stage_defaults = false,
        due_date = '2030-01-01'::timestamptz + (id % 997) * interval '1 hour'
      where pipeline_id = ${matrix.id} and id % 3 = 0`);
    await db.execute(sql`update tasks set status = (array['todo','in_progress','review','edit','done'])[1 + (id % 5)]
      where stage_id in (select id from stages where pipeline_id = ${matrix.id})`);
    // Statuses set by hand: readiness follows them as the engine's own changes would have it.
    await refreshPipelineReadiness(db, matrix.id, new Date());
    await db.execute(sql`analyze`);
    const pages = Math.floor(MatrixUnits / 50);
    // Cursors of pages spread over the pipeline as the offsets below are (key paging: decision 125).
    const matrixCursors: string[] = [];
    for (let k = 0; k < 20; k++) {
      const [row] = await rowsOf<{ name: string; id: number }>(
        db,
        sql`select name, id from units where pipeline_id = ${matrix.id} order by name, id
          offset ${((k * 37) % pages) * 50} limit 1`,
      );
      matrixCursors.push(writeCursor([row!.name, row!.id]));
    }
    const { matrixPlain, matrixKeyed, matrixFiltered } = await inRounds(async (round) => ({
      matrixPlain: await measure(app, meHeaders, Requests, (i) => ({
        method: 'GET',
        url: `/api/units/matrix/?pipeline=${matrix.id}&limit=50&offset=${(((round * Requests + i) * 37) % pages) * 50}`,
      })),
      matrixKeyed: await measure(app, meHeaders, Requests, (i) => ({
        method: 'GET',
        url: `/api/units/matrix/?pipeline=${matrix.id}&limit=50&after=${matrixCursors[(round + i) % 20]}`,
      })),
      matrixFiltered: await measure(app, meHeaders, Math.ceil(Requests / 2), (i) => ({
        method: 'GET',
        url: `/api/units/matrix/?pipeline=${matrix.id}&limit=50&status=review&sort=-name&offset=${(i % 20) * 50}`,
      })),
    }));

    // 2b. The whole matrix at once (issue 13 item 1), beside the same rows read by one plain query
    // through the same driver, and beside the 100 pages of 100 the screen used to load.
    const timed = async (work: () => Promise<unknown>) => {
      const started = performance.now();
      await work();
      return performance.now() - started;
    };
    const wholeUrl = `/api/units/matrix/whole/?pipeline=${matrix.id}`;
    const wholeTimes: number[] = [];
    const rawTimes: number[] = [];
    const pagedTimes: number[] = [];
    let wholeBytes = 0;
    let wholeGzip = 0;
    for (let i = 0; i < 5; i++) {
      wholeTimes.push(
        await timed(async () => {
          const response = await app.inject({ method: 'GET', url: wholeUrl, headers: meHeaders });
          wholeBytes = response.rawPayload.length;
        }),
      );
    }
    // The peak so far: seeding and reading the whole matrix (the plain query's 200,000 row objects,
    // read next, are the reference's, not the app's).
    const seededPeakMb = await peakRssMb();
    for (let i = 0; i < 5; i++) {
      rawTimes.push(
        await timed(() =>
          db.execute(sql`select t.id, t.unit_id, t.stage_id, t.status, t.due_date, t.ready_at, t.use_stage_defaults
            from tasks t join units u on u.id = t.unit_id where u.pipeline_id = ${matrix.id}`),
        ),
      );
    }
    const zipped = await app.inject({
      method: 'GET',
      url: wholeUrl,
      headers: { ...meHeaders, 'accept-encoding': 'gzip' },
    });
    wholeGzip = zipped.rawPayload.length;
    for (let i = 0; i < 3; i++) {
      pagedTimes.push(
        await timed(async () => {
          for (let offset = 0; offset < MatrixUnits; offset += 100)
            await call(app, meHeaders, 'GET', `/api/units/matrix/?pipeline=${matrix.id}&limit=100&offset=${offset}`);
        }),
      );
    }

    // 2c. A pipeline's tasks, a page of 50 (issue 13 item 3): the first page, and a page after a cursor
    // half-way down (key paging), each beside node-pg reading the same 50 rows in the same order.
    const keyAt = async (position: number) => {
      const [row] = await rowsOf<{ due: Date | string | null; id: number }>(
        db,
        sql`select effective_due as due, id from tasks where pipeline_id = ${matrix.id}
          order by coalesce(effective_due, 'infinity'::timestamptz), id offset ${position} limit 1`,
      );
      const due = row!.due === null ? null : new Date(row!.due).toISOString();
      return { cursor: writeCursor([due, row!.id]), due, id: row!.id };
    };
    const middle = await keyAt(Math.floor((MatrixUnits * Stages) / 2));
    const plainPage = (after: SQL) =>
      measureSql(Requests, () =>
        db.execute(sql`select t.id, t.status, t.effective_due, t.unit_id, t.stage_id from tasks t
          where t.pipeline_id = ${matrix.id}${after}
          order by coalesce(t.effective_due, 'infinity'::timestamptz), t.id limit 50`),
      );
    const { taskPage, taskPageRef, taskKeyPage, taskKeyPageRef } = await inRounds(async () => ({
      taskPage: await measure(app, meHeaders, Requests, () => ({
        method: 'GET',
        url: `/api/tasks/?pipeline=${matrix.id}&limit=50`,
      })),
      taskPageRef: await plainPage(sql``),
      taskKeyPage: await measure(app, meHeaders, Requests, () => ({
        method: 'GET',
        url: `/api/tasks/?pipeline=${matrix.id}&limit=50&after=${middle.cursor}`,
      })),
      taskKeyPageRef: await plainPage(
        sql` and (coalesce(t.effective_due, 'infinity'::timestamptz), t.id) > (${middle.due ?? 'infinity'}::timestamptz, ${middle.id}::integer)`,
      ),
    }));

    // 3. My work: "me" is the default assignee of every stage of a 20-stage pipeline with 50 units.
    const mine = await pipelineOf('Mine', Stages, { default_assignees: [me.id] });
    await batch(mine.id, 50, 'Mine {count}');
    const myWorkCount = (await call<{ count: number }>(app, meHeaders, 'GET', '/api/tasks/?assignee=me&limit=1')).count;
    // Its reference: node-pg reading a page's 50 rows by primary key.
    const myIds = (
      await call<{ results: { id: number }[] }>(app, meHeaders, 'GET', '/api/tasks/?assignee=me&limit=50')
    ).results.map((task) => task.id);
    const { myWork, myWorkRef } = await inRounds(async () => ({
      myWork: await measure(app, meHeaders, Requests, (i) => ({
        method: 'GET',
        url: `/api/tasks/?assignee=me&limit=50&offset=${(i % 20) * 50}`,
      })),
      myWorkRef: await measureSql(Requests, () =>
        db.execute(sql`select t.id, t.status, t.effective_due, t.unit_id, t.stage_id from tasks t
          where t.id in (${sql.join(
            myIds.map((id) => sql`${id}`),
            sql`, `,
          )})`),
      ),
    }));

    // 4. Review actions: each round, fresh tasks in review with two reviewers (each_immediate), one
    // submit, accept and reject each, and a read. The reference (issue 13, item 6): a bare Fastify
    // route, through inject as well, sending as many primary-key selects one after another.
    const bare = Fastify();
    bare.get<{ Params: { id: string; n: string } }>('/ref/:n/:id', async (request) => {
      const id = Number(request.params.id);
      for (let k = 0; k < Number(request.params.n); k++) {
        await db.execute(sql`select id, status from tasks where id = ${id}`);
      }
      return { id };
    });
    const reference = (n: number, taskIds: number[]) =>
      measure(bare, {} as Headers, taskIds.length, (i) => ({ method: 'GET', url: `/ref/${n}/${taskIds[i]}` }));
    /** The statements each action sent in the first round, for its reference in every round. */
    const sentBy = { read: 0, submit: 0, accept: 0, reject: 0 };
    const actions = await inRounds(async (round) => {
      const review = await pipelineOf(`Review ${round}`, 1, { default_reviewers: [me.id, reviewer.id] });
      const units = await batch(review.id, Requests, 'Review {count}');
      const taskIds = (
        await db
          .select({ id: schema.tasks.id })
          .from(schema.tasks)
          .where(
            inArray(
              schema.tasks.unitId,
              units.units.map((u) => u.id),
            ),
          )
      ).map((r) => r.id);
      await db.update(schema.tasks).set({ status: 'in_progress' }).where(eq(schema.tasks.stageId, review.stages[0]!));
      const submit = await measure(app, meHeaders, taskIds.length, (i) => ({
        method: 'POST',
        url: `/api/tasks/${taskIds[i]}/submit/`,
      }));
      const accept = await measure(app, reviewerHeaders, taskIds.length, (i) => ({
        method: 'POST',
        url: `/api/tasks/${taskIds[i]}/accept/`,
        payload: { comment: 'ok' },
      }));
      const reject = await measure(app, meHeaders, taskIds.length, (i) => ({
        method: 'POST',
        url: `/api/tasks/${taskIds[i]}/reject/`,
        payload: {},
      }));
      const read = await measure(app, meHeaders, taskIds.length, (i) => ({
        method: 'GET',
        url: `/api/tasks/${taskIds[i]}/`,
      }));
      if (round === 0)
        Object.assign(sentBy, {
          read: read.statements,
          submit: submit.statements,
          accept: accept.statements,
          reject: reject.statements,
        });
      return {
        submit,
        accept,
        reject,
        read,
        refRead: await reference(sentBy.read, taskIds),
        refSubmit: await reference(sentBy.submit, taskIds),
        refAccept: await reference(sentBy.accept, taskIds),
        refReject: await reference(sentBy.reject, taskIds),
      };
    });
    const { submit, accept, reject, read } = actions;
    await bare.close();

    const endPeakMb = await peakRssMb();
    const baseMb = await baselineRssMb();

    // 5. What `npm start` holds (issue 13, item 5): the built server, in a process of its own, on this
    // same database, reading the whole matrix five times and twenty pages of 100 through HTTP.
    await app.close();
    await database.close();
    closed = true;
    const server = await startServer(serverEnv);
    let builtPeakMb: number;
    try {
      const login = await fetch(`${server.url}/api/users/login/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: me.username, password }),
      });
      const { access } = (await login.json()) as { access: string };
      const read = async (path: string) => {
        // As a browser asks (Node's fetch alone asks for gzip and deflate): the answer comes in brotli.
        const response = await fetch(`${server.url}${path}`, {
          headers: { authorization: `Bearer ${access}`, 'accept-encoding': 'gzip, deflate, br, zstd' },
        });
        if (!response.ok) throw new Error(`${path}: ${response.status}`);
        await response.arrayBuffer();
      };
      for (let i = 0; i < 5; i++) await read(wholeUrl);
      for (let offset = 0; offset < 2000; offset += 100)
        await read(`/api/units/matrix/?pipeline=${matrix.id}&limit=100&offset=${offset}`);
      builtPeakMb = await peakRssOf(server.child.pid!);
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
    }

    print(
      `Database: ${label}; ${Requests} sequential requests per latency row and round (app.inject, no network); p50 and p95 are medians of ${Rounds} rounds.\n`,
    );
    print('| measure | result | target (PostgreSQL) |');
    print('|---|---|---|');
    print(`| batch-create 1,000 units × 20 stages (median of 3) | ${ms(batchTimes[1]!)} ms | ≤ 1,000 ms |`);
    print(`| batch-create ${thousands(MatrixUnits)} units × 20 stages (seeding the matrix) | ${ms(seedMs)} ms | — |`);
    print(
      `| matrix page (50 of ${thousands(MatrixUnits)} units × 20 stages) p50 / p95 | ${ms(matrixPlain.p50)} / ${ms(matrixPlain.p95)} ms; ${matrixPlain.statements} statements | p95 ≤ 100 ms, ≤ 3 statements, the same at any size |`,
    );
    print(
      `| the same by key, after cursors spread over the pipeline p50 / p95 | ${ms(matrixKeyed.p50)} / ${ms(matrixKeyed.p95)} ms; ${matrixKeyed.statements} statements | the same at any size |`,
    );
    print(
      `| matrix page filtered (status=review, sort=-name) p50 / p95 | ${ms(matrixFiltered.p50)} / ${ms(matrixFiltered.p95)} ms | — |`,
    );
    const wholeMs = median(wholeTimes);
    const rawMs = median(rawTimes);
    print(
      `| whole matrix, ${thousands(MatrixUnits)} units × 20 stages (median of 5) | ${ms(wholeMs)} ms; ${(wholeBytes / 1e6).toFixed(1)} MB, gzip ${(wholeGzip / 1e6).toFixed(1)} MB | ≤ 1.0× the plain query: ${ms(rawMs)} ms (${(wholeMs / rawMs).toFixed(2)}×) |`,
    );
    print(
      `| the same as 100 pages of 100 (median of 3) | ${ms(median(pagedTimes))} ms | the whole call: ${(median(pagedTimes) / wholeMs).toFixed(1)}× slower |`,
    );
    // Each figure with its statements and the bare route's p50 for as many primary-key selects.
    const sent = (m: { p50: number; statements: number }, ref: Latency) => {
      const n = m.statements;
      const plural = n === 1 ? '' : 's';
      return `; ${n} statement${plural}; bare Fastify + ${n} select${plural} p50 ${ms(ref.p50)} ms (${(m.p50 / ref.p50).toFixed(1)}×)`;
    };
    print(
      `| task read p50 / p95 | ${ms(read.p50)} / ${ms(read.p95)} ms${sent(read, actions.refRead)} | ≤ 3 statements |`,
    );
    print(
      `| review action: accept p50 / p95 | ${ms(accept.p50)} / ${ms(accept.p95)} ms${sent(accept, actions.refAccept)} | p95 ≤ 20 ms, ≤ 10 statements |`,
    );
    print(
      `| review action: reject p50 / p95 | ${ms(reject.p50)} / ${ms(reject.p95)} ms${sent(reject, actions.refReject)} | p95 ≤ 20 ms, ≤ 10 statements |`,
    );
    print(
      `| submit p50 / p95 | ${ms(submit.p50)} / ${ms(submit.p95)} ms${sent(submit, actions.refSubmit)} | ≤ 10 statements |`,
    );
    /** A figure beside node-pg reading the same rows: their p50s and the ratio. */
    const versus = (m: { p50: number }, ref: { p50: number }) =>
      `; node-pg, the same rows: p50 ${ms(ref.p50)} ms (${(m.p50 / ref.p50).toFixed(1)}×)`;
    print(
      `| My work (${myWorkCount} tasks, page of 50) p50 / p95 | ${ms(myWork.p50)} / ${ms(myWork.p95)} ms${versus(myWork, myWorkRef)} | p95 ≤ 30 ms |`,
    );
    print(
      `| a pipeline's tasks (${thousands(MatrixUnits * Stages)}), first page of 50 p50 / p95 | ${ms(taskPage.p50)} / ${ms(taskPage.p95)} ms; ${taskPage.statements} statements${versus(taskPage, taskPageRef)} | the same at 50k units as at 1k |`,
    );
    print(
      `| the same, a page by key half-way down p50 / p95 | ${ms(taskKeyPage.p50)} / ${ms(taskKeyPage.p95)} ms${versus(taskKeyPage, taskKeyPageRef)} | — |`,
    );
    // Memory: this process's peak beside an empty database's, same kind, same app, same Node flags.
    const againstBase = (mb: number) =>
      `${mb.toFixed(0)} MB; empty database ${baseMb.toFixed(0)} MB (${(mb / baseMb).toFixed(2)}×)`;
    print(
      `| peak RSS through seeding and the whole matrix (${thousands(MatrixUnits * Stages)} tasks) | ${againstBase(seededPeakMb)} | ≤ 400 MB (PGlite) |`,
    );
    print(
      `| peak RSS at the end (the plain query's ${thousands(MatrixUnits * Stages)} row objects included) | ${againstBase(endPeakMb)} | — |`,
    );
    print(
      `| peak RSS of the built server (\`npm start\`) on these ${thousands(MatrixUnits * Stages)} tasks, 5 whole matrices and 20 pages read | ${builtPeakMb.toFixed(0)} MB | ≤ 400 MB (PGlite) |`,
    );
  } finally {
    if (!closed) {
      await app.close();
      await database.close();
    }
    await cleanup();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  if (process.argv.includes('--baseline')) await baseline();
  else await run();
}
