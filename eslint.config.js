import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import stageline from './tools/eslint-plugin-stageline.js';

/**
 * Type-aware linting for the whole repository. Imports point one way (docs/architecture.md §Layers):
 * web `shared/` knows no feature, features know no `app/`, a feature is imported only through its
 * entry file, there are no import cycles, and no package reaches into another's internals.
 */
/**
 * The web app never decides a permission or an engine transition: it reads the `abilities` the
 * server sends with each record (docs/architecture.md, "Abilities"). So web code may not import the
 * rules that decide them, nor compare a role or a task status to a literal.
 */
const webDecides = {
  name: '@stageline/shared',
  importNames: [
    'can',
    'canWork',
    'canReview',
    'atLeast',
    'checkRoleChange',
    'checkRemoval',
    'Permissions',
    'applyTaskAction',
    'reviewDecision',
    'availableStatuses',
    'taskAbilities',
    'workspaceAbilities',
    'memberAbilities',
  ],
  message: 'The server decides: read the record’s `abilities` (docs/architecture.md, "Abilities").',
};
const webComparisons = [
  {
    selector: 'BinaryExpression[operator=/^[!=]==$/] > Literal[value=/^(owner|admin|member|guest)$/]',
    message: 'Do not compare roles in the web app: read the record’s `abilities` (docs/architecture.md, "Abilities").',
  },
  {
    selector:
      "BinaryExpression[operator=/^[!=]==$/]:matches([left.name='status'], [left.property.name='status']) > Literal[value=/^(todo|in_progress|review|edit|done)$/]",
    message:
      'Do not compare task statuses in the web app: read the task’s `abilities`, or a shared rule (docs/architecture.md, "Abilities").',
  },
];

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      'data/**',
      'test-results/**',
      'playwright-report/**',
      'packages/web/public/**',
      '.shot.mjs',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
      globals: { ...globals.node },
    },
    rules: {
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/only-throw-error': 'error',
      // Fastify hooks and plugins are async by contract, with or without an await inside.
      '@typescript-eslint/require-await': 'off',
      'no-console': 'warn',
      eqeqeq: ['error', 'smart'],
    },
  },
  {
    // Our own rules (tools/eslint-plugin-stageline.js): comments cite only documents we hold.
    plugins: { stageline },
    rules: { 'stageline/docs-exist': 'error' },
  },
  {
    // Layers: a feature is used through its entry file, and nothing imports in a circle.
    files: ['packages/shared/src/**/*.ts', 'packages/server/src/**/*.ts', 'packages/web/src/**/*.{ts,tsx}'],
    ignores: ['**/*.test.{ts,tsx}'],
    rules: {
      'stageline/no-cycle': 'error',
      'stageline/feature-entry': [
        'error',
        {
          // Extra entries keep React Flow out of the first chunk; app/ loads screens lazily by file.
          extraEntries: { pipelines: ['read-only', 'builder', 'crud', 'overview'] },
          screenImporters: ['app/routing/', 'app/prerender/'],
        },
      ],
    },
  },
  {
    files: ['packages/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      ...reactHooks.configs.recommended.rules,
    },
  },
  {
    files: ['packages/web/src/**/*.{ts,tsx}'],
    ignores: ['**/*.test.{ts,tsx}'],
    rules: {
      'no-restricted-imports': ['error', { paths: [webDecides] }],
      'no-restricted-syntax': ['error', ...webComparisons],
    },
  },
  {
    files: ['packages/web/src/shared/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [webDecides],
          patterns: [
            { group: ['**/features/**', '**/app/**'], message: 'web/shared must not depend on features or app.' },
          ],
        },
      ],
    },
  },
  {
    files: ['packages/web/src/features/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [webDecides],
          patterns: [{ group: ['**/app/**'], message: 'Features must not depend on app/; move the piece to shared/.' }],
        },
      ],
    },
  },
  {
    files: ['packages/shared/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@stageline/server', '@stageline/web', '**/server/**', '**/web/**'],
              message: 'shared depends on nothing of ours.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.test.{ts,tsx}', 'e2e/**/*.ts', 'packages/*/test/**/*.ts'],
    rules: {
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/unbound-method': 'off',
    },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
  },
);
