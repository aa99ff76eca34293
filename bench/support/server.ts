/**
 * The built server as `npm start` runs it (`packages/server/dist/main.js`), started by the benchmarks
 * in a child process on a free port.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
export const serverMain = join(root, 'packages/server/dist/main.js');

/**
 * The Node options `npm run serve` (what `npm start` ends with) passes before the entry file, read
 * from the root package.json so the benches start the server exactly so (docs/decisions.md 124).
 */
export function serveNodeOptions(): string[] {
  const { scripts } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: { serve: string } };
  const [node, ...rest] = scripts.serve.split(/\s+/);
  if (node !== 'node' || rest.at(-1) !== 'packages/server/dist/main.js') {
    throw new Error(`Unexpected serve script: ${scripts.serve}`);
  }
  return rest.slice(0, -1);
}

export type Server = { child: ChildProcess; url: string; exited: Promise<void> };

/** Builds the server (a second or two), so that what runs is the code checked out. */
export function ensureBuilt(): void {
  execFileSync('npm', ['run', 'build', '-w', '@stageline/server'], { cwd: root, stdio: 'ignore' });
}

/** Starts the built server on a free port; resolves once it logs that it listens. */
export async function startServer(env: Record<string, string>): Promise<Server & { startedAt: number }> {
  const startedAt = performance.now();
  const child = spawn(process.execPath, [...serveNodeOptions(), serverMain], {
    cwd: root,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let out = '';
  let err = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (match?.[1]) resolve(match[1]);
    });
    child.once('exit', () => reject(new Error(`The server exited.\n${out}\n${err}`)));
  });
  return { child, url, exited, startedAt };
}

/** The peak resident memory of a running process so far (the kernel's high-water mark), in MB. */
export async function peakRssOf(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? Number.NaN) / 1024;
}
