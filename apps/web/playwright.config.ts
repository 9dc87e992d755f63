import { defineConfig } from '@playwright/test';

// Real Chromium from Debian (Playwright's own browser download cannot work here), against the
// stack that `make test` started on :3000. Screenshots are kept as artifacts in test-results/.
// Two workers (E2E_WORKERS), each taking whole files: a spec signs up its own accounts and teams,
// and most of its time is spent waiting on real runs, which the stack's worker runs two at a time
// in the suite (WORKER_CONCURRENCY=2 in scripts/test.sh).
export default defineConfig({
  testDir: './e2e',
  outputDir: '../../test-results/web-e2e',
  timeout: 180_000,
  expect: { timeout: 15_000 },
  fullyParallel: false,
  workers: Number(process.env.E2E_WORKERS ?? 2),
  reporter: [['list'], ['junit', { outputFile: '../../test-results/web-e2e-junit.xml' }]],
  use: {
    baseURL: process.env.POOLBENCH_URL ?? 'http://localhost:3000',
    screenshot: 'on',
    trace: 'retain-on-failure',
    viewport: { width: 1440, height: 900 },
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
});
