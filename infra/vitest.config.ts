import { defineConfig } from 'vitest/config';
import { unitAndIntegration } from '../vitest.shared.ts';

// compose and helm run tools installed outside the repo (docker compose, helm, kubeconform),
// scripts starts the native services, mailpit-page runs the Mailpit setup built: none of them is
// reproducible from the repo's files alone.
export default unitAndIntegration(
  [
    'compose.test.ts',
    'helm.test.ts',
    'mailpit-page.test.ts',
    'scripts.test.ts',
    'services-hardening.test.ts',
  ],
  defineConfig({
    test: { include: ['*.test.ts'], fileParallelism: false, testTimeout: 30_000 },
  }),
);
