/**
 * Issue 13's throughput rows: requests per second that an authenticated read sustains, each beside a
 * bare Fastify route doing the same number of primary-key selects through the same driver and pool,
 * measured in the same run (this machine is shared and noisy: the ratio is the figure):
 * - `GET projects/{id}/` (its unit and task counts are stored counters) against one select, goal
 *   ≥ 50 % of it;
 * - `GET tasks/{id}/` against ten sequential selects, the reference; the issue measured
 *   265 req/s against 1,113 for it (0.24×), and asks for twice that (≥ 0.48×);
 * - `GET health/` (one `select 1`) as the floor of the app with the database.
 * The app listens on a port like `npm start` (logger off) and autocannon drives it from a worker
 * thread, one route at a time, after a second of warm-up. Each route and its reference are measured
 * in turn, `BENCH_ROUNDS` times (default 5); a row gives the medians of the rounds and the median of
 * the rounds' ratios with their range. The project holds `BENCH_UNITS` units
 * (default 10,000) × 20 stages, so a count over its units would show.
 *
 * Env: BENCH_DATABASE_URL (else PGlite), BENCH_UNITS, BENCH_SECONDS (default 3 per route and round),
 * BENCH_ROUNDS (default 5), BENCH_CONNECTIONS (default 10). Run: `npm run bench -- throughput`.
 */
import { pathToFileURL } from 'node:url';
import autocannon from 'autocannon';
import { sql } from 'drizzle-orm';
import Fastify from 'fastify';
import { buildApp } from '../packages/server/src/app';
import { countStatements } from '../packages/server/src/db';
import { rowsOf } from '../packages/server/src/features/tasks';
import { config, openBenchDatabase, print, seedWorkspace, thousands } from './support/seed';

const Units = Number(process.env.BENCH_UNITS ?? 10_000);
const Seconds = Number(process.env.BENCH_SECONDS ?? 3);
const Rounds = Number(process.env.BENCH_ROUNDS ?? 5);
const Connections = Number(process.env.BENCH_CONNECTIONS ?? 10);

/** Requests per second (mean) and latency p50 / p99 of `url` for `seconds`; throws on any error. */
async function load(url: string, headers: Record<string, string>, seconds = Seconds) {
  const result = await autocannon({ url, connections: Connections, duration: seconds, headers, workers: 1 });
  const failed = result.errors + result.timeouts + result.non2xx;
  if (failed > 0) throw new Error(`${url}: ${failed} failed requests of ${result.requests.total}`);
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99 };
}

export default async function run(): Promise<void> {
  const { database, label, cleanup } = await openBenchDatabase();
  const app = await buildApp({ config, database, logger: false });
  const bare = Fastify();
  const db = database.db;
  try {
    const { meHeaders, project, pipelineOf, batch } = await seedWorkspace(app, db);
    const pipeline = await pipelineOf('Throughput', 20);
    for (let done = 0; done < Units; done += 1000) await batch(pipeline.id, Math.min(1000, Units - done));
    const [task] = await rowsOf<{ id: number }>(
      db,
      sql`select id from tasks where pipeline_id = ${pipeline.id} limit 1`,
    );

    // The reference: the same driver and pool, one route, `n` primary-key selects one after another.
    bare.get<{ Params: { n: string } }>('/ref/:n/', async (request) => {
      let row: unknown;
      for (let i = 0; i < Number(request.params.n); i++)
        [row] = await rowsOf(db, sql`select id, name, workspace_id from projects where id = ${project.id}`);
      return row;
    });
    const base = await app.listen({ host: '127.0.0.1', port: 0 });
    const bareBase = await bare.listen({ host: '127.0.0.1', port: 0 });
    const headers = { authorization: meHeaders.authorization };
    const paths = { project: `/api/projects/${project.id}/`, task: `/api/tasks/${task!.id}/` };
    const routes = { project: base + paths.project, task: base + paths.task, health: `${base}/api/health/` };
    await load(routes.project, headers, 1);
    await load(`${bareBase}/ref/1/`, {}, 1);
    type Load = Awaited<ReturnType<typeof load>>;
    const rounds: { project: Load; ref1: Load; task: Load; ref10: Load; health: Load }[] = [];
    for (let round = 0; round < Rounds; round++) {
      rounds.push({
        project: await load(routes.project, headers),
        ref1: await load(`${bareBase}/ref/1/`, {}),
        task: await load(routes.task, headers),
        ref10: await load(`${bareBase}/ref/10/`, {}),
        health: await load(routes.health, {}),
      });
    }
    // Statements of one request with the session known (as under load), through inject so they count;
    // after the loads, because counting turns on async context tracking, which `npm start` never does.
    const statements = async (url: string) => {
      await app.inject({ method: 'GET', url, headers });
      return (await countStatements(() => app.inject({ method: 'GET', url, headers }))).statements;
    };
    const counted = { project: await statements(paths.project), task: await statements(paths.task) };

    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
    /** Medians over the rounds: requests per second and latencies of `key`. */
    const medianOf = (key: keyof (typeof rounds)[number]) => ({
      rps: median(rounds.map((round) => round[key].rps)),
      p50: median(rounds.map((round) => round[key].p50)),
      p99: median(rounds.map((round) => round[key].p99)),
    });
    const row = (name: string, key: 'project' | 'task', ref: 'ref1' | 'ref10', goal: string) => {
      const m = medianOf(key);
      const ratios = rounds.map((round) => round[key].rps / round[ref].rps);
      const range = `${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}`;
      return `| ${name} | ${thousands(Math.round(m.rps))} req/s, p50 ${m.p50} / p99 ${m.p99} ms | ${thousands(Math.round(medianOf(ref).rps))} req/s | ${median(ratios).toFixed(2)}× (${range}) | ${goal} |`;
    };
    const health = medianOf('health');
    print(
      `Database: ${label}; ${thousands(Units)} units × 20 stages in the project; ${Connections} connections (autocannon); each route then its reference for ${Seconds} s, ${Rounds} rounds: medians of the rounds, the ratio's range.\n`,
    );
    print('| route | app | same-run reference | ratio (range) | goal |');
    print('|---|---|---|---|---|');
    print(
      row(
        `\`GET projects/{id}/\` (${counted.project} statement${counted.project === 1 ? '' : 's'})`,
        'project',
        'ref1',
        '≥ 0.50× bare Fastify + 1 primary-key select',
      ),
    );
    print(
      row(
        `\`GET tasks/{id}/\` (${counted.task} statement${counted.task === 1 ? '' : 's'})`,
        'task',
        'ref10',
        '≥ 0.48× bare Fastify + 10 selects (2× the issue’s 0.24×), ≤ 3 statements',
      ),
    );
    print(
      `| \`GET health/\` (one \`select 1\`) | ${thousands(Math.round(health.rps))} req/s, p50 ${health.p50} / p99 ${health.p99} ms | — | — | — |`,
    );
  } finally {
    await bare.close();
    await app.close();
    await database.close();
    await cleanup();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await run();
