import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { build, defineConfig, type Plugin } from 'vite';

const prerenderLanguages = ['en', 'ru'] as const;
/**
 * The rules of one colour scheme in `css` rewritten to apply unconditionally
 * (`[data-mantine-color-scheme=dark]` becomes `:root`). Mantine keys both schemes on that attribute,
 * which only a script sets; linked inside `<noscript>` (dark with `media="(prefers-color-scheme:
 * dark)"`), they give a visitor without JavaScript a styled landing page in the system's scheme.
 */
function schemeWithoutScript(css: string, scheme: 'light' | 'dark'): string {
  const attribute = `\\[data-mantine-color-scheme=(['"]?)${scheme}\\1\\]`;
  const pattern = new RegExp(`:host\\(${attribute}\\)|${attribute}`, 'g');
  const rules: string[] = [];
  for (const [, selector = '', body = ''] of css.matchAll(/([^{}]+)\{([^{}]*)\}/g)) {
    const trimmed = selector.trim();
    if (trimmed.startsWith('@') || !trimmed.includes('data-mantine-color-scheme')) continue;
    const rewritten = trimmed.replace(pattern, ':root');
    if (rewritten !== trimmed) rules.push(`${rewritten}{${body}}`);
  }
  return rules.join('\n');
}

/**
 * After the client build, renders the landing page to static HTML once per language
 * (src/app/prerender/landing.tsx, built for Node with the same plugins), written to
 * `dist/landing/{language}.html`; the server sends it for `/` so it paints without the app bundle.
 */
function prerenderLanding(): Plugin {
  let root = '';
  let outDir = '';
  let ssr = false;
  /** The CSS files of the landing route's lazy chunk, which index.html does not link. */
  let landingCss: string[] = [];
  return {
    name: 'stageline-prerender-landing',
    apply: 'build',
    configResolved(config) {
      root = config.root;
      outDir = path.resolve(config.root, config.build.outDir);
      ssr = Boolean(config.build.ssr);
    },
    writeBundle(_options, bundle) {
      for (const output of Object.values(bundle)) {
        if (output.type === 'chunk' && output.facadeModuleId?.endsWith('features/public/routes/landing.tsx')) {
          landingCss = [...(output.viteMetadata?.importedCss ?? [])].map((file) => `/${file}`);
        }
      }
    },
    async closeBundle() {
      if (ssr) return;
      const ssrDir = path.join(root, 'node_modules', '.prerender');
      await build({
        root,
        configFile: false,
        logLevel: 'warn',
        plugins: [react()],
        build: {
          ssr: 'src/app/prerender/landing.tsx',
          outDir: ssrDir,
          emptyOutDir: true,
          target: 'node20',
          rollupOptions: { output: { entryFileNames: 'landing.mjs' } },
        },
      });
      const entry = (await import(pathToFileURL(path.join(ssrDir, 'landing.mjs')).href)) as {
        renderLandingPage: (
          template: string,
          language: string,
          options: { stylesheets: string[]; withoutScript: { light: string; dark: string } },
        ) => string;
      };
      const template = await readFile(path.join(outDir, 'index.html'), 'utf8');
      const indexCss = [...template.matchAll(/<link rel="stylesheet"[^>]*href="([^"]+)"/g)].map((m) => m[1]!);
      const css = await Promise.all(
        [...indexCss, ...landingCss].map((href) => readFile(path.join(outDir, href.replace(/^\//, '')), 'utf8')),
      );
      await mkdir(path.join(outDir, 'landing'), { recursive: true });
      for (const scheme of ['light', 'dark'] as const) {
        await writeFile(path.join(outDir, 'landing', `${scheme}.css`), schemeWithoutScript(css.join('\n'), scheme));
      }
      for (const language of prerenderLanguages) {
        const page = entry.renderLandingPage(template, language, {
          stylesheets: landingCss,
          withoutScript: { light: '/landing/light.css', dark: '/landing/dark.css' },
        });
        await writeFile(path.join(outDir, 'landing', `${language}.html`), page);
      }
      await rm(ssrDir, { recursive: true, force: true });
    },
  };
}

/** A pattern for module ids inside the named packages of node_modules (names may hold `*`). */
const inPackages = (...names: string[]) =>
  new RegExp(`[\\\\/]node_modules[\\\\/](${names.map((name) => name.replace('*', '[^\\\\/]*')).join('|')})[\\\\/]`);

/**
 * How the libraries are grouped into chunks, so a screen needs a handful of requests rather than
 * eighty: what every page needs first (React and the router, translations, queries, zod) in one
 * chunk each; the diagram editor's and the Markdown renderer's libraries apart, loaded by the
 * screens that draw them; Mantine split by the screens that share its parts, small parts merged into
 * their neighbours (so /login does not load the date pickers). The shared package's schemas and rules
 * are one chunk. Budgets: scripts/bundles.ts; docs/decisions.md, "Web speed".
 */
const chunkGroups = [
  { name: 'react', test: inPackages('react', 'react-dom', 'scheduler', 'react-router', 'cookie') },
  { name: 'i18n', test: inPackages('i18next', 'react-i18next', 'i18next-browser-languagedetector') },
  { name: 'query', test: inPackages('@tanstack/query-core', '@tanstack/react-query') },
  { name: 'zod', test: inPackages('zod') },
  { name: 'flow', test: inPackages('@xyflow/*', 'd3-*', 'classcat') },
  {
    name: 'markdown',
    test: inPackages(
      'react-markdown',
      'unified',
      'remark-*',
      'micromark*',
      'mdast-*',
      'hast-*',
      'unist-*',
      'vfile*',
      'property-information',
      'space-separated-tokens',
      'comma-separated-tokens',
      'decode-named-character-reference',
      'character-entities*',
      'zwitch',
      'longest-streak',
      'ccount',
      'markdown-table',
      'trim-lines',
      'devlop',
      'bail',
      'is-plain-obj',
      'trough',
      'html-url-attributes',
      'estree-util-is-identifier-name',
      'style-to-js',
      'style-to-object',
      'inline-style-parser',
      'escape-string-regexp',
    ),
  },
  {
    name: 'mantine',
    test: inPackages(
      '@mantine/core',
      '@mantine/hooks',
      '@floating-ui/*',
      'react-transition-group',
      'react-remove-scroll*',
      'use-sidecar',
      'use-callback-ref',
      'react-style-singleton',
      'get-nonce',
      'detect-node-es',
      'tslib',
      'clsx',
      'react-number-format',
      'react-textarea-autosize',
      '@babel/runtime',
      'use-composed-ref',
      'use-isomorphic-layout-effect',
      'use-latest',
    ),
    entriesAware: true,
    entriesAwareMergeThreshold: 20_000,
  },
].map((group, index, all) => ({ ...group, priority: all.length - index }));

/**
 * English translation files without the entries that map a key to itself (about 95 % of them): our
 * keys are the English text, and i18next answers a missing key with the key, interpolated, so the
 * app reads the same and downloads only the plural forms and contexts (docs/decisions.md, "Web speed").
 */
function englishWithoutIdentities(): Plugin {
  return {
    name: 'stageline-english-without-identities',
    enforce: 'pre',
    transform(code, id) {
      if (!/[\\/]locales[\\/]en[\\/][^\\/]+\.json$/.test(id)) return null;
      const entries = Object.entries(JSON.parse(code) as Record<string, string>);
      return { code: JSON.stringify(Object.fromEntries(entries.filter(([key, value]) => key !== value))), map: null };
    },
  };
}

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

/**
 * Writes `.br` (quality 11) and `.gz` beside every script, stylesheet and page of the build, which
 * the server sends as they are (`preCompressed`) instead of compressing each response at a low
 * quality: smaller transfers and no compression work per request.
 */
function precompress(): Plugin {
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

/** In development the API runs on :3000 (npm run dev -w @stageline/server) and is proxied. */
export default defineConfig({
  plugins: [react(), englishWithoutIdentities(), prerenderLanding(), precompress()],
  server: {
    proxy: { '/api': { target: 'http://127.0.0.1:3000', changeOrigin: false } },
  },
  build: {
    target: 'es2022',
    sourcemap: true,
    manifest: true,
    chunkSizeWarningLimit: 800,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            ...chunkGroups,
            {
              name: 'shared',
              test: /[\\/]packages[\\/]shared[\\/]src[\\/](?!i18n|markdown)/,
              priority: 0,
            },
          ],
        },
      },
    },
  },
});
