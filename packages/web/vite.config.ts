// Vite's build of the web app. Its own plugins live in build/: the prerendered pages, the chunk
// groups of the first loads read from the module graph, English without identities, precompression.
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { chunkGroups } from './build/chunk-groups.ts';
import { englishWithoutIdentities } from './build/english-without-identities.ts';
import { firstLoadGroups } from './build/first-load-groups.ts';
import { precompress } from './build/precompress.ts';
import { prerenderPages } from './build/prerender-pages.ts';

const firstLoad = firstLoadGroups();

/** In development the API runs on :3000 (npm run dev -w @stageline/server) and is proxied. */
export default defineConfig({
  plugins: [react(), englishWithoutIdentities(), firstLoad.plugin, prerenderPages(), precompress()],
  server: {
    proxy: { '/api': { target: 'http://127.0.0.1:3000', changeOrigin: false } },
  },
  build: {
    target: 'es2022',
    sourcemap: true,
    manifest: true,
    // Two chunks pass Vite's default 500 kB, both loaded only where used: elk (1.5 MB) in the
    // editor's layout worker and zxcvbn's dictionaries (1.7 MB) when a new password is typed. What
    // a screen loads first is held by the size budget test (scripts/bundle-budget.test.ts), so this
    // warning would only repeat them on every build (docs/decisions.md, entry 129).
    chunkSizeWarningLimit: 1800,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [...firstLoad.groups, ...chunkGroups, firstLoad.shared],
        },
      },
    },
  },
});
