import { defineConfig } from 'vitest/config';

/**
 * One Vitest run, three projects: pure shared rules, the server's API tests (on PGlite, or on the
 * PostgreSQL server named by TEST_DATABASE_URL), and the web's unit tests in happy-dom. Playwright's
 * end-to-end specs live in e2e/ and are not picked up here.
 */
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'shared',
          include: ['packages/shared/src/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'server',
          include: ['packages/server/src/**/*.test.ts', 'packages/server/test/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['packages/server/test/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: 'packages/web/vite.config.ts',
        test: {
          name: 'web',
          include: ['packages/web/src/**/*.test.{ts,tsx}'],
          environment: 'happy-dom',
          setupFiles: ['packages/web/test/setup.ts'],
        },
      },
    ],
  },
});
