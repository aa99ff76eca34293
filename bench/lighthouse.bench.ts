// One file: a bench is one script — the browser, the runs and the report files serve only this audit.
/**
 * Issue 14 item 5: Lighthouse (12.8, the version that runs on Node 20) on `/`, `/login` and the
 * units matrix of a 10,000-unit pipeline, served by the real server (the web bench's seeded one),
 * in Debian's Chromium. Desktop preset (no simulated phone CPU or slow network: the issue's goals
 * are for a desktop). Prints the four category scores and the main timings per page; the full
 * reports go to `test-results/lighthouse/*.html`. Not part of CI: it takes minutes and its scores
 * move with the machine's load.
 *
 * Env: BENCH_WEB_DIST, BENCH_CHROMIUM as for the web bench; BENCH_LIGHTHOUSE_RUNS=n (default 3,
 * the median score is printed).
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium } from '@playwright/test';
import lighthouse from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import { paths, StorageKeys } from '@stageline/shared';
import { startSeededServer, webDist } from './web.bench';

/** Results go to stdout as markdown (no console: the linter keeps it for debugging). */
const print = (line: string) => process.stdout.write(`${line}\n`);

const root = resolve(import.meta.dirname, '..');
const reports = join(root, 'test-results', 'lighthouse');

function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => done(port));
    });
  });
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)]!;
const score = (value: number | null | undefined) => (value == null ? 'n/a' : String(Math.round(value * 100)));

export default async function run(): Promise<void> {
  const dist = webDist();
  const server = await startSeededServer(dist);
  const port = await freePort();
  // A persistent context is the browser's default one, where Lighthouse opens its tabs: the session
  // written into its localStorage is the one the audited page reads.
  const profile = await mkdtemp(join(tmpdir(), 'stageline-lighthouse-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.BENCH_CHROMIUM ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', `--remote-debugging-port=${port}`],
  });
  const pages = [
    { name: 'landing', label: '`/` (prerendered landing)', path: paths.home(), signedIn: false },
    { name: 'login', label: '`/login`', path: paths.login(), signedIn: false },
    { name: 'matrix', label: 'units matrix (10,000 units)', path: server.matrixUrl, signedIn: true },
  ];
  const runs = Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 3);
  const rows: string[] = [];
  try {
    await mkdir(reports, { recursive: true });
    for (const page of pages) {
      // The signed-in page reads the session from localStorage, which Lighthouse must then keep.
      const tab = await context.newPage();
      await tab.goto(`${server.base}${paths.home()}`);
      await tab.evaluate(
        ({ signedIn, tokens, workspace, keys }) => {
          localStorage.clear();
          if (!signedIn) return;
          localStorage.setItem(keys.tokens, JSON.stringify(tokens));
          localStorage.setItem(keys.workspace, String(workspace));
        },
        {
          signedIn: page.signedIn,
          tokens: server.tokens,
          workspace: server.workspaceId,
          keys: { tokens: StorageKeys.authTokens, workspace: StorageKeys.currentWorkspace },
        },
      );
      await tab.close();
      const results = [];
      for (let i = 0; i < runs; i++) {
        const result = await lighthouse(
          `${server.base}${page.path}`,
          { port, output: ['html', 'json'], logLevel: 'error', disableStorageReset: page.signedIn },
          desktopConfig,
        );
        if (!result) throw new Error(`Lighthouse gave no result for ${page.path}`);
        const landed = new URL(result.lhr.finalDisplayedUrl).pathname;
        if (landed !== new URL(`${server.base}${page.path}`).pathname)
          throw new Error(`Lighthouse measured ${landed} instead of ${page.path}`);
        results.push(result);
      }
      const performance = results.map((r) => r.lhr.categories.performance?.score ?? 0);
      const chosen = results[performance.indexOf(median(performance))]!;
      const [html, json] = chosen.report as string[];
      await writeFile(join(reports, `${page.name}.html`), html!);
      await writeFile(join(reports, `${page.name}.json`), json!);
      const { categories, audits } = chosen.lhr;
      const timing = (id: string) => audits[id]?.displayValue ?? 'n/a';
      rows.push(
        `| ${page.label} | ${score(median(performance))} (${performance.map(score).join(', ')}) | ${score(categories.accessibility?.score)} | ${score(categories['best-practices']?.score)} | ${score(categories.seo?.score)} | ${timing('first-contentful-paint')} | ${timing('largest-contentful-paint')} | ${timing('total-blocking-time')} | ${timing('cumulative-layout-shift')} |`,
      );
    }
  } finally {
    await context.close();
    await server.stop();
    await rm(profile, { recursive: true, force: true });
  }
  print(
    `Lighthouse 12.8, desktop preset, Debian's Chromium; median performance of ${runs} runs; reports in test-results/lighthouse/\n`,
  );
  print('| page | performance (runs) | accessibility | best practices | SEO | FCP | LCP | TBT | CLS |');
  print('|---|---|---|---|---|---|---|---|---|');
  rows.forEach(print);
}
