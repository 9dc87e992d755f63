import { expect, test } from '@playwright/test';
import { parseRun, toJson } from '@poolbench/db';
import { SHOTS, signUpApi, trpcOk } from './helpers';
import { closeE2eDb, e2eDb, finishedExperiment, teamOf } from './synthetic';

/**
 * Issue 17, charts that show the pool: an upload run (seed 000's POST /upload) charts the lab
 * target's upstream HTTP pool; an arrival-rate run charts allocated VUs beside the active ones
 * and names them in its summary. Both runs are synthetic, with the upstream pool and allocated
 * VUs stored as the worker stores them (that the worker samples them is
 * apps/worker/test/upstream-pool.test.ts and arrival-rate-vus.test.ts).
 */
test.afterAll(closeE2eDb);

test('upload runs chart the upstream HTTP pool; arrival-rate runs chart allocated VUs', async ({
  page,
  baseURL,
}) => {
  const email = await signUpApi(page.request, baseURL!, 'Pool Charts');
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
  const teamId = await teamOf(email);
  const db = e2eDb();
  const runOf = async (scenario: { id: string; name: string }) => {
    const experimentId = await finishedExperiment({
      teamId,
      targetId: target.id,
      name: `Pool charts: ${scenario.name}`,
      poolConfigs: [{ id: pc.id, name: 'prewarm' }],
      scenario,
      repeats: 1,
      seconds: 4,
    });
    const run = parseRun(await db.run.findFirstOrThrow({ where: { experimentId } }));
    return { id: run.id, summary: run.summary! };
  };
  // the upload run: no database pool, the upstream HTTP pool open, in use and waited for
  const uploadRun = await runOf({ id: upload.id, name: 'uploads' });
  await db.resourceSample.updateMany({
    where: { runId: uploadRun.id, instance: -1 },
    data: {
      poolTotal: null,
      poolIdle: null,
      poolInUse: null,
      poolMax: null,
      poolWaitCount: null,
      poolWaitMs: null,
      upstreamOpen: 4,
      upstreamInUse: 3,
      upstreamMax: 4,
      upstreamWaitMs: 0.4,
    },
  });
  await db.run.update({
    where: { id: uploadRun.id },
    data: {
      summary: toJson.runSummary({
        ...uploadRun.summary,
        resources: {
          ...uploadRun.summary.resources,
          poolWaitMsMean: null,
          poolInUsePeak: null,
          upstreamWaitMsMean: 0.4,
          upstreamInUsePeak: 3,
        },
      }),
    },
  });
  // the arrival-rate run: 8 VUs allocated up front, fewer active
  const vu = await runOf({ id: rate.id, name: 'rate 20/s' });
  await db.runSecond.updateMany({ where: { runId: vu.id }, data: { vus: 2, vusAllocated: 8 } });
  await db.run.update({
    where: { id: vu.id },
    data: { summary: toJson.runSummary({ ...vu.summary, vusMax: 8, vusAllocatedMax: 8 }) },
  });
  const runs = [
    { id: uploadRun.id, scenarioId: upload.id },
    { id: vu.id, scenarioId: rate.id },
  ];

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
