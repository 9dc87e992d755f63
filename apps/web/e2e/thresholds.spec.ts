import { expect, test } from '@playwright/test';
import { toJson } from '@poolbench/db';
import { SHOTS, signUpApi, trpcOk } from './helpers';
import { closeE2eDb, e2eDb, finishedExperiment, teamOf } from './synthetic';

/**
 * Issue 17: a run whose k6 thresholds failed (k6's exit code 99) is a failure wherever a status
 * shows: the run header, the experiment matrix and the runs list (where it can be filtered), the
 * experiment list. The run is a synthetic one stored as the worker ends such a run (status,
 * error and threshold results; the worker's side is test/thresholds.test.ts in apps/worker).
 */
test.afterAll(closeE2eDb);

test('a failed-threshold run shows as failed on the run header, the experiment matrix and the runs list', async ({
  page,
  baseURL,
}) => {
  const email = await signUpApi(page.request, baseURL!, 'Threshold Tester');
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
    name: 'impossible p95',
    scenario: {
      template: 'sustained',
      params: { vus: 2, durationMs: 3000 },
      requests: [{ path: '/health' }],
      thresholds: [{ metric: 'http_req_duration', expr: 'p(95)<0.001' }],
    },
  });
  const experimentId = await finishedExperiment({
    teamId: await teamOf(email),
    targetId: target.id,
    name: 'Threshold check',
    poolConfigs: [{ id: pc.id, name: 'fixed 4' }],
    scenario: { id: sc.id, name: 'impossible p95' },
    repeats: 1,
    seconds: 3,
  });
  const { id: runId } = await e2eDb().run.findFirstOrThrow({ where: { experimentId } });
  await e2eDb().run.update({
    where: { id: runId },
    data: {
      status: 'thresholds_failed',
      errorCode: 'thresholds_failed',
      errorMessage: '1 of 1 thresholds failed: http_req_duration p(95)<0.001 (observed 1.93)',
      thresholdResults: toJson.thresholdResults([
        { metric: 'http_req_duration', expr: 'p(95)<0.001', observed: 1.93, pass: false },
      ]),
    },
  });
  expect(
    (
      (await call('experiment.get', { id: experimentId }, 'query')) as unknown as {
        runs: Array<{ status: string }>;
      }
    ).runs.map((r) => r.status),
  ).toEqual(['thresholds_failed']);

  // run header: red "Thresholds failed", never green "Succeeded"
  await page.goto(`/runs/${runId}`);
  const header = page.getByTestId('run-status').first();
  await expect(header).toHaveText('Thresholds failed', { timeout: 60_000 });
  await expect(page.getByText('Succeeded', { exact: true })).toHaveCount(0);
  await page.screenshot({ path: `${SHOTS}/thresholds-01-run-header.png`, fullPage: true });

  // experiment matrix: the run's cell says so, with the failed threshold named
  await page.goto(`/experiments/${experimentId}`);
  const cell = page.getByTestId('matrix-run').first();
  await expect(cell.getByTestId('run-status')).toHaveText('Thresholds failed', { timeout: 60_000 });
  await expect(cell).toContainText('http_req_duration p(95)<0.001');
  await page.screenshot({ path: `${SHOTS}/thresholds-02-experiment-matrix.png`, fullPage: true });

  // runs list, filtered to threshold failures
  await page.goto('/runs');
  await page.getByLabel('Status').selectOption('thresholds_failed');
  await expect(page).toHaveURL(/status=thresholds_failed/);
  const rows = page.locator('tbody tr');
  await expect(rows).toHaveCount(1, { timeout: 30_000 });
  await expect(rows.first().getByTestId('run-status')).toHaveText('Thresholds failed');
  await page.screenshot({ path: `${SHOTS}/thresholds-03-runs-list.png`, fullPage: true });
  await page.getByLabel('Status').selectOption('succeeded');
  await expect(page.getByText('No runs match these filters')).toBeVisible();

  // experiment list: the experiment completed (its data compares) but says its thresholds failed
  await page.goto('/experiments');
  await expect(
    page.getByRole('row', { name: /Threshold check/ }).getByTestId('experiment-thresholds-failed'),
  ).toHaveText('1 thresholds failed');
  await page.screenshot({ path: `${SHOTS}/thresholds-04-experiment-list.png`, fullPage: true });
});

/**
 * An insight as a threshold, through the real worker: a run on a roomy pool shows "pool never
 * waited"; "Fail future runs on this" adds `insight:pool-never-waited` is "absent" to its
 * scenario, and the next run of that scenario ends "Thresholds failed" naming it.
 */
test('an insight becomes a threshold: the next run of the scenario fails on it', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(5 * 60_000);
  await signUpApi(page.request, baseURL!, 'Insight Threshold');
  const call = trpcOk(page.request, baseURL!);
  const target = await call('target.create', {
    kind: 'managed',
    name: 'Lab',
    requestDefaults: { method: 'GET', path: '/work' },
  });
  const pc = await call('poolConfig.create', {
    targetId: target.id,
    name: 'prewarm 8',
    config: { strategy: 'prewarm', params: { maxConns: 8 } },
  });
  const sc = await call('scenario.create', {
    name: 'two users, roomy pool',
    scenario: {
      template: 'sustained',
      params: { vus: 2, durationMs: 2000 },
      requests: [{ path: '/work', query: { ms: 1 } }],
    },
  });
  const launch = async (name: string) => {
    const { experimentId } = (await call('experiment.launch', {
      name,
      targetId: target.id,
      poolConfigIds: [pc.id],
      scenarioIds: [sc.id],
      repeats: 1,
    })) as unknown as { experimentId: string };
    await page.goto(`/experiments/${experimentId}`);
    const cell = page.getByTestId('matrix-run').first();
    await expect(cell.getByTestId('run-status')).toHaveText(/Succeeded|Thresholds failed/, {
      timeout: 120_000,
    });
    await cell.click();
    await expect(page).toHaveURL(/\/runs\/[a-z0-9]+$/);
  };

  await launch('before the threshold');
  const insight = page.getByTestId('run-insights').locator('[data-code="pool-never-waited"]');
  await expect(insight).toBeVisible();
  await insight.getByRole('button', { name: 'Fail future runs on this' }).click();
  await expect(insight.getByRole('status')).toContainText(
    'Added to two users, roomy pool: its next runs fail when this is found',
  );
  await page.screenshot({
    path: `${SHOTS}/thresholds-05-insight-to-threshold.png`,
    fullPage: true,
  });

  // the scenario editor lists it under run insights
  await page.goto(`/scenarios/${sc.id}`);
  await expect(page.getByLabel('Threshold 1 metric')).toHaveValue('insight:pool-never-waited');
  await expect(page.getByLabel('Threshold 1 expression')).toHaveValue('absent');

  await launch('after the threshold');
  await expect(page.getByTestId('run-status').first()).toHaveText('Thresholds failed');
  const thresholds = page.getByTestId('thresholds');
  await expect(thresholds).toContainText('insight:pool-never-waited absent');
  await expect(thresholds).toContainText('found');
  await page.screenshot({ path: `${SHOTS}/thresholds-06-insight-failed.png`, fullPage: true });
});
