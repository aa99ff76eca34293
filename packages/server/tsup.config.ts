import { defineConfig } from 'tsup';

/**
 * Bundles the server into dist/main.js, the admin commands into dist/admin.js (docs/operations.md), and the chunks it imports when needed (the app, the PostgreSQL
 * driver: docs/decisions.md, 166); the shared package (TypeScript source) is bundled in.
 * `sideEffects: false` and pure annotations are for the browser's bundle (docs/decisions.md, entries
 * 93 and 129); here every imported module runs, as under Node, so the shared package's zod setup
 * (`import './validation'`) can never be dropped, and the build has nothing to warn about.
 */
export default defineConfig({
  entry: { main: 'src/main.ts', admin: 'src/admin/cli.ts' },
  format: ['esm'],
  platform: 'node',
  target: 'node20',
  outDir: 'dist',
  sourcemap: true,
  clean: true,
  noExternal: ['@stageline/shared'],
  esbuildOptions(options) {
    options.ignoreAnnotations = true;
  },
});
