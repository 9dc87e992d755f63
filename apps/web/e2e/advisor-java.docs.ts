import { expect, test } from '@playwright/test';
import { signUpApi, trpcOk } from './helpers';

/**
 * docs/advisor.md's run on the real Java/HikariCP runtime (MariaDB): a new team asks the advisor,
 * through the form, for the smallest HikariCP maximumPoolSize that holds p99 ≤ 150 ms at
 * 60 req/s when each request holds a connection 40 ms; the page's answer is the screenshot.
 */
test('advisor on Java/HikariCP, for docs/advisor.md', async ({ page, baseURL }) => {
  await signUpApi(page.request, baseURL!, 'Brett Wooldridge');
  const call = trpcOk(page.request, baseURL!);
  const target = await call('target.create', {
    kind: 'managed',
    name: 'HikariCP on MariaDB',
    requestDefaults: { method: 'GET', path: '/health' },
    environment: { runtime: 'java-hikari', database: 'mariadb' },
  });
  await call('poolConfig.create', {
    targetId: target.id,
    name: 'HikariCP fixed',
    config: { strategy: 'fixed', params: { maxConns: 10, acquireTimeoutMs: 1000 } },
  });
  await call('scenario.create', {
    name: 'work 40 ms at 60 req/s',
    scenario: {
      template: 'constant-arrival-rate',
      params: { ratePerSec: 60, durationMs: 8000, preAllocatedVUs: 20, maxVUs: 120 },
      requests: [{ path: '/work', query: { ms: 40 } }],
    },
  });
  await page.goto('/advisor');
  await page.getByLabel('Smallest max pool size').fill('1');
  await page.getByLabel('Largest max pool size').fill('16');
  await page.getByLabel('p99 latency at most (ms)').fill('150');
  await page.getByLabel('Errors at most (%)').fill('0.1');
  await page.getByLabel('Runs at most').fill('30');
  await page.getByLabel(/^Name/).fill('Which HikariCP pool size at 60 req/s?');
  await page.getByRole('button', { name: 'Start the advisor' }).click();
  await expect(page).toHaveURL(/\/experiments\/[a-z0-9]+$/);
  const card = page.getByTestId('advisor-card');
  await expect(card.getByTestId('advisor-summary')).not.toContainText('Searching', {
    timeout: 50 * 60_000,
  });
  console.log(`advisor: ${page.url()}\n${await card.getByTestId('advisor-summary').textContent()}`);
  await page.waitForTimeout(1000);
  await card.screenshot({ path: '../../docs/screenshots/advisor-java.png' });
});
