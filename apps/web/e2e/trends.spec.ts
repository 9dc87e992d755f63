import { expect, test } from '@playwright/test';
import { SHOTS, signUpApi, trpcOk } from './helpers';
import { closeE2eDb, e2eDb, finishedExperiment, teamOf } from './synthetic';

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
  // the newest one was started by a CI job: both lists link to it, in a new tab
  const job = 'https://ci.example.com/builds/42';
  await e2eDb().experiment.update({
    where: { id: ids[2] },
    data: { commit: 'feedc0de'.repeat(5), branch: 'main', buildUrl: job },
  });
  const ciLink = (where: ReturnType<typeof page.getByTestId> | typeof page) =>
    where.getByRole('link', { name: 'CI job' });

  await page.goto('/experiments');
  await expect(ciLink(page)).toHaveCount(1);
  await expect(ciLink(page)).toHaveAttribute('href', job);
  await expect(ciLink(page)).toHaveAttribute('target', '_blank');
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
  await expect(ciLink(page.getByTestId('trend-experiment').first())).toHaveAttribute('href', job);
  await expect(ciLink(page)).toHaveCount(1);
  await page.screenshot({ path: `${SHOTS}/trends-01.png`, fullPage: true });
});

test('trends: a history with a step shows its change point, the commits on either side, on the chart', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const email = await signUpApi(page.request, baseURL!, 'Change Point Watcher');
  const call = trpcOk(page.request, baseURL!);
  const target = await call('target.create', {
    kind: 'managed',
    name: 'Lab',
    requestDefaults: { method: 'GET', path: '/health' },
  });
  const pc = await call('poolConfig.create', {
    targetId: target.id,
    name: 'fixed 8',
    config: { strategy: 'fixed', params: { maxConns: 8 } },
  });
  const sc = await call('scenario.create', {
    name: 'nightly',
    scenario: {
      template: 'sustained',
      params: { vus: 2, durationMs: 1000 },
      requests: [{ path: '/health' }],
    },
  });
  const teamId = await teamOf(email);
  // twelve nightly firings; from the seventh on every request takes 60 % longer
  for (let n = 1; n <= 12; n++) {
    const id = await finishedExperiment({
      teamId,
      targetId: target.id,
      name: `nightly ${n}`,
      poolConfigs: [{ id: pc.id, name: 'fixed 8' }],
      scenario: { id: sc.id, name: 'nightly' },
      repeats: 2,
      seconds: 4,
      shape: () => ({ latencyMs: n <= 6 ? 10 : 16, rps: 200 }),
      seed: n * 10,
    });
    await e2eDb().experiment.update({
      where: { id },
      data: { commit: `${String(n).padStart(2, '0')}ab${'c'.repeat(36)}`, branch: 'main' },
    });
  }

  await page.goto('/trends');
  await expect(page.getByLabel('Target · scenario · pool config')).toContainText(
    'Lab · nightly · fixed 8 (24 runs)',
  );
  const card = page.getByTestId('change-points');
  await expect(card).toContainText('12 experiments');
  const p95 = card.getByTestId('change-point').filter({ hasText: 'Latency p95' });
  await expect(p95).toHaveCount(1);
  await expect(p95).toContainText('regression');
  await expect(p95).toContainText(/Latency p95 \+[56]\d\.\d %/);
  await expect(p95).toContainText(
    'between nightly 6 06abcccccccc on main and nightly 7 07abcccccccc on main',
  );
  await expect(p95).toContainText('6 experiments before, 6 after');
  // throughput held its level
  await expect(card.getByTestId('change-point').filter({ hasText: 'Throughput' })).toHaveCount(0);
  // the p95 chart marks it between the sixth and the seventh point, labelled with the change
  const charts = page.getByTestId('trend-charts');
  await expect(charts.getByText(/^\+[56]\d\.\d %$/).first()).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/trends-02-change-point.png`, fullPage: true });
});
