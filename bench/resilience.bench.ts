/**
 * Issue 12: the server under a crash and under a crowd, on the embedded database and on PostgreSQL.
 *
 * Crash: `WRITERS` clients create workspaces as fast as they are answered; after a second the server
 * is killed with SIGKILL and started again at once. Reported: acknowledged writes (answered 201)
 * that are missing after the restart (must be 0), and the time from the restart to the first
 * healthy answer of `/api/health/` (goal ≤ 2 s), over `CRASHES` rounds.
 *
 * Load: `CLIENTS` connections for `SECONDS` s (autocannon) on an authenticated list
 * (`GET /api/workspaces/`), and, as the same-run reference, on `/api/health/` (no sign-in, no
 * queue): p50, p99, requests per second, errors and non-2xx answers.
 *
 * The server is the built one (`packages/server/dist/main.js`, built first when missing), as
 * `npm start` runs it. Env: BENCH_DATABASE_URL=postgres://… adds PostgreSQL (a fresh database,
 * dropped after); BENCH_CLIENTS (200), BENCH_SECONDS (30), BENCH_WRITERS (8), BENCH_CRASHES (3).
 *
 * Attacks (issue 31): each module of `bench/attacks/` runs against a fresh server of its own. A
 * sampler asks `/api/health/` one request after another and reads the server's resident memory
 * (`VmRSS`) every 50 ms, and signs in every 500 ms: first for `IDLE_MS` with nothing else running
 * (the same-run reference), then while the attack runs. Printed: health p50 / p99 and the slowest
 * sign-in beside the idle ones, and the memory the attack added at its peak. Goals: health p99
 * < 200 ms and bounded memory under each attack (docs/security.md). BENCH_ATTACKS=a,b runs only those.
 * Run: `npm run bench -- resilience`.
 */
import { randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import autocannon from 'autocannon';
import pg from 'pg';
import { ensureBuilt, startServer, type Server } from './support/server';

const print = (line: string) => process.stdout.write(`${line}\n`);

const Clients = Number(process.env.BENCH_CLIENTS ?? 200);
const Seconds = Number(process.env.BENCH_SECONDS ?? 30);
const Writers = Number(process.env.BENCH_WRITERS ?? 8);
const Crashes = Number(process.env.BENCH_CRASHES ?? 3);
const password = 'resilience bench password';

type Target = { label: string; env: Record<string, string>; cleanup: () => Promise<void> };

async function json<T>(url: string, init: RequestInit = {}): Promise<{ status: number; body: T }> {
  const response = await fetch(url, {
    ...init,
    headers: { 'content-type': 'application/json', ...(init.headers as Record<string, string>) },
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : undefined) as T };
}

/** A verified account through the API: registers, reads the code from the dev outbox, checks it. */
async function signUp(base: string): Promise<{ authorization: string }> {
  const username = `bench${randomBytes(4).toString('hex')}`;
  const email = `${username}@example.com`;
  const registered = await json<{ ephemeral_token: string }>(`${base}/api/users/register/`, {
    method: 'POST',
    body: JSON.stringify({ username, email, password }),
  });
  const outbox = await json<{ to: string; text: string }[]>(`${base}/api/dev/outbox/`);
  const code = /\b\d{6}\b/.exec(outbox.body.find((mail) => mail.to === email)!.text)![0];
  const tokens = await json<{ access: string }>(`${base}/api/otp/check/`, {
    method: 'POST',
    body: JSON.stringify({ code, ephemeral_token: registered.body.ephemeral_token }),
  });
  return { authorization: `Bearer ${tokens.body.access}` };
}

async function signIn(base: string, username: string): Promise<{ authorization: string }> {
  const tokens = await json<{ access: string }>(`${base}/api/users/login/`, {
    method: 'POST',
    body: JSON.stringify({ username, password }),
  });
  return { authorization: `Bearer ${tokens.body.access}` };
}

/** Polls `/api/health/` until it answers 200; the ms since `since`. */
async function healthyAfter(base: string, since: number): Promise<number> {
  for (;;) {
    try {
      const response = await fetch(`${base}/api/health/`);
      if (response.ok) return performance.now() - since;
    } catch {
      // not yet
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** One crash round: writers until SIGKILL; what they were told was saved must still be there. */
async function crashRound(target: Target, server: Server, headers: { authorization: string }) {
  const acknowledged: string[] = [];
  let stop = false;
  const writer = async (n: number) => {
    for (let i = 0; !stop; i++) {
      const name = `w${n}-${i}-${randomBytes(3).toString('hex')}`;
      try {
        const response = await fetch(`${server.url}/api/workspaces/`, {
          method: 'POST',
          headers: { ...headers, 'content-type': 'application/json' },
          body: JSON.stringify({ name }),
        });
        if (response.status === 201) acknowledged.push(name);
      } catch {
        return; // the server is gone
      }
    }
  };
  const writers = Array.from({ length: Writers }, (_, n) => writer(n));
  await new Promise((resolve) => setTimeout(resolve, 1000));
  server.child.kill('SIGKILL');
  stop = true;
  await Promise.all([server.exited, ...writers]);

  const restarted = await startServer(target.env);
  const restartMs = await healthyAfter(restarted.url, restarted.startedAt);
  return { acknowledged, restarted, restartMs };
}

type LoadResult = { p50: number; p99: number; rps: number; errors: number; non2xx: number; total: number };

async function load(url: string, headers: Record<string, string> = {}): Promise<LoadResult> {
  const result = await autocannon({ url, connections: Clients, duration: Seconds, headers });
  return {
    p50: result.latency.p50,
    p99: result.latency.p99,
    rps: result.requests.average,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    total: result.requests.total,
  };
}

/** The crash rounds' writers create hundreds of workspaces as one user: lift the cap on owned ones. */
const crashEnv = { MAX_OWNED_WORKSPACES: '100000' };

async function targets(): Promise<Target[]> {
  const dir = await mkdtemp(join(tmpdir(), 'stageline-resilience-'));
  const list: Target[] = [
    {
      label: 'embedded (PGlite)',
      env: { DATA_DIR: dir, ...crashEnv },
      cleanup: () => rm(dir, { recursive: true, force: true }),
    },
  ];
  const serverUrl = process.env.BENCH_DATABASE_URL;
  if (serverUrl) {
    const name = `stageline_resilience_${randomBytes(4).toString('hex')}`;
    const admin = async (statement: string) => {
      const client = new pg.Client({ connectionString: serverUrl });
      await client.connect();
      await client.query(statement).finally(() => client.end());
    };
    await admin(`CREATE DATABASE ${name}`);
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    list.push({
      label: 'PostgreSQL',
      env: { DATABASE_URL: url.toString(), ...crashEnv },
      cleanup: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
    });
  } else {
    print('(set BENCH_DATABASE_URL=postgres://… to measure PostgreSQL too)\n');
  }
  return list;
}

/** What one module of `bench/attacks/` exports: the attack, and any server setting it needs. */
type AttackModule = {
  default: (ctx: { base: string; authorization: string }) => Promise<string>;
  serverEnv?: Record<string, string>;
};
/** Every module of `bench/attacks/`, by name. */
const Attacks = readdirSync(new URL('./attacks/', import.meta.url))
  .filter((file) => file.endsWith('.ts'))
  .map((file) => file.slice(0, -'.ts'.length));
const IdleMs = 3000;

async function rssOf(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? Number.NaN) / 1024;
}

type Samples = { health: number[]; signIns: number[]; rss: number[] };

/** Samples health, sign-in and memory until `until` settles; health and sign-in times in ms. */
async function sample(server: Server, username: string, until: Promise<unknown>): Promise<Samples> {
  const samples: Samples = { health: [], signIns: [], rss: [] };
  let done = false;
  void until.finally(() => (done = true));
  const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  const timed = async (list: number[], ask: () => Promise<Response>) => {
    const started = performance.now();
    await (await ask()).arrayBuffer();
    list.push(performance.now() - started);
  };
  await Promise.all([
    (async () => {
      while (!done) await timed(samples.health, () => fetch(`${server.url}/api/health/`));
    })(),
    (async () => {
      while (!done) {
        await timed(samples.signIns, () =>
          fetch(`${server.url}/api/users/login/`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ username, password }),
          }),
        );
        await pause(500);
      }
    })(),
    (async () => {
      while (!done) {
        samples.rss.push(await rssOf(server.child.pid!));
        await pause(50);
      }
    })(),
  ]);
  return samples;
}

const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((values.length * p) / 100))] ?? Number.NaN;

/** One attack on a fresh server: the idle reference first, then the attack; a table row. */
async function attackRow(target: Target, name: string): Promise<string> {
  const module = (await import(`./attacks/${name}.ts`)) as AttackModule;
  const server = await startServer({ ...target.env, ...module.serverEnv });
  try {
    const headers = await signUp(server.url);
    const { username } = (await json<{ username: string }>(`${server.url}/api/users/me/`, { headers })).body;
    const idle = await sample(server, username, new Promise((resolve) => setTimeout(resolve, IdleMs)));
    const started = performance.now();
    let description = '';
    const attack = module.default({ base: server.url, authorization: headers.authorization }).then((text) => {
      description = text;
    });
    const busy = await sample(server, username, attack);
    await attack;
    const took = performance.now() - started;
    const idleRss = Math.max(...idle.rss);
    const f = (value: number) => Math.round(value).toLocaleString('en');
    const signed = (value: number) => `${value < 0 ? '−' : '+'}${f(Math.abs(value))}`;
    return (
      `| ${target.label} | ${description} (${ms(took)}) | **${f(percentile(busy.health, 50))} / ${f(percentile(busy.health, 99))} ms** ` +
      `| ${f(percentile(idle.health, 50))} / ${f(percentile(idle.health, 99))} ms | ${f(Math.max(...busy.signIns))} ms ` +
      `| ${f(Math.max(...idle.signIns))} ms | **${signed(Math.max(...busy.rss) - idleRss)} MB** (${f(idleRss)} MB idle) |`
    );
  } finally {
    server.child.kill('SIGTERM');
    await server.exited;
  }
}

const ms = (value: number) => `${Math.round(value).toLocaleString('en')} ms`;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

export default async function run(): Promise<void> {
  ensureBuilt();
  const rows: string[] = [];
  const attackRows: string[] = [];
  const chosen = process.env.BENCH_ATTACKS?.split(',') ?? Attacks;
  for (const target of await targets()) {
    for (const name of chosen) attackRows.push(await attackRow(target, name));
    let server: Server = await startServer(target.env);
    try {
      const first = await signUp(server.url);
      const username = (await json<{ username: string }>(`${server.url}/api/users/me/`, { headers: first })).body
        .username;
      let headers = first;
      const restarts: number[] = [];
      let acknowledged = 0;
      let missing = 0;
      for (let round = 0; round < Crashes; round++) {
        const outcome = await crashRound(target, server, headers);
        server = outcome.restarted;
        restarts.push(outcome.restartMs);
        headers = await signIn(server.url, username);
        const saved = await json<{ name: string }[]>(`${server.url}/api/workspaces/`, { headers });
        const names = new Set(saved.body.map((workspace) => workspace.name));
        acknowledged += outcome.acknowledged.length;
        missing += outcome.acknowledged.filter((name) => !names.has(name)).length;
      }
      // The crowd reads as a new member of one workspace would (the writer above owns hundreds).
      const reader = await signUp(server.url);
      await json(`${server.url}/api/workspaces/`, {
        method: 'POST',
        headers: reader,
        body: JSON.stringify({ name: 'Crowded studio' }),
      });
      const busy = await load(`${server.url}/api/workspaces/`, reader);
      const health = await load(`${server.url}/api/health/`);
      rows.push(
        `| ${target.label} | ${acknowledged.toLocaleString('en')} | **${missing}** | ${ms(median(restarts))} (max ${ms(Math.max(...restarts))}) ` +
          `| ${busy.p50} / ${busy.p99} ms | ${Math.round(busy.rps).toLocaleString('en')} | ${busy.errors} / ${busy.non2xx} ` +
          `| ${health.p50} / ${health.p99} ms | ${Math.round(health.rps).toLocaleString('en')} |`,
      );
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
      await target.cleanup();
    }
  }
  print(
    `${Writers} writers, SIGKILL after 1 s, restarted at once, ${Crashes} rounds; then ${Clients} clients × ${Seconds} s ` +
      `(load average ${loadavg()
        .map((v) => v.toFixed(1))
        .join(' ')}):\n`,
  );
  print(
    '| database | acknowledged writes | missing after kill -9 | restart → healthy (median) | `GET workspaces/` p50 / p99 | req/s | errors / non-2xx | reference `health/` p50 / p99 | req/s |',
  );
  print('| --- | --- | --- | --- | --- | --- | --- | --- | --- |');
  for (const row of rows) print(row);
  print(`\nAttacks, each on a fresh server, health asked one request after another (idle ${IdleMs / 1000} s first):\n`);
  print(
    '| database | attack | `health/` p50 / p99 during | reference: idle p50 / p99 | slowest sign-in during | idle | memory added at peak |',
  );
  print('| --- | --- | --- | --- | --- | --- | --- |');
  for (const row of attackRows) print(row);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await run();
