import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The server package's root folder, found from this module whether it runs from `src/` (tests,
 * tsx) or bundled into `dist/`: the migrations and the built web app are located from it.
 */
function findPackageRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!existsSync(path.join(dir, 'drizzle'))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('Cannot find the server package root (no drizzle/ folder above this module)');
    dir = parent;
  }
  return dir;
}

export const serverRoot = findPackageRoot();
export const migrationsDir = path.join(serverRoot, 'drizzle');
export const webDistDir = path.resolve(serverRoot, '../web/dist');
