import { defineConfig } from 'vitest/config';

/** Shared Vitest settings: tests sit beside code as x.test.ts; integration tests hit real services. */
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
