import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { webDist } from './bundles';

/**
 * Global setup of the `bundles` test project: the budget is read from the web build's manifest, so
 * on a fresh clone (`npm ci && npm test`) the web app is built first. CI builds before `npm test`
 * and this finds the build there.
 */
export default function setup(): void {
  if (existsSync(join(webDist, '.vite', 'manifest.json'))) return;
  // Vitest sets NODE_ENV=test, under which Vite would bundle React's development build.
  execFileSync('npm', ['run', 'build', '-w', '@stageline/web'], {
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  });
}
