import { defineConfig } from '@playwright/test';
import { chromiumArgs } from './e2e/support/browser';

/**
 * End-to-end suite: Debian's Chromium (never a downloaded browser) against the real built server,
 * which global setup starts on a free port with a temporary data directory (or on the PostgreSQL
 * database named by E2E_DATABASE_URL). Build first: `npm run test:e2e` does.
 */
export default defineConfig({
  testDir: './e2e',
  testMatch: '**/*.spec.ts',
  outputDir: './test-results/e2e-artifacts',
  globalSetup: './e2e/support/global-setup.ts',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  use: {
    browserName: 'chromium',
    headless: true,
    viewport: { width: 1280, height: 800 },
    launchOptions: { executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: chromiumArgs },
    // Tracing costs a fifth of the suite's CPU; CI keeps only the failure's screenshot and error.
    trace: process.env.CI ? 'off' : 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
});
