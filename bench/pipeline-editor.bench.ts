// One file: a bench is one script — the fixture pipeline, the mocked API and the browser probe serve only this measurement.
/**
 * Issue 5 item 6: a 500-stage pipeline opens, lays out and drags without stutter. Measures (a)
 * `layoutGraph` in Node, cold and warm, and (b) the built web app in Debian's Chromium with the API
 * mocked, for the pipeline saved with positions (the common case: nothing to lay out) and saved
 * without them (all at one point: elk lays it out): navigation → first stage visible, → every node
 * in view drawn, → elk's layout applied (without positions), → interactive (no long task for
 * 500 ms), and the frame times while a stage is dragged for about a second. Each case is also opened
 * on a plain page (`plainScript`), the reference every browser time is printed beside.
 *
 * Env: BENCH_WEB_DIST=dir (an already built app; otherwise `packages/web` is built first),
 * BENCH_CHROMIUM=path (default /usr/bin/chromium), BENCH_RUNS=n (browser runs, default 3),
 * BENCH_PROFILE=dir (also records each run's main-thread CPU profile, navigation → interactive, as
 * `<case>-<run>.cpuprofile` for Chromium's DevTools, and prints the heaviest functions and the
 * page's requests and performance marks in time order: slower runs, for finding where time goes).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg } from 'node:os';
import { extname, join, normalize, resolve } from 'node:path';
import { chromium, type Page, type Route } from '@playwright/test';
import { paths, ZMe, ZPipeline, type TMe, type TPipeline } from '@stageline/shared';
import { buildNode } from '../packages/web/test/pipelines';
import { needsLayout, pipelineToSnapshot } from '../packages/web/src/features/pipelines/lib/graph-model';
import { elkGraph, layoutGraph } from '../packages/web/src/features/pipelines/lib/layout';
import { chromiumArgs } from '../e2e/support/browser';

/** Results go to stdout as markdown (no console: the linter keeps it for debugging). */
const print = (line: string) => process.stdout.write(`${line}\n`);

const root = resolve(import.meta.dirname, '..');
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

/** Where a saved, organized pipeline has its nodes: columns 280 px apart, rows 112 px apart. */
const Grid = { column: 280, row: 112 };

/**
 * 500 stages in 100 columns of 5, every stage feeding the one beside it in the next column and every
 * third one also its neighbour: branches and joins like a real pipeline. Saved at (0, 0) unless
 * `positioned`, then on a grid as an organized pipeline is (fixed here, so a change of the layout
 * options does not change what the "with positions" case draws).
 */
export function buildLargePipeline(stages = Stages, positioned = false): TPipeline {
  const width = 5;
  const ids = Array.from({ length: stages }, (_, i) => 10 + i);
  const columns = Math.ceil(stages / width);
  const at = (column: number, row: number) =>
    positioned ? { x: column * Grid.column, y: row * Grid.row } : { x: 0, y: 0 };
  const nodes = [
    buildNode({ id: 1, kind: 'root', name: 'Start', ...at(0, (width - 1) / 2) }),
    ...ids.map((id, i) => ({
      ...buildNode({ id, name: `Stage ${i + 1}`, ...at(1 + Math.floor(i / width), i % width) }),
      review_mode: (['each_immediate', 'each_wait', 'any'] as const)[i % 3]!,
    })),
    buildNode({ id: 2, kind: 'end', name: 'End', ...at(columns + 1, (width - 1) / 2) }),
  ];
  const edges: { source: number; target: number }[] = [];
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
    name: `${stages} stages${positioned ? '' : ' (no positions)'}`,
    description: '',
    layout: 'horizontal',
    version: 1,
    stages_count: stages,
    units_count: 0,
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
/** The plain page's time for the same case, and the app's time as a multiple of it. */
export const plainReference = (value: number, plain: number) =>
  `plain page ${ms(plain)} (×${(value / plain).toFixed(1)})`;
const besidePlain = (value: number, plain: number) => `${ms(value)}; ${plainReference(value, plain)}`;

// --- (a) layoutGraph in Node
async function benchLayout(pipeline: TPipeline) {
  const nodes = pipeline.nodes.map((n) => ({ id: String(n.id) }));
  const edges = pipeline.edges.map((e) => ({ source: String(e.source), target: String(e.target) }));
  const time = async () => {
    const start = performance.now();
    const { positions } = await layoutGraph(nodes, edges, 'horizontal');
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

/** A file the bench serves itself, beside the built app: the plain reference page. */
type TServed = { type: string; body: string };

/** The built app from a folder, index.html for every route (the real server does the same). */
function serveStatic(dist: string, own: ReadonlyMap<string, TServed>): Promise<Server> {
  const server = createServer((request, response) => {
    const pathname = decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname);
    const served = own.get(pathname);
    if (served) {
      response.writeHead(200, { 'content-type': served.type, 'content-security-policy': csp });
      response.end(served.body);
      return;
    }
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

/**
 * The reference for the editor's rows: the same pipeline drawn by a page with no framework, measured
 * by the same probe in the same browser, alternately with the app. It starts elk's worker (the app's
 * own built worker script) as it loads, fetches the pipeline's boxes and links as JSON, has elk lay
 * them out when they have no positions (the graph and options the editor sends, `elkGraph`), and
 * draws every stage as a div and every link as an SVG path, fitted to the window: the floor for the
 * same work on the same machine at that moment, so a slow or busy machine shows in both.
 */
const plainScript = `
const worker = new Worker(document.documentElement.dataset.worker, { type: 'module' });
const replies = new Map();
worker.onmessage = (event) => replies.get(event.data.id)?.(event.data);
const ask = (message) =>
  new Promise((resolve, reject) => {
    replies.set(message.id, (reply) => (reply.error ? reject(new Error(String(reply.error))) : resolve(reply.data)));
    worker.postMessage(message);
  });
void ask({ id: 0, cmd: 'register', algorithms: ['layered'] });
const name = new URLSearchParams(location.search).get('case');
const graph = await (await fetch('/__plain/' + name + '.json')).json();
let nodes = graph.nodes;
let routes = null;
if (graph.elk) {
  const laid = await ask({ id: 1, cmd: 'layout', graph: graph.elk, layoutOptions: {}, options: {} });
  const at = new Map(laid.children.map((child) => [child.id, child]));
  nodes = nodes.map((n) => ({ ...n, x: at.get(n.id).x, y: at.get(n.id).y }));
  routes = laid.edges.map((edge) => {
    const section = edge.sections[0];
    return [section.startPoint, ...(section.bendPoints ?? []), section.endPoint];
  });
}
const byId = new Map(nodes.map((n) => [n.id, n]));
routes ??= graph.edges.map(([source, target]) => {
  const a = byId.get(source);
  const b = byId.get(target);
  const from = { x: a.x + a.width, y: a.y + a.height / 2 };
  const to = { x: b.x, y: b.y + b.height / 2 };
  const middle = (from.x + to.x) / 2;
  return [from, { x: middle, y: from.y }, { x: middle, y: to.y }, to];
});
const left = Math.min(...nodes.map((n) => n.x));
const top = Math.min(...nodes.map((n) => n.y));
const width = Math.max(...nodes.map((n) => n.x + n.width)) - left;
const height = Math.max(...nodes.map((n) => n.y + n.height)) - top;
const zoom = Math.min(1.25, Math.max(0.05, Math.min(innerWidth / (width * 1.3), innerHeight / (height * 1.3))));
const pane = document.createElement('div');
pane.className = 'react-flow';
pane.style.cssText = 'position:fixed;inset:0;overflow:hidden';
const view = document.createElement('div');
view.style.cssText =
  'position:absolute;left:0;top:0;transform-origin:0 0;transform:translate(' +
  ((innerWidth - width * zoom) / 2 - left * zoom) + 'px,' + ((innerHeight - height * zoom) / 2 - top * zoom) + 'px) scale(' + zoom + ')';
const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
svg.setAttribute('style', 'position:absolute;overflow:visible;width:1px;height:1px');
for (const points of routes) {
  const path = document.createElementNS('http://www.w3.org/2000/svg', 'path');
  path.setAttribute('d', 'M ' + points.map((p) => p.x + ' ' + p.y).join(' L '));
  path.setAttribute('fill', 'none');
  path.setAttribute('stroke', '#868e96');
  path.setAttribute('stroke-width', '1.5');
  svg.append(path);
}
view.append(svg);
for (const n of nodes) {
  const box = document.createElement('div');
  box.className = 'react-flow__node react-flow__node-' + n.kind;
  box.style.cssText =
    'position:absolute;box-sizing:border-box;border:1px solid #868e96;border-radius:8px;background:#fff;font:12px sans-serif;' +
    'width:' + n.width + 'px;height:' + n.height + 'px;transform:translate(' + n.x + 'px,' + n.y + 'px)';
  box.textContent = n.name;
  view.append(box);
}
pane.append(view);
document.body.append(pane);
`;

/** The plain page's files: its page and script, and each case's boxes, links and elk graph. */
function plainFiles(dist: string, scenarios: readonly TScenario[]): Map<string, TServed> {
  const worker = readdirSync(join(dist, 'assets')).find((file) => /^layout\.worker-.*\.js$/.test(file));
  if (!worker) throw new Error(`no layout worker in ${dist}/assets`);
  const files = new Map<string, TServed>([
    [
      '/__plain/',
      {
        type: 'text/html; charset=utf-8',
        body: `<!doctype html><html data-worker="/assets/${worker}"><head><meta charset="utf-8"><title>plain</title></head><body style="margin:0"><script type="module" src="/__plain/plain.js"></script></body></html>`,
      },
    ],
    ['/__plain/plain.js', { type: 'text/javascript', body: plainScript }],
  ]);
  for (const { name, pipeline } of scenarios) {
    const snapshot = pipelineToSnapshot(pipeline);
    const nodes = snapshot.nodes.map((n) => ({
      id: n.id,
      kind: n.data.kind,
      name: n.data.name,
      x: n.position.x,
      y: n.position.y,
      width: n.width!,
      height: n.height!,
    }));
    const body = {
      nodes,
      edges: snapshot.edges.map((e) => [e.source, e.target]),
      elk: needsLayout(snapshot.nodes) ? elkGraph(nodes, snapshot.edges, snapshot.layout) : null,
    };
    files.set(`/__plain/${name}.json`, { type: 'application/json', body: JSON.stringify(body) });
  }
  return files;
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
  onboarding: 'done',
  time_zone: 'UTC',
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
 * Runs in the page before the app (a string: tsx's helpers do not exist in the page). Every frame it
 * notes when the first stage is in the DOM and visible, when the number of drawn nodes last changed
 * (React Flow draws only the nodes in view), and when the stages stand apart with no layout pending
 * (no `flow-layout-pending` loader, no `data-layout-pending="true"` on the editor's canvas: elk's
 * layout applied). It keeps the end of the latest long task and records frame times while `frames`
 * is an array. Only the DOM is read, so the same probe measures an older build.
 */
const probeScript = `(() => {
  const probe = { firstNode: null, allNodes: null, count: 0, laidOut: null, lastLongTask: 0, frames: null };
  window.__probe = probe;
  try {
    new PerformanceObserver((list) => {
      for (const task of list.getEntries()) probe.lastLongTask = Math.max(probe.lastLongTask, task.startTime + task.duration);
    }).observe({ type: 'longtask', buffered: true });
  } catch {}
  let last = 0;
  const tick = (now) => {
    if (probe.frames) probe.frames.push(now - last);
    last = now;
    if (probe.frames === null) {
      const count = document.querySelectorAll('.react-flow__node').length;
      if (count !== probe.count) {
        probe.count = count;
        probe.allNodes = now;
      }
    }
    if (probe.laidOut === null) {
      const stages = document.querySelectorAll('.react-flow__node-stage');
      if (probe.firstNode === null) {
        for (const stage of stages) {
          if (stage.style.visibility !== 'hidden') {
            probe.firstNode = now;
            break;
          }
        }
      }
      if (!document.querySelector('[data-testid="flow-layout-pending"], [data-layout-pending="true"]')) {
        for (const stage of stages) {
          if (stage.style.transform !== stages[0].style.transform) {
            probe.laidOut = now;
            break;
          }
        }
      }
    }
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
})();`;

type TProbe = { firstNode: number; allNodes: number; laidOut: number; interactive: number };
type TRun = TProbe & { frames: number[] };

/** How long the main thread must stay free of long tasks to count as interactive. */
const QuietMs = 500;

/** The main thread's CPU profile, from before navigation to `stop()` (BENCH_PROFILE). */
async function startProfile(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  await cdp.send('Profiler.start');
  return async () => (await cdp.send('Profiler.stop')).profile;
}

type TCpuProfile = Awaited<ReturnType<Awaited<ReturnType<typeof startProfile>>>>;

/** The functions with the most self time in a profile, as `ms  name  file:line`. */
function heaviest(profile: TCpuProfile, count = 25): string[] {
  const byNode = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  const deltas = profile.timeDeltas ?? [];
  (profile.samples ?? []).forEach((id, i) => {
    const frame = byNode.get(id)!.callFrame;
    const file = frame.url.split('/').at(-1) ?? '';
    const key = `${frame.functionName || '(anonymous)'}  ${file}:${frame.lineNumber + 1}`;
    self.set(key, (self.get(key) ?? 0) + (deltas[i + 1] ?? 0) / 1000);
  });
  return [...self]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([key, time]) => `${time.toFixed(0).padStart(6)} ms  ${key}`);
}

async function openAndDrag(page: Page, url: string, profileTo?: string): Promise<TRun> {
  const stopProfile = profileTo ? await startProfile(page) : null;
  await page.goto(url);
  let times: TProbe;
  try {
    // Functions, not strings: the page's CSP forbids eval.
    await page.waitForFunction(
      () => {
        const probe = (window as unknown as { __probe: { laidOut: number | null; allNodes: number | null } }).__probe;
        return probe.laidOut !== null && probe.allNodes !== null;
      },
      null,
      { timeout: 60_000, polling: 100 },
    );
    times = await page
      .waitForFunction(
        (quiet) => {
          const probe = (window as unknown as { __probe: Record<string, number> }).__probe;
          const now = performance.now();
          if (now - Math.max(probe.lastLongTask!, probe.allNodes!, probe.laidOut!) < quiet) return null;
          return {
            firstNode: probe.firstNode!,
            allNodes: probe.allNodes!,
            laidOut: probe.laidOut!,
            interactive: Math.max(probe.lastLongTask!, probe.allNodes!, probe.laidOut!),
          };
        },
        QuietMs,
        { timeout: 60_000, polling: 100 },
      )
      .then((handle) => handle.jsonValue() as Promise<TProbe>);
  } catch (error) {
    await page.screenshot({ path: join(root, 'test-results/bench-pipeline-editor.png') });
    throw new Error(`The diagram never settled at ${page.url()} (screenshot in test-results/)`, { cause: error });
  }
  if (stopProfile && profileTo) {
    const profile = await stopProfile();
    writeFileSync(profileTo, JSON.stringify(profile));
    print(`\n${profileTo} (self time, navigation → interactive + ${QuietMs} ms):\n${heaviest(profile).join('\n')}`);
    // What the page waited for: every request (start → end) and mark, in the order they began.
    const timeline = await page.evaluate(() =>
      [
        ...performance.getEntriesByType('resource').map((e) => ({
          at: e.startTime,
          text: `${Math.round(e.startTime)} → ${Math.round((e as PerformanceResourceTiming).responseEnd)} ms  ${e.name.replace(location.origin, '').slice(0, 90)}`,
        })),
        ...performance
          .getEntriesByType('mark')
          .map((e) => ({ at: e.startTime, text: `${Math.round(e.startTime)} ms  mark ${e.name}` })),
      ]
        .sort((a, b) => a.at - b.at)
        .map((e) => e.text),
    );
    print(`timeline:\n${timeline.join('\n')}`);
  }

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

type TScenario = { name: string; pipeline: TPipeline };

/** The name under which a case's plain reference page is kept and served. */
export const plainOf = (name: string) => `${name}-plain`;

async function benchBrowser(scenarios: readonly TScenario[]) {
  const dist = webDist();
  const server = await serveStatic(dist, plainFiles(dist, scenarios));
  const { port } = server.address() as AddressInfo;
  const base = `http://127.0.0.1:${port}`;
  const browser = await chromium.launch({
    executablePath: process.env.BENCH_CHROMIUM ?? '/usr/bin/chromium',
    args: chromiumArgs,
  });
  const unknown = new Set<string>();
  // Each case in the app, then drawn by the plain page: alternated, so a change of the machine's
  // load falls on all alike.
  const targets = scenarios.flatMap(({ name, pipeline }) => [
    { name, pipeline, url: `${base}${paths.app.pipelineFlow(ProjectId, PipelineId)}` },
    { name: plainOf(name), pipeline, url: `${base}/__plain/?case=${name}` },
  ]);
  const runs = new Map<string, TRun[]>(targets.map((t) => [t.name, []]));
  const errors: string[] = [];
  const profiles = process.env.BENCH_PROFILE ? resolve(process.env.BENCH_PROFILE) : null;
  if (profiles) mkdirSync(profiles, { recursive: true });
  try {
    const count = Number(process.env.BENCH_RUNS ?? 3);
    for (let i = 0; i < count * targets.length; i++) {
      const { name, pipeline, url } = targets[i % targets.length]!;
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
      const profileTo = profiles
        ? join(profiles, `${name}-${Math.floor(i / targets.length) + 1}.cpuprofile`)
        : undefined;
      runs.get(name)!.push(await openAndDrag(page, url, profileTo));
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
  const summary = (list: readonly TRun[]) => {
    const frames = list.flatMap((r) => r.frames);
    return {
      firstNode: median(list.map((r) => r.firstNode)),
      allNodes: median(list.map((r) => r.allNodes)),
      laidOut: median(list.map((r) => r.laidOut)),
      interactive: median(list.map((r) => r.interactive)),
      frames: frames.length,
      dragMedian: median(frames),
      dragP95: percentile(frames, 95),
    };
  };
  return {
    dist,
    runs: Number(process.env.BENCH_RUNS ?? 3),
    results: new Map([...runs].map(([name, list]) => [name, summary(list)])),
  };
}

/** The browser half of this bench, both cases, for the web bench (bench/web.bench.ts). */
export function benchEditor() {
  return benchBrowser([
    { name: 'placed', pipeline: buildLargePipeline(Stages, true) },
    { name: 'unplaced', pipeline: buildLargePipeline(Stages, false) },
  ]);
}

const load = () =>
  loadavg()
    .map((value) => value.toFixed(1))
    .join(' / ');

export default async function run(): Promise<void> {
  const placed = buildLargePipeline(Stages, true);
  const unplaced = buildLargePipeline(Stages, false);
  const machine = `${cpus().length} × ${cpus()[0]?.model.trim() ?? 'CPU'}, Node ${process.version}`;
  const loadBefore = load();
  const layout = await benchLayout(unplaced);
  const browser = await benchBrowser([
    { name: 'placed', pipeline: placed },
    { name: 'unplaced', pipeline: unplaced },
  ]);
  const withPositions = browser.results.get('placed')!;
  const without = browser.results.get('unplaced')!;
  const plainPlaced = browser.results.get(plainOf('placed'))!;
  const plainWithout = browser.results.get(plainOf('unplaced'))!;
  print(`${Stages} stages, ${unplaced.edges.length} connections; ${machine}`);
  print(`Load average (1 / 5 / 15 min) at the start ${loadBefore}, at the end ${load()}`);
  print(
    `Chromium headless, software rendering, 1440×900; ${browser.runs} runs per case (medians), each beside the plain page (no framework: elk in a worker, a div per stage, a path per link); app: ${browser.dist}\n`,
  );
  print('| measure | saved with positions | saved without positions |');
  print('|---|---|---|');
  print(`| layoutGraph in Node, cold (loads elk) / warm (median of 5) | — | ${ms(layout.cold)} / ${ms(layout.warm)} |`);
  const row = (label: string, pick: (r: typeof without) => number) =>
    print(
      `| ${label} | ${besidePlain(pick(withPositions), pick(plainPlaced))} | ${besidePlain(pick(without), pick(plainWithout))} |`,
    );
  row('navigation → first stage visible', (r) => r.firstNode);
  row('navigation → every node in view drawn (node count settled)', (r) => r.allNodes);
  row('navigation → laid out (stages apart, no layout pending)', (r) => r.laidOut);
  row(`navigation → interactive (no long task for ${QuietMs} ms)`, (r) => r.interactive);
  print(
    `| drag: frame time median / p95 | ${ms(withPositions.dragMedian)} / ${ms(withPositions.dragP95)} (${withPositions.frames} frames) | ${ms(without.dragMedian)} / ${ms(without.dragP95)} (${without.frames} frames) |`,
  );
}
