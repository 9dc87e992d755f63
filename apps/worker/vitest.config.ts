import { defineConfig, mergeConfig } from 'vitest/config';
import shared, { unitAndIntegration } from '../../vitest.shared.ts';

// Integration tests start real workers, targets and k6, two files at a time on 2 cores: each
// file is a world of its own (database, queue prefix, lab data shape, namespaces and subnet,
// ports), and most of a file's time is spent waiting on runs of a fixed length. Checks of timing
// allow for a shared, busy machine (a fresh clone's suite passes with a CPU hog beside it). The
// resource sampler's test measures CPU seconds of busy processes, so it runs here too, away from
// the unit tests of every package at once.
export default unitAndIntegration(
  [
    'test/**/*.test.ts',
    'src/heartbeat.test.ts',
    'src/notify/deliver-notifications.test.ts',
    'src/sampling/resource-sampler.test.ts',
    'src/targets/lab-data-shapes.test.ts',
    'src/targets/lab-environment.test.ts',
    'src/targets/lab-shapes.test.ts',
    'src/targets/mariadb-user.test.ts',
  ],
  mergeConfig(
    shared,
    defineConfig({ test: { fileParallelism: true, maxWorkers: 2, testTimeout: 180_000 } }),
  ),
);
