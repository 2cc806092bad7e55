import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './tests/e2e/chromium';

export default defineConfig({
  testDir: 'tests/e2e',
  outputDir: 'test-results',
  // Guards against a hang, never a measure: a test drives a real host, engine and browser, and on a loaded
  // 2-core machine that takes several times what it takes idle. A test that needs longer says so itself.
  timeout: 300_000,
  expect: { timeout: 30_000 },
  fullyParallel: false,
  // Each test has its own host, data folder and port (host.ts), so two files can run side by side.
  workers: 2,
  retries: process.env.CI ? 1 : 0,
  // scripts/playwright-times.mjs records each spec's time for npm test's table (only when npm test asks).
  reporter: [['list'], ['./scripts/playwright-times.mjs']],
  use: {
    viewport: { width: 1280, height: 800 },
    launchOptions: { executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS] },
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
});
