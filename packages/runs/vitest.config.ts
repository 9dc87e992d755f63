import { unitAndIntegration } from '../../vitest.shared.ts';

// Everything but the source scan of status-writes.test.ts works on Postgres (and Redis).
export default unitAndIntegration([
  'src/advisor/advisor.test.ts',
  'src/calibration/noise-floor.test.ts',
  'src/sequential/sequential-hypotheses.test.ts',
  'src/hypotheses/hypotheses.test.ts',
  'src/fleet-limits.test.ts',
  'src/create-runs.test.ts',
  'src/hypotheses/after-run-ended.test.ts',
  'src/extend-experiment.test.ts',
  'src/launch-experiment.test.ts',
  'src/lifecycle.test.ts',
  'src/schedules/schedule-outcome.test.ts',
  'src/schedules/schedule-change-points.test.ts',
  'src/seed/seed.test.ts',
  'src/seeds/launch-seeds.test.ts',
  'src/segments/merge-segment-seconds.test.ts',
]);
