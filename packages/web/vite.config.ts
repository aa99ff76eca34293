import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
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

/** In development the API runs on :3000 (npm run dev -w @stageline/server) and is proxied. */
export default defineConfig({
  plugins: [react(), prerenderLanding()],
  server: {
    proxy: { '/api': { target: 'http://127.0.0.1:3000', changeOrigin: false } },
  },
  build: {
    target: 'es2022',
    sourcemap: true,
    chunkSizeWarningLimit: 800,
  },
});
