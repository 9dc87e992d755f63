import { expect, test } from '@playwright/test';
import { SHOTS, signUpApi, trpcOk } from './helpers';

/**
 * The pool-size advisor through the real form, queue, worker, k6 and lab target: bad input is
 * refused at its field, then a small search (GET /work?ms=40 at 50 req/s, so 2 connections are
 * at the edge and 3 or more are comfortable) runs its steps until it answers; the experiment page
 * shows the answer, the charts and each setting's verdict, and a setting is saved as a live pool
 * config.
 */
test('advisor: asked in the form, searches by experiment, answers with its evidence, saves the setting', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(8 * 60_000);
  await signUpApi(page.request, baseURL!, 'Agner Erlang');
  const call = trpcOk(page.request, baseURL!);
  const target = await call('target.create', {
    kind: 'managed',
    name: 'Lab target',
    requestDefaults: { method: 'GET', path: '/health' },
  });
  await call('poolConfig.create', {
    targetId: target.id,
    name: 'prewarm 8',
    config: { strategy: 'prewarm', params: { maxConns: 8, acquireTimeoutMs: 1000 } },
  });
  await call('scenario.create', {
    name: 'work 40 ms at 50 req/s',
    scenario: {
      template: 'constant-arrival-rate',
      params: { ratePerSec: 50, durationMs: 3000, preAllocatedVUs: 10, maxVUs: 80 },
      requests: [{ path: '/work', query: { ms: 40 } }],
    },
  });
  await call('scenario.create', {
    name: 'closed 4 VUs',
    scenario: {
      template: 'sustained',
      params: { vus: 4, durationMs: 3000 },
      requests: [{ path: '/health' }],
    },
  });

  await page.goto('/advisor');
  await expect(page.getByRole('heading', { name: 'Which pool size should we use?' })).toBeVisible();
  // hostile input lands at its field
  await page.getByLabel('Smallest max pool size').fill('6');
  await page.getByLabel('Largest max pool size').fill('2');
  await page.getByLabel('Runs at most').fill('100000');
  await page.getByRole('button', { name: 'Start the advisor' }).click();
  await expect(page.getByText('must be at most 200')).toBeVisible();
  await page.getByLabel('Runs at most').fill('12');
  await page.getByRole('button', { name: 'Start the advisor' }).click();
  await expect(page.getByText('must be greater than min')).toBeVisible();
  await page.getByLabel('Smallest max pool size').fill('1');
  await page.getByLabel('Largest max pool size').fill('4');
  await page.getByLabel('Runs per setting and step').fill('2');
  await page.getByLabel('p99 latency at most (ms)').fill('200');
  await page.getByLabel('Errors at most (%)').fill('1');
  await page.screenshot({ path: `${SHOTS}/advisor-form.png`, fullPage: true });
  await page.getByRole('button', { name: 'Start the advisor' }).click();

  await expect(page).toHaveURL(/\/experiments\/[a-z0-9]+$/);
  const card = page.getByTestId('advisor-card');
  await expect(card).toBeVisible();
  await expect(card.getByText('searching', { exact: true })).toBeVisible();
  // the search runs its steps (new runs appear on the page as it plans them) until it answers
  await expect(card.getByTestId('advisor-summary')).not.toContainText('Searching', {
    timeout: 6 * 60_000,
  });
  const summary = (await card.getByTestId('advisor-summary').textContent()) ?? '';
  expect(summary).toMatch(/maxConns \d+ is the smallest setting|budget of 12 runs ended/);
  await expect(card.getByTestId('advisor-settings')).toContainText('meets');
  await expect(card.getByTestId('advisor-p99-chart')).toBeVisible();
  await expect(card.getByTestId('advisor-rps-chart')).toBeVisible();
  await expect(card.getByText(/Runs used: \d+ of 12/)).toBeVisible();
  await card.screenshot({ path: `${SHOTS}/advisor-answer.png` });

  // a measured setting becomes a live pool config of the target
  const row = card
    .getByTestId('advisor-settings')
    .getByRole('row')
    .filter({ hasText: 'meets' })
    .first();
  await row.getByRole('button', { name: 'Save as pool config' }).click();
  await expect(card.getByText(/is saved/)).toBeVisible();
  const listed: unknown = await call('poolConfig.list', { targetId: target.id }, 'query');
  const names = (Array.isArray(listed) ? listed : []).map((c: { name?: unknown }) =>
    String(c.name),
  );
  expect(names.some((n) => /prewarm 8 · advised maxConns \d+/.test(n))).toBe(true);
  // the search's own settings stay out of the team's list
  expect(names.filter((n) => / · maxConns \d+$/.test(n))).toHaveLength(0);
});
