import { configDefaults, defineConfig, mergeConfig, type ViteUserConfig } from 'vitest/config';

/** Shared Vitest settings: tests sit beside code as x.test.ts; integration tests hit real services. */
const shared: ViteUserConfig = defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
export default shared;

/**
 * A workspace's tests as three Vitest projects (`vitest run --project unit|integration|measurement`;
 * plain `vitest run` runs them all):
 * - `integration`: the files matched by `integration`, the ones that need a real service
 *   (Postgres, Redis, MariaDB, k6, a lab target, network namespaces); never cached, and run
 *   beside other workspaces' integration tests;
 * - `measurement`: the files that need real services and judge accuracy or timing (a rate k6
 *   reached, CPU seconds, a link's round trip); they run only here even when an `integration`
 *   pattern matches them, and `make test` runs them last, one file at a time, with no other test
 *   beside them;
 * - `unit`: every other test file; pure, run in parallel with other workspaces and cached by
 *   turbo on their inputs.
 * Each file is in exactly one project, so nothing is lost when they run separately.
 */
export function unitAndIntegration(
  integration: string[],
  base: ViteUserConfig = shared,
  measurement: string[] = [],
  /**
   * `isolate: false`: the integration files share their worker processes' module graph instead
   * of importing it anew each (for a workspace whose files keep no module state between them:
   * each opens its own database and closes what it opened)
   */
  integrationOptions: { isolate?: false } = {},
): ViteUserConfig {
  // A project that extends the root concatenates `include` lists, so the root keeps none.
  // A workspace may have no test of one kind: an empty project passes.
  const { include, ...rest } = base.test ?? {};
  return mergeConfig(
    { ...base, test: { ...rest, passWithNoTests: true } },
    defineConfig({
      test: {
        projects: [
          {
            extends: true,
            test: {
              name: 'unit',
              include,
              exclude: [...configDefaults.exclude, ...integration, ...measurement],
              // A test that reaches for a service while filed as a unit test fails at once,
              // naming why, instead of passing only where the services happen to run.
              env: {
                DATABASE_URL: 'postgresql://unit-tests-use-no-database@127.0.0.1:9/none',
                REDIS_URL: 'redis://unit-tests-use-no-redis@127.0.0.1:9',
                K6_BIN: '/unit-tests-run-no-k6',
              },
            },
          },
          {
            extends: true,
            test: {
              name: 'integration',
              include: integration,
              exclude: [...configDefaults.exclude, ...measurement],
              ...integrationOptions,
            },
          },
          { extends: true, test: { name: 'measurement', include: measurement } },
        ],
      },
    }),
  );
}
