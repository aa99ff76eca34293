// One file: Vite reads its build from here, and its plugins (prerendered pages, first-load chunk groups read from the module graph, English without identities, precompression) serve only this build.
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import react from '@vitejs/plugin-react';
import type { PluginContext } from 'rolldown';
import { build, defineConfig, type Plugin, type Rollup } from 'vite';

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
function prerenderPages(): Plugin {
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

/** A pattern for module ids inside the named packages of node_modules (names may hold `*`). */
const inPackages = (...names: string[]) =>
  new RegExp(`[\\\\/]node_modules[\\\\/](${names.map((name) => name.replace('*', '[^\\\\/]*')).join('|')})[\\\\/]`);

const webRoot = import.meta.dirname;

const tablerIcons = inPackages('@tabler/icons-react');

/** Our shared package's schemas and rules (not its translations or Markdown helpers). */
const sharedModule = /[\\/]packages[\\/]shared[\\/]src[\\/](?!i18n|markdown)/;

/**
 * How the libraries are grouped into chunks, so a screen needs a handful of requests rather than
 * eighty: React, the router and i18next together (every page needs them first); TanStack Query and
 * zod one chunk each (the shell and the landing page load them first, /login after its first render:
 * docs/decisions.md, entry 118); dayjs apart (the screens that show dates load it, and the app sets its locale once
 * it arrives); the diagram editor's and the Markdown renderer's libraries apart, loaded by the
 * screens that draw them; Mantine split by the screens that share its parts, small parts merged into
 * their neighbours (so /login does not load the date pickers). What the first loads use of Mantine,
 * of our code and of the shared package is grouped by `firstLoadGroups`. Budgets: scripts/bundles.ts;
 * docs/decisions.md, "Web speed".
 */
const chunkGroups = [
  {
    name: 'framework',
    test: inPackages(
      'react',
      'react-dom',
      'scheduler',
      'react-router',
      'cookie',
      'i18next',
      'react-i18next',
      'i18next-browser-languagedetector',
    ),
  },
  { name: 'query', test: inPackages('@tanstack/query-core', '@tanstack/react-query') },
  {
    // With the shared package's zod setup (issues' messages as i18n keys), which only zod's users need.
    name: 'zod',
    test: new RegExp(`${inPackages('zod').source}|[\\\\/]packages[\\\\/]shared[\\\\/]src[\\\\/]validation\\.ts$`),
    // Not what the setup imports (the limits): the first load has them.
    includeDependenciesRecursively: false,
  },
  { name: 'dayjs', test: inPackages('dayjs') },
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
].map((group, index, all) => ({ ...group, priority: (all.length - index) * 10 }));

/** What one module takes from another: named bindings, or everything (`null`: a namespace, a bare import). */
type TWanted = Set<string> | null;
type TModuleLinks = {
  /** Modules this one imports, with the bindings it takes from each. */
  imports: Map<string, TWanted>;
  /** Re-exports: the target, and this module's exported name → the target's name (`null`: `export *`). */
  reexports: { target: string; names: Map<string, string> | null }[];
  /** The names the module exports, as the bundler lists them. */
  exports: string[];
  /** A barrel (only imports and exports) that some module imports dynamically. */
  lazyBarrel: boolean;
};

const importPattern = /\bimport\s*(?:([\w$]+)\s*,?\s*)?(\*\s*as\s+[\w$]+|\{[^}]*\})?\s*(?:from\s*)?["']([^"']+)["']/g;
const reexportPattern = /\bexport\s*(\*(?:\s*as\s+[\w$]+)?|\{[^}]*\})\s*from\s*["']([^"']+)["']/g;

const localExportPattern = /\bexport\s*(\{[^}]*\})(?!\s*from)/g;

/** Whether `code` holds nothing but import and export statements (and comments). */
function isBarrel(code: string): boolean {
  if (!code) return false;
  const rest = code
    .replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g, '')
    .replace(importPattern, '')
    .replace(reexportPattern, '')
    .replace(localExportPattern, '')
    .replace(/[\s;]/g, '');
  return rest === '';
}

/** `{ a, b as c, type d }` → [['a','a'], ['b','c']] (imported or local name first, the other second). */
function bindings(list: string): [string, string][] {
  return list
    .replace(/[{}]/g, '')
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part && !part.startsWith('type '))
    .map((part) => {
      const [from = '', to = from] = part.split(/\s+as\s+/);
      return [from.trim(), to.trim()];
    });
}

const sideEffectsOfPackage = new Map<string, boolean | string[] | undefined>();

/**
 * Whether the package holding `id` declares it free of side effects (`"sideEffects": false`, or a
 * list of patterns such as `["*.css"]` that `id` does not match), as the bundler reads it.
 */
function withoutSideEffects(id: string): boolean {
  let dir = path.dirname(id);
  while (!existsSync(path.join(dir, 'package.json'))) {
    const parent = path.dirname(dir);
    if (parent === dir) return false;
    dir = parent;
  }
  const file = path.join(dir, 'package.json');
  if (!sideEffectsOfPackage.has(file)) {
    const declared = (JSON.parse(readFileSync(file, 'utf8')) as { sideEffects?: boolean | string[] }).sideEffects;
    sideEffectsOfPackage.set(file, declared);
  }
  const declared = sideEffectsOfPackage.get(file);
  if (declared === false) return true;
  if (!Array.isArray(declared)) return false;
  const name = path.basename(id);
  return !declared.some((pattern) =>
    new RegExp(`^${pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*')}$`).test(
      pattern.includes('/') ? path.relative(dir, id) : name,
    ),
  );
}

/**
 * Every module's static imports with the bindings taken from each, read from the transformed code
 * (plain ES module syntax by then). A link the patterns miss counts as taking everything, so the
 * closure below can only come out larger than the truth, never smaller.
 */
async function readImportGraph(context: PluginContext): Promise<Map<string, TModuleLinks>> {
  const graph = new Map<string, TModuleLinks>();
  for (const id of context.getModuleIds()) {
    const info = context.getModuleInfo(id);
    if (!info) continue;
    const links: TModuleLinks = { imports: new Map(), reexports: [], exports: info.exports ?? [], lazyBarrel: false };
    graph.set(id, links);
    const code = /\.(m?[jt]sx?)$/.test(id) ? (info.code ?? '') : '';
    const resolve = async (specifier: string) => (await context.resolve(specifier, id))?.id;
    const reexported = new Set<string>();
    for (const [, list, target] of code.matchAll(reexportPattern)) {
      const resolved = await resolve(target!);
      if (!resolved) continue;
      const star = list!.startsWith('*');
      const names = star && !list!.includes(' as ') ? null : new Map<string, string>();
      if (star && names) names.set(list!.split(/\s+as\s+/)[1]!.trim(), '*');
      if (!star) for (const [from, to] of bindings(list!)) names!.set(to, from);
      links.reexports.push({ target: resolved, names });
      reexported.add(resolved);
    }
    // A barrel (only imports and exports, as Mantine's `index.mjs` is): each import is a re-export.
    const barrel = isBarrel(code);
    links.lazyBarrel = barrel && info.dynamicImporters.length > 0;
    const locals = new Map<string, { target: string; name: string }>();
    const taken = new Map<string, TWanted>();
    const bareWithoutEffects = new Set<string>();
    for (const [statement, defaultName, rest] of code.matchAll(importPattern)) {
      if (statement.startsWith('import(')) continue;
      const target = await resolve(statement.match(/["']([^"']+)["']$/)![1]!);
      if (!target) continue;
      let wanted: TWanted = new Set<string>();
      if (defaultName) wanted.add('default');
      if (rest?.startsWith('{')) for (const [from] of bindings(rest)) wanted.add(from);
      else if (rest || !defaultName) wanted = null;
      // A bare import (`import './validation'` in the shared package's index) of a module without
      // side effects: the bundler drops it, so it makes no one use the module.
      if (!defaultName && !rest && withoutSideEffects(target)) {
        bareWithoutEffects.add(target);
        continue;
      }
      // A namespace a barrel re-exports (`import * as index from …; export { index as icons }`, as
      // Tabler's icons do): counted only when someone takes the name it is exported under.
      if (barrel && rest?.startsWith('*')) {
        locals.set(rest.split(/\s+as\s+/)[1]!.trim(), { target, name: '*' });
        continue;
      }
      if (barrel && wanted !== null) {
        if (defaultName) locals.set(defaultName, { target, name: 'default' });
        for (const [from, local] of bindings(rest ?? '')) locals.set(local, { target, name: from });
        continue;
      }
      const before = taken.get(target);
      taken.set(target, before === null || wanted === null ? null : new Set([...(before ?? []), ...wanted]));
    }
    for (const [, list] of code.matchAll(localExportPattern)) {
      for (const [local, exported] of bindings(list!)) {
        const source = locals.get(local);
        if (!source) continue;
        links.reexports.push({ target: source.target, names: new Map([[exported, source.name]]) });
        reexported.add(source.target);
      }
    }
    for (const target of info.importedIds) {
      if (taken.has(target)) links.imports.set(target, taken.get(target)!);
      else if (!reexported.has(target) && !bareWithoutEffects.has(target)) links.imports.set(target, null);
    }
  }
  return graph;
}

/**
 * The modules `roots` need before they run: their static imports, followed through, except that a
 * re-export is followed only when someone takes the name it exports. A feature's `index.ts` re-exports
 * a dozen components; the app's entry takes one or two, and only those count as its first load.
 */
function usedClosure(graph: Map<string, TModuleLinks>, roots: string[]): Set<string> {
  const wanted = new Map<string, TWanted>();
  /** The names a module exports, with those of its `export *` targets (but their defaults). */
  const exported = new Map<string, Set<string>>();
  const exportsOf = (id: string): Set<string> => {
    let names = exported.get(id);
    if (names) return names;
    names = new Set(graph.get(id)?.exports ?? []);
    exported.set(id, names);
    for (const { target, names: map } of graph.get(id)?.reexports ?? []) {
      if (map === null) for (const name of exportsOf(target)) if (name !== 'default') names.add(name);
    }
    return names;
  };
  const visit = (id: string, names: TWanted) => {
    const before = wanted.get(id);
    if (before === null) return;
    if (before && names && [...names].every((name) => before.has(name))) return;
    const now = names === null ? null : new Set([...(before ?? []), ...names]);
    wanted.set(id, now);
    const links = graph.get(id);
    if (!links) return;
    for (const [target, taken] of links.imports) visit(target, taken);
    for (const { target, names: map } of links.reexports) {
      if (map === null) {
        // `export *`: followed for the names asked for that the target has (the shared package's
        // index re-exports every file; a page taking `paths` does not use the units' schemas).
        if (now === null) visit(target, null);
        else {
          const has = exportsOf(target);
          // A target whose exports the bundler does not list counts as having every name.
          const passed = has.size ? [...now].filter((name) => has.has(name)) : [...now];
          if (passed.length) visit(target, new Set(passed));
        }
      } else {
        const passed = [...map].filter(([exported]) => now === null || now.has(exported)).map(([, from]) => from);
        if (passed.includes('*')) visit(target, null);
        else if (passed.length) visit(target, new Set(passed));
      }
    }
  };
  for (const root of roots) {
    if (!graph.has(root)) throw new Error(`${root} is not in the module graph`);
    visit(root, null);
  }
  return new Set(wanted.keys());
}

/**
 * The modules under packages/web/src whose static imports make up the first load of /login. The other
 * auth screens (registration, password reset, the OAuth return) are not in the groups: what they
 * alone use travels with them, not on /login's first load (docs/decisions.md, entry 118).
 */
const authRouteModules = ['src/app/layouts/auth-layout.tsx', 'src/features/auth/routes/login.tsx'];

/** The other auth screens: what they share with the shell or the landing page is in `pages`. */
const otherAuthRouteModules = [
  'src/features/auth/routes/register.tsx',
  'src/features/auth/routes/reset-password.tsx',
  'src/features/auth/routes/oauth-return.tsx',
];

/**
 * The modules under packages/web/src whose static imports make up the first load of the landing page,
 * with the session guard of the public pages that act for a user (an invite link).
 */
const publicRouteModules = [
  'src/app/layouts/public-layout.tsx',
  'src/features/public/routes/landing.tsx',
  'src/features/auth/routes/session-guard.tsx',
];

/** The module under packages/web/src whose static imports make up the `/app` shell's first load. */
const shellRouteModule = 'src/app/layouts/app-layout.tsx';

/**
 * The header switchers' menu, loaded after the first render (docs/decisions.md, entry 118): the
 * Mantine parts it needs that no first load has (Menu, Popover, Floating UI) are one chunk,
 * `mantine-menu`, so /login fetches them alone when idle, not with the shell's.
 */
const switcherMenuModule = 'src/shared/ui/switcher-menu.tsx';

/**
 * What /login fetches after its first render (docs/decisions.md, entry 118): the shared schemas with
 * zod, the config's check, the code step, the OAuth buttons, the session with TanStack Query. What
 * they need that the first load has not goes to `pages` when the shell, the landing page or another
 * auth screen also use it (the session's hooks, the query client), else to `later` (the code step,
 * the schemas' module, the OAuth buttons), so these fetches do not pull in the shell's chunks.
 */
const loginLaterModules = [
  'src/features/auth/schemas.ts',
  'src/app/public-config.ts',
  'src/features/auth/components/otp-step.tsx',
  'src/features/auth/components/oauth-buttons.tsx',
  'src/features/auth/session/session.ts',
  'src/features/auth/session/session-keeper.tsx',
];

/**
 * Groups that keep the first loads to a few requests and to what they use (docs/decisions.md,
 * entries 101 and 106), from what the entry, the auth screens, the `/app` shell and the landing
 * page use (`usedClosure`). What the entry uses, or /login and another kind of page, is the first
 * load of every page: `mantine-first` holds its Mantine parts, `first` the rest that no library group
 * takes (our api client, the switchers, the shared package's rules, the icons they draw). What two of
 * the shell, the landing page and the other auth screens use and /login does not (the session's
 * hooks, the avatar, the query provider) is `pages`, Mantine's parts and ours in one; what /login
 * fetches after its first render is `later` or `pages`, its menu `mantine-menu` (entry 118). What
 * only /login uses is `auth` and `mantine-auth` (`@mantine/form`, the form's errors), what only the
 * shell uses `shell` and `mantine-shell` (the command palette, the live stream, the sidebar), what
 * only the landing page uses `public` and `mantine-public`: none loads another's. The rest of Mantine stays split by screens (so /login
 * does not load the date pickers), the rest of the shared package is `shared`, the other icons
 * `icons`. Without these groups rolldown would cut a chunk per set of importers, and the
 * `entriesAware` Mantine split merges parts under 20 kB into neighbours another screen needs. The
 * module graph is read once it is complete (`buildEnd`), before chunks are formed; the groups' tests
 * consult it.
 */
function firstLoadGroups() {
  const entryModule = path.resolve(webRoot, 'src/main.tsx');
  const authRoots = authRouteModules.map((file) => path.resolve(webRoot, file));
  const otherAuthRoots = otherAuthRouteModules.map((file) => path.resolve(webRoot, file));
  const shellRoot = path.resolve(webRoot, shellRouteModule);
  const publicRoots = publicRouteModules.map((file) => path.resolve(webRoot, file));
  const menuRoot = path.resolve(webRoot, switcherMenuModule);
  const laterRoots = loginLaterModules.map((file) => path.resolve(webRoot, file));
  const roots = new Set([entryModule, ...authRoots, shellRoot, ...publicRoots, menuRoot]);
  let publicClosure = new Set<string>();
  let menuClosure = new Set<string>();
  let laterClosure = new Set<string>();
  let entryClosure = new Set<string>();
  let authClosure = new Set<string>();
  let otherAuthClosure = new Set<string>();
  let shellClosure = new Set<string>();
  /**
   * Barrels imported dynamically (`import('@mantine/notifications')` for the toasts' container):
   * kept out of the groups, or the group's chunk would import, through the barrel, what the dynamic
   * import is there to load later. A barrel has no code; it only lands in its own small chunk.
   */
  let lazyBarrels = new Set<string>();
  const first = (id: string) =>
    entryClosure.has(id) || (authClosure.has(id) && (shellClosure.has(id) || publicClosure.has(id)));
  const pagesOnly = (id: string) =>
    !first(id) && [otherAuthClosure, shellClosure, publicClosure].filter((closure) => closure.has(id)).length > 1;
  const authOnly = (id: string) => authClosure.has(id) && !first(id);
  const shellOnly = (id: string) => shellClosure.has(id) && !first(id) && !authClosure.has(id) && !pagesOnly(id);
  const publicOnly = (id: string) =>
    publicClosure.has(id) && !first(id) && !authClosure.has(id) && !shellClosure.has(id);
  const mantine = chunkGroups.find((group) => group.name === 'mantine')!;
  const library = (id: string) => chunkGroups.some((group) => group.test.test(id));
  const ours = (id: string) => !library(id) && !roots.has(id) && !lazyBarrels.has(id);
  /** What /login fetches after its first render and neither its first load nor the switchers' menu has. */
  const laterOnly = (id: string) =>
    (mantine.test.test(id) || ours(id)) &&
    laterClosure.has(id) &&
    !entryClosure.has(id) &&
    !authClosure.has(id) &&
    !menuClosure.has(id);
  const plugin: Plugin = {
    name: 'stageline-first-load-groups',
    apply: 'build',
    async buildEnd() {
      const graph = await readImportGraph(this);
      entryClosure = usedClosure(graph, [entryModule]);
      authClosure = usedClosure(graph, authRoots);
      otherAuthClosure = usedClosure(graph, otherAuthRoots);
      shellClosure = usedClosure(graph, [shellRoot]);
      publicClosure = usedClosure(graph, publicRoots);
      menuClosure = usedClosure(graph, [menuRoot]);
      laterClosure = usedClosure(graph, laterRoots);
      lazyBarrels = new Set([...graph].filter(([, links]) => links.lazyBarrel).map(([id]) => id));
    },
  };
  // Priorities: a group also takes the modules its modules import unless a group before it took them,
  // so the first-load Mantine groups come after the framework's group and before Mantine's; `first`,
  // `auth`, `shell` and `public` come before `shared` (which would take the rules they use) and
  // leave what their modules import where it is (libraries' chunks), or they would pull them out.
  const groups = [
    {
      // With the few small parts of the switchers' menu that the other auth screens, the public pages
      // or what /login loads later also use (a safe context, a merged ref), so that those do not load
      // the whole menu for them.
      name: 'mantine-first',
      test: (id: string) =>
        mantine.test.test(id) &&
        (first(id) ||
          (menuClosure.has(id) && (otherAuthClosure.has(id) || publicClosure.has(id) || laterClosure.has(id)))),
      priority: mantine.priority + 11,
    },
    {
      name: 'mantine-menu',
      test: (id: string) => mantine.test.test(id) && menuClosure.has(id) && !first(id),
      priority: mantine.priority + 9,
    },
    {
      name: 'later',
      test: (id: string) => laterOnly(id) && !shellClosure.has(id) && !publicClosure.has(id),
      priority: mantine.priority + 7,
      includeDependenciesRecursively: false,
    },
    {
      // With the session (its hooks and the query client), which /login loads after its first render.
      name: 'pages',
      test: (id: string) =>
        (mantine.test.test(id) || ours(id)) &&
        (pagesOnly(id) || (laterOnly(id) && (shellClosure.has(id) || publicClosure.has(id)))),
      priority: mantine.priority + 6,
      includeDependenciesRecursively: false,
    },
    {
      name: 'mantine-auth',
      test: (id: string) => mantine.test.test(id) && authOnly(id),
      priority: mantine.priority + 5,
    },
    {
      // What the other auth screens alone use of Mantine (a code block, a progress bar), so that they
      // do not take it from chunks that screens of the shell share.
      name: 'mantine-auth-screens',
      test: (id: string) =>
        mantine.test.test(id) &&
        otherAuthClosure.has(id) &&
        !first(id) &&
        !authClosure.has(id) &&
        !pagesOnly(id) &&
        !laterClosure.has(id) &&
        !menuClosure.has(id) &&
        !shellClosure.has(id),
      priority: mantine.priority + 5,
    },
    {
      name: 'mantine-shell',
      test: (id: string) => mantine.test.test(id) && shellOnly(id),
      priority: mantine.priority + 4,
    },
    {
      name: 'mantine-public',
      test: (id: string) => mantine.test.test(id) && publicOnly(id),
      priority: mantine.priority + 3,
    },
    { name: 'first', test: (id: string) => ours(id) && first(id), priority: 9, includeDependenciesRecursively: false },
    {
      name: 'auth',
      test: (id: string) => ours(id) && authOnly(id),
      priority: 8,
      includeDependenciesRecursively: false,
    },
    {
      name: 'shell',
      test: (id: string) => ours(id) && shellOnly(id),
      priority: 7,
      includeDependenciesRecursively: false,
    },
    {
      name: 'public',
      test: (id: string) => ours(id) && publicOnly(id),
      priority: 6,
      includeDependenciesRecursively: false,
    },
  ];
  /** Tabler's icons that no first load draws: one chunk for the screens, not one per icon. */
  const icons = {
    name: 'icons',
    test: (id: string) =>
      tablerIcons.test(id) && !first(id) && !pagesOnly(id) && !authOnly(id) && !shellOnly(id) && !publicOnly(id),
    priority: 4,
    includeDependenciesRecursively: false,
  };
  /** The rest of the shared package (schemas and rules no first load uses): one chunk. */
  const shared = {
    name: 'shared',
    test: (id: string) =>
      sharedModule.test(id) && !first(id) && !pagesOnly(id) && !authOnly(id) && !shellOnly(id) && !publicOnly(id),
    priority: 5,
  };
  return { plugin, groups: [...groups, icons], shared };
}

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
    chunkSizeWarningLimit: 800,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [...firstLoad.groups, ...chunkGroups, firstLoad.shared],
        },
      },
    },
  },
});
