import { defineConfig } from 'tsup';

/** Bundles the server into dist/main.js; the shared package (TypeScript source) is bundled in. */
export default defineConfig({
  entry: ['src/main.ts'],
  format: ['esm'],
  platform: 'node',
  target: 'node20',
  outDir: 'dist',
  sourcemap: true,
  clean: true,
  noExternal: ['@stageline/shared'],
});
