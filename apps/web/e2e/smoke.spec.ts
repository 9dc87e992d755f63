import { expect, test } from '@playwright/test';

test('landing page and health', async ({ page, request }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Benchmark connection pools');
  await expect(page.getByRole('link', { name: 'Get started' })).toBeVisible();
  await page.screenshot({ path: '../../test-results/screenshots/landing.png', fullPage: true });

  const res = await request.get('/api/health');
  expect(res.status()).toBe(200);
  const body = await res.json();
  expect(body).toMatchObject({
    status: 'ok',
    db: { ok: true },
    redis: { ok: true },
    worker: { ok: true },
  });
});
