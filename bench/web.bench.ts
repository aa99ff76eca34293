// One file: a bench is one script — the seeded server, the probes and the reference grid serve only this measurement.
/**
 * Issue 14: the web app feels instant. Prints the table in one run, each figure beside its
 * goal (and, for scrolling, beside a plain virtual grid measured in the same browser):
 * - JS of /login and of the /app shell (brotli, as transferred) and the units screen's own chunk,
 *   read from the build's manifest (scripts/bundles.ts, the same count as the size budget test);
 * - /login's form visible with a cold cache;
 * - the units matrix of a 10,000-unit × 20-stage pipeline: first real row after navigation, and a
 *   2 s scroll at 5,000 px/s (frames, p95 frame time, frames with a blank row in view);
 * - filtering and sorting that matrix's 10,000 units in the app's copy (the units feature's own
 *   `selectUnits`, in Node's V8 as in the browser's), beside one plain pass over the same units;
 * - the 500-stage diagram editor, saved with and without positions (bench/pipeline-editor.bench.ts).
 * The app is the real server (`buildApp`, PGlite in a temporary directory) serving the build.
 *
 * Env: BENCH_WEB_DIST=dir (an already built app; otherwise `packages/web` is built first),
 * BENCH_CHROMIUM=path (default /usr/bin/chromium), BENCH_RUNS=n (browser runs per measure, default 5),
 * BENCH_WEB_ONLY=matrix (only the matrix's first row and scroll, for work on that screen).
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type Page } from '@playwright/test';
import {
  paths,
  StorageKeys,
  wholeMatrixRows,
  ZWholeMatrixChecked,
  type TBatchUnits,
  type TPipeline,
} from '@stageline/shared';
import { buildApp } from '../packages/server/src/app';
import { loadConfig } from '../packages/server/src/config';
import { openDatabase, schema } from '../packages/server/src/db';
import { hashPassword } from '../packages/server/src/features/auth';
import { firstScreenLoads, Goals, ownChunkBytes, readManifest, Screens } from '../scripts/bundles';
import { benchEditor, plainOf, plainReference } from './pipeline-editor.bench';
import { selectUnits } from '../packages/web/src/features/units/lib/whole-matrix';
import { chromiumArgs } from '../e2e/support/browser';

/** Results go to stdout as markdown (no console: the linter keeps it for debugging). */
const print = (line: string) => process.stdout.write(`${line}\n`);

const root = resolve(import.meta.dirname, '..');
const Units = 10_000;
const Stages = 20;
const Scroll = { speed: 5_000, durationMs: 2_000 };
const Viewport = { width: 1440, height: 900 };
const password = 'bench password 1234';

const runs = () => Number(process.env.BENCH_RUNS ?? 5);
const median = (values: readonly number[]) => percentile(values, 50);
function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}
const ms = (value: number) => (Number.isFinite(value) ? `${Math.round(value)} ms` : 'n/a');
/** For figures of a few milliseconds. */
const fineMs = (value: number) => (Number.isFinite(value) ? `${value.toFixed(1)} ms` : 'n/a');
const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} KB`;
const mark = (ok: boolean) => (ok ? 'met' : '**not met**');

export function webDist(): string {
  const given = process.env.BENCH_WEB_DIST;
  if (given) return resolve(given);
  print('Building packages/web …');
  execFileSync('npm', ['run', 'build', '-w', '@stageline/web'], { cwd: root, stdio: 'ignore' });
  return join(root, 'packages/web/dist');
}

/** The real server on a free port over PGlite, serving `dist`, with a 10,000-unit pipeline. */
export async function startSeededServer(dist: string) {
  const dataDir = await mkdtemp(join(tmpdir(), 'stageline-bench-web-'));
  const database = await openDatabase({ dataDir });
  const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
  const app = await buildApp({ config, database, logger: false, webDistDir: dist });
  const call = async <T>(method: 'GET' | 'POST' | 'PUT', url: string, token: string | null, payload?: object) => {
    const response = await app.inject({
      method,
      url,
      payload,
      headers: token ? { authorization: `Bearer ${token}` } : {},
    });
    if (response.statusCode >= 300) throw new Error(`${method} ${url}: ${response.statusCode} ${response.body}`);
    return response.json<T>();
  };
  await database.db.insert(schema.users).values({
    username: 'bench',
    email: 'bench@example.com',
    passwordHash: await hashPassword(password),
    emailVerified: true,
  });
  const tokens = await call<{ access: string; refresh: string }>('POST', '/api/users/login/', null, {
    username: 'bench',
    password,
  });
  const token = tokens.access;
  const workspace = await call<{ id: number }>('POST', '/api/workspaces/', token, { name: 'Bench' });
  const project = await call<{ id: number }>('POST', '/api/projects/', token, {
    workspace: workspace.id,
    name: 'Film',
  });
  const created = await call<TPipeline>('POST', '/api/pipelines/', token, { project: project.id, name: 'Shots' });
  const [start, end] = created.nodes as [TPipeline['nodes'][number], TPipeline['nodes'][number]];
  const ids = Array.from({ length: Stages }, (_, i) => `s${i}`);
  const chain = [start.id, ...ids, end.id];
  await call('PUT', `/api/pipelines/${created.id}/graph/`, token, {
    version: 0,
    nodes: [
      { id: start.id, kind: 'root', name: 'Start', x: 0, y: 0 },
      ...ids.map((tmp_id, i) => ({ tmp_id, kind: 'stage', name: `Stage ${i + 1}`, x: 0, y: 100 * (i + 1) })),
      { id: end.id, kind: 'end', name: 'End', x: 0, y: 100 * (Stages + 1) },
    ],
    edges: chain.slice(1).map((target, i) => ({ source: chain[i]!, target })),
  });
  await call('POST', '/api/units/batch/', token, {
    project: project.id,
    pipeline: created.id,
    template: 'Shot {count}',
    count: Units,
    start: 1,
    step: 1,
  } satisfies TBatchUnits);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}`,
    tokens,
    workspaceId: workspace.id,
    matrixUrl: `${paths.app.units(project.id)}?pipeline=${created.id}`,
    pipelineId: created.id,
    stop: async () => {
      await app.close();
      await database.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Notes, every frame from the page's start, when the first matrix row with its data is in view.
 * A string: it runs in the page before the app, where tsx's helpers do not exist.
 */
const firstRowProbe = `(() => {
  window.__firstRow = null;
  const tick = (now) => {
    if (document.querySelector('[data-testid="matrix-row"][data-unit-id]')) window.__firstRow = now;
    else requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
})();`;

type TScrollResult = { frames: number[]; blankFrames: number };

/**
 * Scrolls `scroller` at `speed` px/s for `durationMs`, one step per frame, and reports the frame
 * intervals and how many frames showed a row in view without its data (a row is sampled every 18 px
 * down the first column; `row` matches a row, `loaded` one that has its data).
 */
async function scrollFrames(page: Page, selectors: { scroller: string; row: string; loaded: string }) {
  // A string, as the probes: tsx's helpers (for named inner functions) do not exist in the page.
  const source = `(({ selectors, speed, durationMs }) => new Promise((done) => {
    const scroller = document.querySelector(selectors.scroller);
    const box = scroller.getBoundingClientRect();
    const frames = [];
    let blankFrames = 0;
    let started = null;
    let last = 0;
    const blank = () => {
      for (let y = box.top + 60; y < box.bottom - 4; y += 18) {
        const row = document.elementFromPoint(box.left + 60, y)?.closest(selectors.row);
        if (!row || !row.matches(selectors.loaded)) return true;
      }
      return false;
    };
    const tick = (now) => {
      if (started === null) started = now;
      else {
        frames.push(now - last);
        if (blank()) blankFrames++;
      }
      last = now;
      scroller.scrollTop = ((now - started) * speed) / 1000;
      if (now - started < durationMs) requestAnimationFrame(tick);
      else done({ frames, blankFrames });
    };
    requestAnimationFrame(tick);
  }))(${JSON.stringify({ selectors, ...Scroll })})`;
  return page.evaluate<TScrollResult>(source);
}

/** A plain virtual grid (no framework): the same rows and columns, redrawn on each scroll event. */
const referenceGrid = (
  units: number,
  stages: number,
) => `<!doctype html><html><body style="margin:0;font:13px sans-serif">
<div id="grid" style="height:100vh;overflow:auto;position:relative">
  <div id="body" style="height:${(units + 1) * 36}px;width:${240 + stages * 132}px;position:relative"></div>
</div>
<script>
  const grid = document.getElementById('grid');
  const body = document.getElementById('body');
  const statuses = ['To do', 'In progress', 'Review', 'Edit', 'Done'];
  let drawn = '';
  function draw() {
    const first = Math.max(0, Math.floor(grid.scrollTop / 36) - 12);
    const last = Math.min(${units}, Math.ceil((grid.scrollTop + grid.clientHeight) / 36) + 12);
    if (drawn === first + ':' + last) return;
    drawn = first + ':' + last;
    let html = '';
    for (let i = first; i < last; i++) {
      html += '<div class="row" data-unit-id="' + i + '" style="position:absolute;top:' + (36 + i * 36) + 'px;height:36px;display:flex">';
      html += '<div style="width:240px;position:sticky;left:0;background:#fff">Shot ' + (i + 1) + '</div>';
      for (let s = 0; s < ${stages}; s++) html += '<div style="width:132px">' + statuses[(i + s) % 5] + '</div>';
      html += '</div>';
    }
    body.innerHTML = html;
  }
  grid.addEventListener('scroll', draw, { passive: true });
  draw();
</script></body></html>`;

async function benchLogin(browser: Browser, base: string) {
  const times: number[] = [];
  for (let i = 0; i < runs(); i++) {
    const context = await browser.newContext({ viewport: Viewport });
    const page = await context.newPage();
    await page.goto(`${base}${paths.login()}`, { waitUntil: 'commit' });
    const input = page.locator('input[name="username"], input[type="password"]').first();
    await input.waitFor({ state: 'visible', timeout: 30_000 });
    times.push(await page.evaluate(() => performance.now()));
    await context.close();
  }
  return median(times);
}

async function benchMatrix(browser: Browser, server: Awaited<ReturnType<typeof startSeededServer>>) {
  const firstRows: number[] = [];
  const scrolls: TScrollResult[] = [];
  const references: TScrollResult[] = [];
  for (let i = 0; i < runs(); i++) {
    const context = await browser.newContext({ viewport: Viewport });
    await context.addInitScript(
      ({ tokens, workspace, keys }) => {
        localStorage.setItem(keys.tokens, JSON.stringify(tokens));
        localStorage.setItem(keys.workspace, String(workspace));
      },
      {
        tokens: server.tokens,
        workspace: server.workspaceId,
        keys: { tokens: StorageKeys.authTokens, workspace: StorageKeys.currentWorkspace },
      },
    );
    await context.addInitScript(firstRowProbe);
    const page = await context.newPage();
    await page.goto(`${server.base}${server.matrixUrl}`);
    const handle = await page.waitForFunction(
      () => (window as unknown as { __firstRow: number | null }).__firstRow,
      null,
      {
        timeout: 60_000,
        polling: 100,
      },
    );
    firstRows.push((await handle.jsonValue()) as number);
    // Let the first pages settle before scrolling: the goal is no blank row once data is loaded.
    await page.waitForTimeout(500);
    scrolls.push(
      await scrollFrames(page, {
        scroller: '[data-testid="matrix"]',
        row: '[data-testid="matrix-row"]',
        loaded: '[data-unit-id]',
      }),
    );
    // The reference in the same browser, alternately with the app.
    const reference = await context.newPage();
    await reference.setContent(referenceGrid(Units, Stages));
    await reference.waitForTimeout(300);
    references.push(await scrollFrames(reference, { scroller: '#grid', row: '.row', loaded: '[data-unit-id]' }));
    await context.close();
  }
  const summary = (list: TScrollResult[]) => ({
    frames: median(list.map((r) => r.frames.length)),
    p95: median(list.map((r) => percentile(r.frames, 95))),
    blank: median(list.map((r) => r.blankFrames)),
  });
  return { firstRow: median(firstRows), app: summary(scrolls), reference: summary(references) };
}

const load = () =>
  loadavg()
    .map((value) => value.toFixed(1))
    .join(' / ');

/**
 * The matrix screen's filter and sort over the whole matrix (decision 98): a status, a search and
 * newest first, as the screen runs them on every change; the reference is one plain pass over the
 * same units reading each name. Also how long checking the answer (`ZWholeMatrixChecked`) and putting
 * its cells in rows (`wholeMatrixRows`) take.
 */
async function benchFiltering(server: Awaited<ReturnType<typeof startSeededServer>>) {
  const response = await fetch(`${server.base}/api/units/matrix/whole/?pipeline=${server.pipelineId}`, {
    headers: { authorization: `Bearer ${server.tokens.access}` },
  });
  const text = await response.text();
  const timed = (work: () => unknown) => {
    const times: number[] = [];
    for (let run = 0; run < runs(); run++) {
      const started = performance.now();
      work();
      times.push(performance.now() - started);
    }
    return median(times);
  };
  const matrix = wholeMatrixRows(ZWholeMatrixChecked.parse(JSON.parse(text)));
  const filter = { pipeline: server.pipelineId, sort: '-created', status: 'todo', search: '1' } as const;
  let kept = 0;
  const select = timed(() => (kept = selectUnits(matrix.units, filter, undefined).length));
  let named = 0;
  const reference = timed(() => {
    named = 0;
    for (const unit of matrix.units) if (unit[1].includes('1')) named++;
  });
  return {
    select,
    reference,
    kept,
    named,
    bytes: text.length,
    parse: timed(() => JSON.parse(text)),
    check: timed(() => wholeMatrixRows(ZWholeMatrixChecked.parse(JSON.parse(text)))),
  };
}

export default async function run(): Promise<void> {
  const dist = webDist();
  process.env.BENCH_WEB_DIST = dist;
  process.env.BENCH_RUNS ??= '5';
  const loadBefore = load();
  const manifest = readManifest(dist);
  const loads = firstScreenLoads(manifest, dist);
  const unitsOwn = ownChunkBytes(manifest, Screens.units, dist);

  const server = await startSeededServer(dist);
  const browser = await chromium.launch({
    executablePath: process.env.BENCH_CHROMIUM ?? '/usr/bin/chromium',
    args: chromiumArgs,
  });
  const onlyMatrix = process.env.BENCH_WEB_ONLY === 'matrix';
  let login: number;
  let matrix: Awaited<ReturnType<typeof benchMatrix>>;
  let filtering: Awaited<ReturnType<typeof benchFiltering>> | undefined;
  try {
    if (!onlyMatrix) filtering = await benchFiltering(server);
    login = onlyMatrix ? Number.NaN : await benchLogin(browser, server.base);
    matrix = await benchMatrix(browser, server);
  } finally {
    await browser.close();
    await server.stop();
  }

  print(`${cpus().length} × ${cpus()[0]?.model.trim() ?? 'CPU'}, Node ${process.version}`);
  print(`Load average (1 / 5 / 15 min) at the start ${loadBefore}, at the end ${load()}`);
  print(
    `Chromium headless, software rendering, ${Viewport.width}×${Viewport.height}; medians of ${runs()} runs; app: ${dist}\n`,
  );
  print('| measure | now | reference | goal | |');
  print('|---|---|---|---|---|');
  const firstRowLine = `| matrix: first real row visible after navigation (${Units.toLocaleString('en')} units × ${Stages} stages) | ${ms(matrix.firstRow)} | — | ≤ 800 ms | ${mark(matrix.firstRow <= 800)} |`;
  const scrollOk = matrix.app.frames >= 110 && matrix.app.p95 <= 20 && matrix.app.blank === 0;
  const scrollLine = `| matrix: ${Scroll.durationMs / 1000} s scroll at ${Scroll.speed.toLocaleString('en')} px/s: frames, p95 frame, frames with a blank row | ${matrix.app.frames}, ${ms(matrix.app.p95)}, ${matrix.app.blank} | plain virtual grid: ${matrix.reference.frames}, ${ms(matrix.reference.p95)}, ${matrix.reference.blank} (×${(matrix.app.p95 / matrix.reference.p95).toFixed(1)} p95) | ≥ 110, ≤ 20 ms, 0 | ${mark(scrollOk)} |`;
  if (!filtering) {
    print(firstRowLine);
    print(scrollLine);
    return;
  }
  const editor = await benchEditor();
  const placed = editor.results.get('placed')!;
  const unplaced = editor.results.get('unplaced')!;
  const plainPlaced = editor.results.get(plainOf('placed'))!;
  const plainUnplaced = editor.results.get(plainOf('unplaced'))!;
  const settled = (r: typeof unplaced) => Math.max(r.laidOut, r.interactive);
  print(
    `| JS before \`/login\` is usable (brotli) | ${kb(loads.login.brotliBytes)} in ${loads.login.requests} files | — | ≤ 150 KB in ≤ 10 | ${mark(loads.login.brotliBytes <= Goals.login.brotliBytes && loads.login.requests <= Goals.login.requests)} |`,
  );
  print(
    `| JS for the \`/app\` shell; the units screen's own chunk | ${kb(loads.appShell.brotliBytes)} in ${loads.appShell.requests} files; ${kb(unitsOwn)} | — | ≤ 250 KB; ≤ 60 KB | ${mark(loads.appShell.brotliBytes <= Goals.appShell.brotliBytes && unitsOwn <= Goals.screenOwnChunk.brotliBytes)} |`,
  );
  print(`| \`/login\` form visible (cold cache) | ${ms(login)} | — | ≤ 600 ms | ${mark(login <= 600)} |`);
  print(firstRowLine);
  print(
    `| matrix: filter and sort ${Units.toLocaleString('en')} units in the browser's copy (status, search, newest first: ${filtering.kept.toLocaleString('en')} kept) | ${fineMs(filtering.select)} | one plain pass over the names: ${fineMs(filtering.reference)} (×${(filtering.select / Math.max(filtering.reference, 0.01)).toFixed(1)}) | ≤ 50 ms | ${mark(filtering.select <= 50)} |`,
  );
  print(
    `| matrix: the whole answer read, checked and put in rows (${(filtering.bytes / 1_048_576).toFixed(1)} MB of JSON) | ${ms(filtering.check)} | \`JSON.parse\` alone: ${ms(filtering.parse)} (×${(filtering.check / filtering.parse).toFixed(1)}) | — | |`,
  );
  print(scrollLine);
  print(
    `| 500-stage pipeline, saved with positions: interactive | ${ms(placed.interactive)} | ${plainReference(placed.interactive, plainPlaced.interactive)} | ≤ 1,000 ms | ${mark(placed.interactive <= 1000)} |`,
  );
  print(
    `| 500 stages without positions: laid out and interactive | ${ms(settled(unplaced))} | ${plainReference(settled(unplaced), settled(plainUnplaced))} | ≤ 1,500 ms | ${mark(settled(unplaced) <= 1500)} |`,
  );
}
