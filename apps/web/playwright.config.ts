import { defineConfig } from '@playwright/test';

// Real Chromium from Debian (Playwright's own browser download cannot work here), against the
// stack that `make test` started on :3000. Screenshots are kept as artifacts in test-results/.
// One worker by default: the advisor's and the hypotheses' specs need their runs to offer their
// load, which two workers beside each other on a busy 2-core machine took from them. Each spec
// signs up its own accounts and teams, so E2E_WORKERS=2 runs them side by side where CPU allows.
export default defineConfig({
  testDir: './e2e',
  outputDir: '../../test-results/web-e2e',
  timeout: 180_000,
  expect: { timeout: 15_000 },
  fullyParallel: false,
  workers: Number(process.env.E2E_WORKERS ?? 1),
  reporter: [['list'], ['junit', { outputFile: '../../test-results/web-e2e-junit.xml' }]],
  use: {
    baseURL: process.env.POOLBENCH_URL ?? 'http://localhost:3000',
    screenshot: 'on',
    // A failed test keeps its trace: each action's DOM snapshot, network and console. The trace's
    // screencast is left out: recording it cost a third more CPU for every test, passed or not
    // (docs/testing.md, "Timings").
    trace: { mode: 'retain-on-failure', screenshots: false },
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
