import { defineConfig } from '@playwright/test';
import base from './playwright.config';

// Documentation runs (docs/advisor.md): long, real runs through the product whose screenshots go
// into docs/screenshots. Not part of `make test`; run against a started stack (`make up`):
//   npx playwright test -c apps/web/playwright.docs.config.ts
export default defineConfig({
  ...base,
  testMatch: '**/*.docs.ts',
  timeout: 60 * 60_000,
  reporter: [['list']],
});
