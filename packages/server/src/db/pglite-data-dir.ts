import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdir, rename, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';

/**
 * The embedded database's settings and how a new data directory is made (decisions 110 and 111):
 * apart from `index.ts`, which opens either database, because this part runs a child process and
 * knows PGlite's file systems.
 */

/**
 * Server settings of the embedded database (decision 110), given on its command line so they hold
 * for data directories made before them too. PGlite's WASM heap never shrinks, and PostgreSQL
 * touches all of `shared_buffers` when it starts: at PGlite's 128 MB it cost 150 MB of resident
 * memory before the first query. The data files stay in the operating system's cache, so a page
 * missing from the 16 MB pool costs a read from memory, not from disk. `maintenance_work_mem` bounds
 * what an index build or VACUUM may take from the heap for good.
 */
export const PgliteSettings: Readonly<Record<string, string>> = {
  shared_buffers: '16MB',
  maintenance_work_mem: '16MB',
};

const pgliteSettingParams = () => Object.entries(PgliteSettings).flatMap(([name, value]) => ['-c', `${name}=${value}`]);
export const pgliteStartParams = () => [...PGlite.defaultStartParams, ...pgliteSettingParams()];

/**
 * What the child of `createPgliteDataDir` runs (CommonJS, so it needs no loader): PGlite with the
 * data directory mounted as its `NodeFS` does, but through a subclass of `MemoryFS`, for which PGlite
 * lets `initdb` write straight into the mounted directory; for `NodeFS` it makes the database in
 * memory and copies it over as a tar, 200 MB more at the peak. Arguments: PGlite's path, the
 * directory, the options as JSON.
 */
const createDataDirScript = `
const path = require('node:path');
const { PGlite, MemoryFS } = require(process.argv[1]);
const root = path.resolve(process.argv[2]);
class DirectoryFS extends MemoryFS {
  async init(pg, options) {
    this.pg = pg;
    const mount = (mod) => {
      mod.FS.mkdirTree('/pglite/data');
      mod.FS.mount(mod.NODEFS, { root }, '/pglite/data');
    };
    return { emscriptenOpts: { ...options, preRun: [...(options.preRun || []), mount] } };
  }
}
require('node:fs').mkdirSync(root, { recursive: true });
PGlite.create({ ...JSON.parse(process.argv[3]), fs: new DirectoryFS() })
  .then((db) => db.close())
  .catch((error) => {
    process.stderr.write(String((error && error.stack) || error));
    process.exitCode = 1;
  });
`;

/**
 * Creates a new PGlite data directory in a child process (decision 110). PGlite's `initdb` runs a
 * second PostgreSQL beside a copy of its whole heap, about 500 MB for a few seconds, which a process
 * would keep (V8 gives it back only after a full collection, and a WASM heap never). The child's
 * memory goes back to the system when it exits, and the server opens the finished directory like
 * any other. It is made under a temporary name of its own and renamed, so a first start killed
 * halfway leaves no half-made `pgdata` that would later pass for a database, and a child left running
 * by a killed server writes only into its own directory, which the next start removes.
 */
export async function createPgliteDataDir(target: string): Promise<void> {
  const parent = path.dirname(target);
  const prefix = `${path.basename(target)}.partial`;
  for (const entry of await readdir(parent)) {
    if (entry.startsWith(prefix)) await rm(path.join(parent, entry), { recursive: true, force: true });
  }
  const partial = path.join(parent, `${prefix}-${process.pid}-${randomBytes(4).toString('hex')}`);
  const options = { startParams: pgliteStartParams(), initDbStartParams: pgliteSettingParams() };
  const pglite = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  await new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', createDataDirScript, pglite, partial, JSON.stringify(options)], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (text: string) => {
      stderr = (stderr + text).slice(-4000);
    });
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (code === 0) resolve();
      else reject(new Error(`Creating the embedded database failed (${signal ?? `exit code ${code}`}): ${stderr}`));
    });
  });
  await rename(partial, target);
}
