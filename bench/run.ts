/**
 * `npm run bench`: runs every `bench/*.bench.ts` (or those named on the command line, e.g.
 * `npm run bench -- pipeline-editor`) one after another. A benchmark module exports
 * `default async function run(): Promise<void>` and prints its own markdown table.
 */
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** Results go to stdout as markdown (no console: the linter keeps it for debugging). */
const print = (line: string) => process.stdout.write(`${line}\n`);

type TBenchModule = { default: () => Promise<void> };

const here = dirname(fileURLToPath(import.meta.url));
const wanted = process.argv.slice(2);
const files = readdirSync(here)
  .filter((file) => file.endsWith('.bench.ts'))
  .filter((file) => wanted.length === 0 || wanted.some((name) => file.startsWith(name)))
  .sort();

if (files.length === 0) {
  process.stderr.write(`No benchmark matches ${wanted.join(', ') || 'bench/*.bench.ts'}\n`);
  process.exit(1);
}

for (const file of files) {
  print(`\n## ${file.replace(/\.bench\.ts$/, '')}\n`);
  const module = (await import(pathToFileURL(join(here, file)).href)) as TBenchModule;
  await module.default();
}
