// The build's prerendered pages: `/` and `/login` rendered to HTML after the client build.
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import react from '@vitejs/plugin-react';
import { build, type Plugin, type Rollup } from 'vite';

type OutputBundle = Rollup.OutputBundle;

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

/** The CSS a chunk and its static imports bring, from the bundle Vite wrote. */
function chunkCss(bundle: OutputBundle, fileName: string, seen = new Set<string>()): string[] {
  const output = bundle[fileName];
  if (seen.has(fileName) || output?.type !== 'chunk') return [];
  seen.add(fileName);
  return [
    ...output.imports.flatMap((imported) => chunkCss(bundle, imported, seen)),
    ...(output.viteMetadata?.importedCss ?? []),
  ];
}

/**
 * After the client build, renders the landing page and `/login` to static HTML once per language
 * (src/app/prerender/{landing,login}.tsx, built for Node with the same plugins), written to
 * `dist/landing/{language}.html` and `dist/login/{language}.html`; the server sends them for `/` and
 * `/login`, so they paint without the app bundle.
 */
export function prerenderPages(): Plugin {
  let root = '';
  let outDir = '';
  let ssr = false;
  /** The CSS files of each page's lazy route chunks, which index.html does not link. */
  const routeCss = { landing: [] as string[], login: [] as string[] };
  return {
    name: 'stageline-prerender-pages',
    apply: 'build',
    configResolved(config) {
      root = config.root;
      outDir = path.resolve(config.root, config.build.outDir);
      ssr = Boolean(config.build.ssr);
    },
    writeBundle(_options, bundle) {
      const chunkOf = (suffix: string) =>
        Object.values(bundle).find((output) => output.type === 'chunk' && output.facadeModuleId?.endsWith(suffix));
      const cssOf = (...suffixes: string[]) => {
        const seen = new Set<string>();
        const css = suffixes.flatMap((suffix) => {
          const chunk = chunkOf(suffix);
          return chunk ? chunkCss(bundle, chunk.fileName, seen) : [];
        });
        return [...new Set(css)].map((file) => `/${file}`);
      };
      const entry = Object.values(bundle).find((output) => output.type === 'chunk' && output.isEntry);
      const linked = new Set(entry ? chunkCss(bundle, entry.fileName).map((file) => `/${file}`) : []);
      const ownCss = (...suffixes: string[]) => cssOf(...suffixes).filter((href) => !linked.has(href));
      routeCss.landing = ownCss('app/layouts/public-layout.tsx', 'features/public/routes/landing.tsx');
      routeCss.login = ownCss('app/layouts/auth-layout.tsx', 'features/auth/routes/login.tsx');
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
          ssr: true,
          outDir: ssrDir,
          emptyOutDir: true,
          target: 'node20',
          rollupOptions: {
            input: { landing: 'src/app/prerender/landing.tsx', login: 'src/app/prerender/login.tsx' },
            output: { entryFileNames: '[name].mjs' },
            // This bundle runs once, in Node, and is deleted: it renders every language, so it
            // imports Russian statically where the app's i18n loads it lazily, and how its chunks
            // split does not matter (docs/decisions.md, entry 129).
            onLog(level, log, handler) {
              if (log.code !== 'INEFFECTIVE_DYNAMIC_IMPORT') handler(level, log);
            },
          },
        },
      });
      const load = async <T>(name: string) => (await import(pathToFileURL(path.join(ssrDir, `${name}.mjs`)).href)) as T;
      const landing = await load<{
        renderLandingPage: (
          template: string,
          language: string,
          options: { stylesheets: string[]; withoutScript: { light: string; dark: string } },
        ) => string;
      }>('landing');
      const login = await load<{
        renderLoginPage: (template: string, language: string, options: { stylesheets: string[] }) => string;
      }>('login');
      const template = await readFile(path.join(outDir, 'index.html'), 'utf8');
      const indexCss = [...template.matchAll(/<link rel="stylesheet"[^>]*href="([^"]+)"/g)].map((m) => m[1]!);
      const css = await Promise.all(
        [...indexCss, ...routeCss.landing].map((href) => readFile(path.join(outDir, href.replace(/^\//, '')), 'utf8')),
      );
      await mkdir(path.join(outDir, 'landing'), { recursive: true });
      await mkdir(path.join(outDir, 'login'), { recursive: true });
      for (const scheme of ['light', 'dark'] as const) {
        await writeFile(path.join(outDir, 'landing', `${scheme}.css`), schemeWithoutScript(css.join('\n'), scheme));
      }
      for (const language of prerenderLanguages) {
        const page = landing.renderLandingPage(template, language, {
          stylesheets: routeCss.landing,
          withoutScript: { light: '/landing/light.css', dark: '/landing/dark.css' },
        });
        await writeFile(path.join(outDir, 'landing', `${language}.html`), page);
        const loginPage = login.renderLoginPage(template, language, { stylesheets: routeCss.login });
        await writeFile(path.join(outDir, 'login', `${language}.html`), loginPage);
      }
      await rm(ssrDir, { recursive: true, force: true });
    },
  };
}
