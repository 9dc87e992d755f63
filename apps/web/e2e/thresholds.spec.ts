import { expect, test } from '@playwright/test';
import { SHOTS, signUpApi, trpcOk } from './helpers';

/**
 * Issue 17: a run whose k6 thresholds failed (k6's exit code 99) is a failure wherever a status
 * shows: the run header, the experiment matrix and the runs list (where it can be filtered), the
 * experiment list. Through the real worker, k6 and lab target: no loopback request answers in 1 µs.
 */
test('a failed-threshold run shows as failed on the run header, the experiment matrix and the runs list', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(6 * 60_000);
  await signUpApi(page.request, baseURL!, 'Threshold Tester');
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
  const launched = (await call('experiment.launch', {
    name: 'Threshold check',
    targetId: target.id,
    poolConfigIds: [pc.id],
    scenarioIds: [sc.id],
    repeats: 1,
  })) as unknown as { experimentId: string };
  let runId = '';
  await expect
    .poll(
      async () => {
        const e = (await call(
          'experiment.get',
          { id: launched.experimentId },
          'query',
        )) as unknown as { runs: Array<{ id: string; status: string }> };
        runId = e.runs[0]?.id ?? '';
        return e.runs[0]?.status;
      },
      { timeout: 4 * 60_000, intervals: [2000] },
    )
    .toBe('thresholds_failed');

  // run header: red "Thresholds failed", never green "Succeeded"
  await page.goto(`/runs/${runId}`);
  const header = page.getByTestId('run-status').first();
  await expect(header).toHaveText('Thresholds failed', { timeout: 60_000 });
  await expect(page.getByText('Succeeded', { exact: true })).toHaveCount(0);
  await page.screenshot({ path: `${SHOTS}/thresholds-01-run-header.png`, fullPage: true });

  // experiment matrix: the run's cell says so, with the failed threshold named
  await page.goto(`/experiments/${launched.experimentId}`);
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
