// How the build groups the libraries into chunks (rolldown's `codeSplitting.groups`).

/** A pattern for module ids inside the named packages of node_modules (names may hold `*`). */
export const inPackages = (...names: string[]) =>
  new RegExp(`[\\\\/]node_modules[\\\\/](${names.map((name) => name.replace('*', '[^\\\\/]*')).join('|')})[\\\\/]`);

export const tablerIcons = inPackages('@tabler/icons-react');

/** Our shared package's schemas and rules (not its translations or Markdown helpers). */
export const sharedModule = /[\\/]packages[\\/]shared[\\/]src[\\/](?!i18n|markdown)/;

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
export const chunkGroups = [
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
