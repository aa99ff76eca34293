import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';

/**
 * Server tests that never touch the database under test (they start their own embedded one, or none):
 * the same in both runs, so the PostgreSQL run (`TEST_DATABASE_URL`, `npm run test:api:pg`) leaves
 * them to `npm test`.
 */
const withoutTestDatabase = [
  'packages/server/test/shutdown.test.ts',
  'packages/server/test/install.test.ts',
  'packages/server/src/db/db.test.ts',
  'packages/server/src/db/data-dir-lock.test.ts',
  'packages/server/src/config.test.ts',
  'packages/server/src/features/oauth/profile.test.ts',
  // The 100 MB upload runs on its own embedded database on disk (server memory, not the database's).
  'packages/server/src/features/attachments/attachments-scale.test.ts',
];

/**
 * One Vitest run, four projects: pure shared rules, the server's API tests (on PGlite, or on the
 * PostgreSQL server named by TEST_DATABASE_URL), the web build's size budget (over the build in
 * packages/web/dist, built first when missing), and the web's unit tests in happy-dom. Playwright's
 * end-to-end specs live in e2e/ and are not picked up here.
 *
 * `isolate: false`: the test files of a worker share their modules, so PGlite's WebAssembly, React,
 * Mantine and the app are loaded once per worker instead of once per file (about half the CPU time of
 * `npm test`). The price is that no test may leave module state behind: module mocks (`vi.mock`) are
 * not used, stores are reset after each test (packages/web/test/setup.ts), and the server's tests
 * each build their own app on their own database copy.
 */
export default defineConfig({
  test: {
    // Vitest's default is one worker less than the cores: a single worker on a 2-core machine, where
    // the tests mostly wait on PGlite, PostgreSQL or timers, so two keep both cores busy.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      {
        test: {
          name: 'shared',
          include: ['packages/shared/src/**/*.test.ts'],
          environment: 'node',
          isolate: false,
        },
      },
      {
        test: {
          name: 'server',
          include: ['packages/server/src/**/*.test.ts', 'packages/server/test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...(process.env.TEST_DATABASE_URL ? withoutTestDatabase : [])],
          environment: 'node',
          globalSetup: ['packages/server/test/global-setup.ts'],
          isolate: false,
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        // The web build's size budget, read from packages/web/dist (built first when it is missing).
        test: {
          name: 'bundles',
          include: ['scripts/**/*.test.ts'],
          globalSetup: ['scripts/bundle-build.ts'],
          environment: 'node',
          isolate: false,
        },
      },
      {
        extends: 'packages/web/vite.config.ts',
        test: {
          name: 'web',
          include: ['packages/web/src/**/*.test.{ts,tsx}'],
          environment: 'happy-dom',
          isolate: false,
          setupFiles: ['packages/web/test/setup.ts'],
        },
      },
    ],
  },
});
