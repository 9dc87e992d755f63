import { defineConfig, mergeConfig } from 'vitest/config';
import { fileURLToPath } from 'node:url';
import shared, { unitAndIntegration } from '../../vitest.shared.ts';

// Integration: every file on a temporary database (withTempDatabase), some with Redis too. They
// share their workers' module graph (`isolate: false`): importing the app's server code anew for
// each of the 41 files cost more than half of their time (docs/testing.md).
export default unitAndIntegration(
  [
    'src/server/api/authorization.test.ts',
    'src/server/api/behaviour.test.ts',
    'src/server/api/origin-check.test.ts',
    'src/server/api/verified.test.ts',
    'src/server/rest/compare-base.test.ts',
    'src/server/security/body-limit.test.ts',
    'src/server/rest/hypotheses-rest.test.ts',
    'src/server/rest/idempotency.test.ts',
    'src/server/rest/rate-limit.test.ts',
    'src/server/rest/rest-api.test.ts',
    'src/server/rest/run-segments.test.ts',
    'src/server/rest/token-creator-access.test.ts',
    'src/server/services/api-tokens/api-tokens.test.ts',
    'src/server/services/baselines/baseline-per-config.test.ts',
    'src/server/services/auth/sign-in-limits.test.ts',
    'src/server/services/auth/email-ownership.test.ts',
    'src/server/services/auth/auth-revocation.test.ts',
    'src/server/services/cache/page-cache.test.ts',
    'src/server/services/ci/invalid-runs.test.ts',
    'src/server/services/compare/build-comparison.test.ts',
    'src/server/services/compare/repeats-needed.test.ts',
    'src/server/services/compare/noise-floor.test.ts',
    'src/server/services/compare/window-summaries.test.ts',
    'src/server/services/experiments/launch-queue-down.test.ts',
    'src/server/services/experiments/until-decided.test.ts',
    'src/server/services/health/get-health.test.ts',
    'src/server/services/installation/opened-ranges.test.ts',
    'src/server/services/onboarding/onboarding.test.ts',
    'src/server/services/scenarios/insight-threshold.test.ts',
    'src/server/services/scenarios/script-check-slots.test.ts',
    'src/server/services/runs/run-insights.test.ts',
    'src/server/services/runs/run-series.test.ts',
    'src/server/services/runs/sweep-steps.test.ts',
    'src/server/services/schedules/schedule-outcome-vs-gate.test.ts',
    'src/server/services/schedules/schedules.test.ts',
    'src/server/services/share-links/share-links.test.ts',
    'src/server/services/targets/lab-environment.test.ts',
    'src/server/services/targets/network-policy.test.ts',
    'src/server/services/teams/retention.test.ts',
    'src/server/services/trends/trend-series.test.ts',
    'src/server/services/trends/change-points-view.test.ts',
  ],
  mergeConfig(
    shared,
    defineConfig({
      resolve: { alias: { '~': fileURLToPath(new URL('./src', import.meta.url)) } },
    }),
  ),
  [],
  { isolate: false },
);
