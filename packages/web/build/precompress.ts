import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin } from 'vite';

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

/**
 * Writes `.br` (quality 11) and `.gz` beside every script, stylesheet and page of the build, which
 * the server sends as they are (`preCompressed`) instead of compressing each response at a low
 * quality: smaller transfers and no compression work per request.
 */
export function precompress(): Plugin {
  let outDir = '';
  let ssr = false;
  return {
    name: 'stageline-precompress',
    apply: 'build',
    enforce: 'post',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
      ssr = Boolean(config.build.ssr);
    },
    // After the landing pages are written (closeBundle hooks otherwise run side by side).
    closeBundle: {
      order: 'post',
      sequential: true,
      async handler() {
        if (ssr) return;
        // Not the manifest under .vite/: the budget test reads it, no browser does.
        const files = (await readdir(outDir, { recursive: true })).filter(
          (file) => !file.startsWith('.vite') && /\.(js|css|html|svg|json)$/.test(file),
        );
        for (const file of files) {
          const source = await readFile(path.join(outDir, file));
          if (source.length < 1024) continue;
          await writeFile(
            path.join(outDir, `${file}.br`),
            await brotli(source, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
          );
          await writeFile(path.join(outDir, `${file}.gz`), await gzipped(source, { level: 9 }));
        }
      },
    },
  };
}
