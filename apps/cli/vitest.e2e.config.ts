import { defineConfig } from 'vitest/config';

// Against the running stack (scripts/stack.sh start): real web app, worker, k6 and lab target.
export default defineConfig({
  test: {
    include: ['e2e/**/*.test.ts'],
    testTimeout: 600_000,
    hookTimeout: 120_000,
    fileParallelism: false,
    pool: 'forks',
  },
});
