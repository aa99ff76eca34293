import { readFileSync } from 'node:fs';
import path from 'node:path';
import { serverRoot } from './package-paths';

/** The running version, from the server package's package.json (kept equal across workspaces). */
export const version: string = (
  JSON.parse(readFileSync(path.join(serverRoot, 'package.json'), 'utf8')) as { version: string }
).version;
