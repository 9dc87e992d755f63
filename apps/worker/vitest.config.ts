import { defineConfig, mergeConfig } from 'vitest/config';
import shared from '../../vitest.shared.ts';

// Integration tests start real workers, targets and k6: one file at a time on 2 cores.
export default mergeConfig(
  shared,
  defineConfig({ test: { fileParallelism: false, testTimeout: 180_000 } }),
);
