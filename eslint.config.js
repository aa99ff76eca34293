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
          extraEntries: { pipelines: ['read-only', 'builder', 'crud'] },
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
    files: ['packages/web/src/shared/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
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
