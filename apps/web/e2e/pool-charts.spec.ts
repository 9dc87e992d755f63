import { expect, test } from '@playwright/test';
import { SHOTS, signUpApi, trpcOk } from './helpers';

/**
 * Issue 17, charts that show the pool, through the real worker: an upload run (seed 000's POST
 * /upload) charts the lab target's upstream HTTP pool; an arrival-rate run charts allocated VUs
 * beside the active ones and names them in its summary.
 */
test('upload runs chart the upstream HTTP pool; arrival-rate runs chart allocated VUs', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(5 * 60_000);
  await signUpApi(page.request, baseURL!, 'Pool Charts');
  const call = trpcOk(page.request, baseURL!);
  const target = await call('target.create', {
    kind: 'managed',
    name: 'Lab',
    requestDefaults: { method: 'GET', path: '/health' },
  });
  const pc = await call('poolConfig.create', {
    targetId: target.id,
    name: 'prewarm',
    config: { strategy: 'prewarm', params: { upstreamConns: 4 } },
  });
  const upload = await call('scenario.create', {
    name: 'uploads',
    scenario: {
      template: 'sustained',
      params: { vus: 4, durationMs: 4000 },
      requests: [{ method: 'POST', path: '/upload', body: { kind: 'bytes', sizeBytes: 20480 } }],
    },
  });
  const rate = await call('scenario.create', {
    name: 'rate 20/s',
    scenario: {
      template: 'constant-arrival-rate',
      params: { ratePerSec: 20, durationMs: 4000, preAllocatedVUs: 8, maxVUs: 8 },
      requests: [{ path: '/health' }],
    },
  });
  const launched = (await call('experiment.launch', {
    name: 'Pool charts',
    targetId: target.id,
    poolConfigIds: [pc.id],
    scenarioIds: [upload.id, rate.id],
    repeats: 1,
  })) as unknown as { experimentId: string };
  let runs: Array<{ id: string; status: string; scenarioId: string }> = [];
  await expect
    .poll(
      async () => {
        runs = (
          (await call('experiment.get', { id: launched.experimentId }, 'query')) as unknown as {
            runs: typeof runs;
          }
        ).runs;
        return runs.map((r) => r.status).join(',');
      },
      { timeout: 4 * 60_000, intervals: [2000] },
    )
    .toBe('succeeded,succeeded');

  await page.goto(`/runs/${runs.find((r) => r.scenarioId === upload.id)!.id}`);
  const up = page.getByTestId('chart-upstream');
  await expect(up).toBeVisible({ timeout: 60_000 });
  await expect(up.locator('.recharts-line')).toHaveCount(3);
  await expect(up).toContainText('in use');
  // no database pool on this endpoint: the summary's pool wait is the upstream pool's
  await expect(page.getByTestId('run-summary')).toContainText('Upstream pool wait');
  await page.screenshot({ path: `${SHOTS}/pool-charts-01-upstream.png`, fullPage: true });

  await page.goto(`/runs/${runs.find((r) => r.scenarioId === rate.id)!.id}`);
  const vus = page.getByTestId('chart-vus');
  await expect(vus).toContainText('allocated', { timeout: 60_000 });
  await expect(page.getByText(/max VUs \d+ · allocated 8/)).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/pool-charts-02-allocated-vus.png`, fullPage: true });
});
