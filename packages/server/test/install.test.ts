import { readFileSync } from 'node:fs';
import path from 'node:path';
import semver from 'semver';
import { describe, expect, test } from 'vitest';
import { serverRoot } from '../src/package-paths';

/**
 * A fresh `npm ci` must print nothing a newcomer has to wonder about (docs/decisions.md, entry 58):
 * no package in the lockfile may refuse the oldest Node.js the README promises, and every install
 * script must be reviewed in the root's `allowScripts`.
 */
const repoRoot = path.resolve(serverRoot, '../..');

type LockPackage = { version?: string; engines?: { node?: string }; hasInstallScript?: boolean };
type RootPackage = { engines: { node: string }; allowScripts?: Record<string, boolean> };

const root = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as RootPackage;
const lock = JSON.parse(readFileSync(path.join(repoRoot, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, LockPackage>;
};

/** `node_modules/a/node_modules/@b/c` → `@b/c` */
function nameOf(lockPath: string): string {
  return lockPath.slice(lockPath.lastIndexOf('node_modules/') + 'node_modules/'.length);
}

describe('npm ci on the oldest supported Node.js', () => {
  const oldestNode = semver.minVersion(root.engines.node)?.version ?? '';

  test('every locked package accepts it', () => {
    expect(oldestNode).toBe('20.19.0');
    const refusing = Object.entries(lock.packages)
      .filter(([, pkg]) => pkg.engines?.node && !semver.satisfies(oldestNode, pkg.engines.node))
      .map(([lockPath, pkg]) => `${nameOf(lockPath)}@${pkg.version ?? '?'} wants node ${pkg.engines?.node}`);
    expect(refusing).toEqual([]);
  });

  test('every install script is covered by allowScripts', () => {
    const allowed = root.allowScripts ?? {};
    const unreviewed = Object.entries(lock.packages)
      .filter(([lockPath, pkg]) => pkg.hasInstallScript && lockPath !== '')
      .map(([lockPath, pkg]) => ({ name: nameOf(lockPath), version: pkg.version ?? '' }))
      .filter(({ name, version }) => !(name in allowed) && !(`${name}@${version}` in allowed))
      .map(({ name, version }) => `${name}@${version}`);
    expect(unreviewed).toEqual([]);
  });
});
