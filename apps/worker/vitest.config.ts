import { defineConfig, mergeConfig } from 'vitest/config';
import shared, { unitAndIntegration } from '../../vitest.shared.ts';

// Integration tests start real workers, targets and k6, two files at a time on 2 cores: each
// file is a world of its own (database, queue prefix, lab data shape, namespaces and subnet,
// ports), and most of a file's time is spent waiting on runs of a fixed length. The measurement
// files judge CPU seconds, a link's round trip and the disturbance a busy machine causes: they run
// in their own project, one at a time, when nothing else runs (`make test` runs them last).
export default unitAndIntegration(
  [
    'test/**/*.test.ts',
    'src/heartbeat.test.ts',
    'src/notify/deliver-notifications.test.ts',
    'src/targets/lab-data-shapes.test.ts',
    'src/targets/lab-shapes.test.ts',
    'src/targets/mariadb-user.test.ts',
  ],
  mergeConfig(
    shared,
    defineConfig({ test: { fileParallelism: true, maxWorkers: 2, testTimeout: 180_000 } }),
  ),
  [
    'src/sampling/resource-sampler.test.ts',
    'src/targets/lab-environment.test.ts',
    'test/lab-environment.test.ts',
    'test/disturbance.test.ts',
  ],
);
