import { defineConfig, mergeConfig } from 'vitest/config';
import shared, { unitAndIntegration } from '../../vitest.shared.ts';

// Integration tests start real workers, targets and k6: one file at a time on 2 cores.
// The resource sampler's test measures CPU seconds of busy processes, so it runs here too,
// away from the parallel unit tests that would skew it.
export default unitAndIntegration(
  [
    'test/**/*.test.ts',
    'src/heartbeat.test.ts',
    'src/notify/deliver-notifications.test.ts',
    'src/sampling/resource-sampler.test.ts',
    'src/targets/lab-data-shapes.test.ts',
    'src/targets/lab-environment.test.ts',
    'src/targets/mariadb-user.test.ts',
  ],
  mergeConfig(shared, defineConfig({ test: { fileParallelism: false, testTimeout: 180_000 } })),
);
