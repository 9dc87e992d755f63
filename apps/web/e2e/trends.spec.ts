import { expect, test } from '@playwright/test';
import { SHOTS, signUpApi, trpcOk } from './helpers';
import { closeE2eDb, finishedExperiment, teamOf } from './synthetic';

/**
 * Issue 17: the trends chart of one scenario × pool config with 3 finished experiments (synthetic
 * runs written as the worker stores them), the first saved as the baseline: three points per
 * chart, the baseline drawn, each experiment listed with its CI origin.
 */
test.afterAll(closeE2eDb);

test('trends: three experiments of one cell over time, against the baseline', async ({
  page,
  baseURL,
}) => {
  const email = await signUpApi(page.request, baseURL!, 'Trend Watcher');
  const call = trpcOk(page.request, baseURL!);
  const target = await call('target.create', {
    kind: 'managed',
    name: 'Lab',
    requestDefaults: { method: 'GET', path: '/health' },
  });
  const pc = await call('poolConfig.create', {
    targetId: target.id,
    name: 'fixed 4',
    config: { strategy: 'fixed', params: { maxConns: 4 } },
  });
  const sc = await call('scenario.create', {
    name: 'nightly 1 s',
    scenario: {
      template: 'sustained',
      params: { vus: 2, durationMs: 1000 },
      requests: [{ path: '/health' }],
    },
  });
  const teamId = await teamOf(email);
  const ids: string[] = [];
  for (const n of [1, 2, 3])
    ids.push(
      await finishedExperiment({
        teamId,
        targetId: target.id,
        name: `nightly ${n}`,
        poolConfigs: [{ id: pc.id, name: 'fixed 4' }],
        scenario: { id: sc.id, name: 'nightly 1 s' },
        repeats: 4,
        seed: n * 100,
      }),
    );
  for (const id of ids) {
    const e = (await call('experiment.get', { id }, 'query')) as unknown as {
      progress: { done: number; total: number };
    };
    expect(e.progress).toMatchObject({ done: 4, total: 4 });
  }
  await call('baseline.set', {
    name: 'main',
    item: { kind: 'cell', experimentId: ids[0], poolConfigId: pc.id, scenarioId: sc.id },
  });

  await page.goto('/experiments');
  await page.getByRole('link', { name: 'Trends' }).click();
  await expect(page).toHaveURL(/\/trends/);
  await expect(page.getByLabel('Target · scenario · pool config')).toContainText(
    'Lab · nightly 1 s · fixed 4 (12 runs)',
  );
  await expect(page.getByLabel('Baseline')).toHaveValue('main');
  const charts = page.getByTestId('trend-charts');
  await expect(charts.getByText('Latency p95', { exact: true })).toBeVisible();
  // three experiments, three points on each of the four charts (a regression would be a red one)
  await expect(
    charts.locator('[data-testid="trend-point"], [data-testid="trend-regression"]'),
  ).toHaveCount(12);
  await expect(charts.getByText('baseline main').first()).toBeVisible();
  await expect(page.getByTestId('trend-experiment')).toHaveCount(3);
  await expect(page.getByTestId('trend-experiment').last()).toContainText('baseline');
  await page.screenshot({ path: `${SHOTS}/trends-01.png`, fullPage: true });
});
