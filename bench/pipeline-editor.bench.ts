/**
 * Issue 5 item 6: a 500-stage pipeline saved without positions opens, lays out and drags without
 * stutter. Measures (a) `layoutGraph` in Node, cold and warm, and (b) the built web app in Debian's
 * Chromium with the API mocked: navigation → first node on screen, → layout done, and the frame
 * times while a node is dragged for about a second.
 *
 * Env: BENCH_WEB_DIST=dir (an already built app; otherwise `packages/web` is built first),
 * BENCH_CHROMIUM=path (default /usr/bin/chromium), BENCH_RUNS=n (browser runs, default 3).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus } from 'node:os';
import { extname, join, normalize, resolve } from 'node:path';
import { chromium, type Page, type Route } from '@playwright/test';
import { paths, ZMe, ZPipeline, type TMe, type TPipeline } from '@stageline/shared';
import { buildNode } from '../packages/web/src/features/pipelines/lib/fixtures';
import { layoutGraph } from '../packages/web/src/features/pipelines/lib/layout';

/** Results go to stdout as markdown (no console: the linter keeps it for debugging). */
const print = (line: string) => process.stdout.write(`${line}\n`);

const root = resolve(import.meta.dirname, '..');
const chromiumArgs = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
// The real server's policy (packages/server/src/http/security.ts), so the layout worker is tested under it.
const csp = [
  "default-src 'self'",
  "base-uri 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "object-src 'none'",
  "frame-ancestors 'none'",
].join('; ');

const Stages = 500;
const ProjectId = 3;
const PipelineId = 7;
const zero = { todo: 0, in_progress: 0, review: 0, edit: 0, done: 0, overdue: 0 };

/**
 * 500 stages in 100 columns of 5, every stage feeding the one beside it in the next column and every
 * third one also its neighbour: branches and joins like a real pipeline, all saved at (0, 0).
 */
export function buildLargePipeline(stages = Stages): TPipeline {
  const width = 5;
  const ids = Array.from({ length: stages }, (_, i) => 10 + i);
  const nodes = [
    buildNode({ id: 1, kind: 'root', name: 'Start' }),
    ...ids.map((id, i) => ({
      ...buildNode({ id, name: `Stage ${i + 1}` }),
      review_mode: (['each_immediate', 'each_wait', 'any'] as const)[i % 3]!,
    })),
    buildNode({ id: 2, kind: 'end', name: 'End' }),
  ];
  const edges: { source: number; target: number }[] = [];
  const columns = Math.ceil(stages / width);
  for (let c = 0; c < columns; c++) {
    for (let r = 0; r < width; r++) {
      const i = c * width + r;
      if (i >= stages) break;
      if (c === 0) edges.push({ source: 1, target: ids[i]! });
      const next = (c + 1) * width + r;
      if (next < stages) edges.push({ source: ids[i]!, target: ids[next]! });
      else edges.push({ source: ids[i]!, target: 2 });
      const side = (c + 1) * width + ((r + 1) % width);
      if (i % 3 === 0 && side < stages) edges.push({ source: ids[i]!, target: ids[side]! });
    }
  }
  return ZPipeline.parse({
    id: PipelineId,
    project: ProjectId,
    name: `${stages} stages`,
    description: '',
    layout: 'horizontal',
    version: 1,
    stages_count: stages,
    task_counters: { ...zero, todo: stages },
    updated_at: '2025-01-01T00:00:00.000Z',
    nodes,
    edges,
    stage_counters: Object.fromEntries(
      ids.map((id, i) => [String(id), { ...zero, todo: 1 + (i % 4), done: i % 5, overdue: i % 7 === 0 ? 1 : 0 }]),
    ),
  });
}

const median = (values: readonly number[]) => percentile(values, 50);
function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index]!;
}
const ms = (value: number) => (Number.isFinite(value) ? `${Math.round(value)} ms` : 'n/a');

// --- (a) layoutGraph in Node
async function benchLayout(pipeline: TPipeline) {
  const nodes = pipeline.nodes.map((n) => ({ id: String(n.id) }));
  const edges = pipeline.edges.map((e) => ({ source: String(e.source), target: String(e.target) }));
  const time = async () => {
    const start = performance.now();
    const positions = await layoutGraph(nodes, edges, 'horizontal');
    if (positions.size !== nodes.length) throw new Error(`layout placed ${positions.size} of ${nodes.length}`);
    return performance.now() - start;
  };
  const cold = await time();
  const warm: number[] = [];
  for (let i = 0; i < 5; i++) warm.push(await time());
  return { cold, warm: median(warm) };
}

// --- (b) the built app in Chromium
function webDist(): string {
  const given = process.env.BENCH_WEB_DIST;
  if (given) return resolve(given);
  print('Building packages/web …');
  execFileSync('npm', ['run', 'build', '-w', '@stageline/web'], { cwd: root, stdio: 'ignore' });
  return join(root, 'packages/web/dist');
}

const types: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.css': 'text/css',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.webmanifest': 'application/manifest+json',
};

/** The built app from a folder, index.html for every route (the real server does the same). */
function serveStatic(dist: string): Promise<Server> {
  const server = createServer((request, response) => {
    const pathname = decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname);
    let file = normalize(join(dist, pathname));
    if (!file.startsWith(dist) || !existsSync(file) || statSync(file).isDirectory()) file = join(dist, 'index.html');
    response.writeHead(200, {
      'content-type': types[extname(file)] ?? 'application/octet-stream',
      'content-security-policy': csp,
    });
    response.end(readFileSync(file));
  });
  return new Promise((done) => server.listen(0, '127.0.0.1', () => done(server)));
}

const me: TMe = ZMe.parse({
  id: 1,
  username: 'bench',
  email: 'bench@example.com',
  first_name: 'Bench',
  last_name: 'User',
  language: 'en',
  two_factor: false,
  recent_workspace: 1,
  avatar: null,
  workspaces: [1],
  has_password: true,
  oauth_accounts: [],
  notify_browser: false,
  email_frequency: 'never',
});

/** Answers what the editor asks of the API; anything else is a 404 the app has to survive. */
function mockApi(pipeline: TPipeline, unknown: Set<string>) {
  const project = {
    id: ProjectId,
    workspace: 1,
    name: 'Bench project',
    description: '',
    abilities: {},
  };
  const workspace = { id: 1, name: 'Bench', role: 'owner', slug: 'bench' };
  return (route: Route) => {
    const url = new URL(route.request().url());
    const path = url.pathname.replace(/^\/api\//, '');
    const json = (body: unknown, status = 200) =>
      route.fulfill({ status, contentType: 'application/json', body: JSON.stringify(body) });
    if (path === 'config/') return json({ version: 'bench', maintenance: false, debug: false, publicUrl: null });
    if (path === 'users/me/') return json(me);
    if (path === `pipelines/${PipelineId}/`) return json(pipeline);
    if (path === `projects/${ProjectId}/`) return json(project);
    if (path === 'workspaces/') return json([workspace]);
    if (path === 'workspaces/1/') return json(workspace);
    unknown.add(`${route.request().method()} ${path}`);
    return json({ detail: 'Not found' }, 404);
  };
}

/** A JWT the client can read an expiry from; the mocked API never checks it. */
function fakeJwt(): string {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const now = Math.floor(Date.now() / 1000);
  return `${part({ alg: 'HS256', typ: 'JWT' })}.${part({ sub: '1', iat: now, exp: now + 86_400 })}.c2ln`;
}

/**
 * Runs in the page before the app (a string: tsx's helpers do not exist in the page): every frame,
 * notes when the first stage is in the DOM and when the stages stop sharing one position (layout
 * applied), and records frame times while `frames` is an array.
 */
const probeScript = `(() => {
  const probe = { firstNode: null, laidOut: null, frames: null };
  window.__probe = probe;
  let last = 0;
  const tick = (now) => {
    if (probe.frames) probe.frames.push(now - last);
    last = now;
    if (probe.laidOut === null) {
      const stages = document.querySelectorAll('.react-flow__node-stage');
      if (stages.length > 0 && probe.firstNode === null) probe.firstNode = now;
      for (const stage of stages) {
        if (stage.style.transform !== stages[0].style.transform) {
          probe.laidOut = now;
          break;
        }
      }
    }
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
})();`;

type TRun = { firstNode: number; laidOut: number; markRender: number; markLayout: number; frames: number[] };

async function openAndDrag(page: Page, url: string): Promise<TRun> {
  await page.goto(url);
  try {
    // A function, not a string: the page's CSP forbids eval.
    await page.waitForFunction(
      () => (window as unknown as { __probe: { laidOut: number | null } }).__probe.laidOut,
      null,
      {
        timeout: 60_000,
        polling: 100,
      },
    );
  } catch (error) {
    await page.screenshot({ path: join(root, 'test-results/bench-pipeline-editor.png') });
    throw new Error(`The diagram never laid out at ${page.url()} (screenshot in test-results/)`, { cause: error });
  }
  // Let fitView and the last measurements settle before dragging.
  await page.waitForTimeout(1000);
  const times = await page.evaluate<{ firstNode: number; laidOut: number; markRender: number; markLayout: number }>(`({
    firstNode: window.__probe.firstNode,
    laidOut: window.__probe.laidOut,
    markRender: performance.getEntriesByName('pipeline:first-render', 'mark')[0]?.startTime ?? NaN,
    markLayout: performance.getEntriesByName('pipeline:layout-done', 'mark')[0]?.startTime ?? NaN,
  })`);

  // The stage nearest the canvas's centre, grabbed by its name (the checkbox does not drag).
  const canvas = await page.locator('.react-flow').boundingBox();
  if (!canvas) throw new Error('no canvas');
  const centre = { x: canvas.x + canvas.width / 2, y: canvas.y + canvas.height / 2 };
  const boxes = await page.locator('.react-flow__node-stage').evaluateAll((elements) =>
    elements.map((element) => {
      const r = element.getBoundingClientRect();
      return { x: r.x, y: r.y, width: r.width, height: r.height };
    }),
  );
  const target = boxes
    .filter((b) => b.width > 0)
    .sort(
      (a, b) =>
        Math.hypot(a.x + a.width / 2 - centre.x, a.y + a.height / 2 - centre.y) -
        Math.hypot(b.x + b.width / 2 - centre.x, b.y + b.height / 2 - centre.y),
    )[0];
  if (!target) throw new Error('no stage to drag');
  const start = { x: target.x + target.width * 0.6, y: target.y + target.height * 0.3 };
  await page.mouse.move(start.x, start.y);
  await page.mouse.down();
  await page.evaluate('window.__probe.frames = []');
  const began = Date.now();
  for (let step = 1; Date.now() - began < 1000; step++) {
    await page.mouse.move(start.x + 120 * Math.sin(step / 8), start.y + 60 * Math.cos(step / 8));
  }
  const frames = await page.evaluate<number[]>(
    '(() => { const taken = window.__probe.frames; window.__probe.frames = null; return taken.slice(1); })()',
  );
  await page.mouse.up();
  return { ...times, frames };
}

async function benchBrowser(pipeline: TPipeline) {
  const dist = webDist();
  const server = await serveStatic(dist);
  const { port } = server.address() as AddressInfo;
  const base = `http://127.0.0.1:${port}`;
  const browser = await chromium.launch({
    executablePath: process.env.BENCH_CHROMIUM ?? '/usr/bin/chromium',
    args: chromiumArgs,
  });
  const unknown = new Set<string>();
  const runs: TRun[] = [];
  const errors: string[] = [];
  try {
    const count = Number(process.env.BENCH_RUNS ?? 3);
    for (let i = 0; i < count; i++) {
      const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
      await context.addInitScript(
        ({ tokens }) => {
          localStorage.setItem('authTokens', JSON.stringify(tokens));
          localStorage.setItem('current_workspace', '1');
        },
        { tokens: { access: fakeJwt(), refresh: fakeJwt() } },
      );
      await context.addInitScript(probeScript);
      await context.route('**/api/**', mockApi(pipeline, unknown));
      const page = await context.newPage();
      page.on('pageerror', (error) => errors.push(error.message));
      runs.push(await openAndDrag(page, `${base}${paths.app.pipelineFlow(ProjectId, PipelineId)}`));
      await context.close();
    }
  } catch (error) {
    print(`Page errors: ${errors.join(' | ') || 'none'}; unmocked API calls: ${[...unknown].join(', ') || 'none'}`);
    throw error;
  } finally {
    await browser.close();
    server.close();
  }
  if (errors.length) print(`Page errors: ${[...new Set(errors)].join(' | ')}`);
  if (unknown.size) print(`Unmocked API calls (answered 404): ${[...unknown].join(', ')}`);
  const frames = runs.flatMap((r) => r.frames);
  return {
    dist,
    runs: runs.length,
    firstNode: median(runs.map((r) => r.firstNode)),
    laidOut: median(runs.map((r) => r.laidOut)),
    markRender: median(runs.map((r) => r.markRender)),
    markLayout: median(runs.map((r) => r.markLayout)),
    frames: frames.length,
    dragMedian: median(frames),
    dragP95: percentile(frames, 95),
  };
}

export default async function run(): Promise<void> {
  const pipeline = buildLargePipeline();
  const machine = `${cpus().length} × ${cpus()[0]?.model.trim() ?? 'CPU'}, Node ${process.version}`;
  const layout = await benchLayout(pipeline);
  const browser = await benchBrowser(pipeline);
  print(`${Stages} stages, ${pipeline.edges.length} connections, saved without positions; ${machine}`);
  print(`Chromium headless, software rendering, 1440×900; ${browser.runs} runs (medians); app: ${browser.dist}\n`);
  print('| measure | result |');
  print('|---|---|');
  print(`| layoutGraph in Node, cold (loads elk) | ${ms(layout.cold)} |`);
  print(`| layoutGraph in Node, warm (median of 5) | ${ms(layout.warm)} |`);
  print(`| navigation → first node on screen | ${ms(browser.firstNode)} |`);
  print(`| navigation → layout applied | ${ms(browser.laidOut)} |`);
  print(
    `| mark pipeline:layout-done / pipeline:first-render | ${ms(browser.markLayout)} / ${ms(browser.markRender)} |`,
  );
  print(`| drag, frame time median (${browser.frames} frames) | ${ms(browser.dragMedian)} |`);
  print(`| drag, frame time p95 | ${ms(browser.dragP95)} |`);
}
