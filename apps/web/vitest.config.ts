import { defineConfig, mergeConfig } from 'vitest/config';
import { fileURLToPath } from 'node:url';
import shared from '../../vitest.shared.ts';

export default mergeConfig(
  shared,
  defineConfig({ resolve: { alias: { '~': fileURLToPath(new URL('./src', import.meta.url)) } } }),
);
