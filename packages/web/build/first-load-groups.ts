// The chunk groups of the first loads, read from the module graph once it is complete.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { PluginContext } from 'rolldown';
import type { Plugin } from 'vite';
import { chunkGroups, sharedModule, tablerIcons } from './chunk-groups.ts';

/** packages/web, which the route modules below are named from. */
const webRoot = path.resolve(import.meta.dirname, '..');

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
    // The code's text is read, comments included: an import shown in a comment (unified's
    // `import process from 'node:process'`) is no import, and resolving it made Vite warn.
    // A specifier that does not resolve is such a comment too (Recharts names
    // `react-redux/src/components/Context` in one, a path the package does not export): a real
    // import that failed would have stopped the bundler before this runs.
    const resolve = async (specifier: string) => {
      if (specifier.startsWith('node:')) return undefined;
      try {
        return (await context.resolve(specifier, id))?.id;
      } catch {
        return undefined;
      }
    };
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
export function firstLoadGroups() {
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
