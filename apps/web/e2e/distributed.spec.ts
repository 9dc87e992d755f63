import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { expectScopedHeadings, SHOTS, signUpApi, trpcOk } from './helpers';

const REPO = fileURLToPath(new URL('../../..', import.meta.url));

/**
 * A run on two load generators through the real form, queue, workers, k6 and lab target: with the
 * stack's one worker the form says so and the launch is refused at the field; a second real worker
 * joins, the launch goes through, the run is split across both, and the run page lists each
 * generator with its req/s, CPU and memory. (A run whose generators do not all join waits and
 * fails truthfully: apps/worker/test/distributed-waiting.test.ts.)
 */
test('load generators: chosen in the form, refused beyond the workers online, then split across two workers', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(5 * 60_000);
  await signUpApi(page.request, baseURL!, 'Grace Hopper');
  const call = trpcOk(page.request, baseURL!);
  const target = await call('target.create', {
    kind: 'managed',
    name: 'Lab target',
    requestDefaults: { method: 'GET', path: '/health' },
  });
  const pc = await call('poolConfig.create', {
    targetId: target.id,
    name: 'shared 4',
    config: { strategy: 'fixed', params: { maxConns: 4 } },
  });
  const sc = await call('scenario.create', {
    name: 'rate 40 for 4 s',
    scenario: {
      template: 'constant-arrival-rate',
      params: { ratePerSec: 40, durationMs: 4000, preAllocatedVUs: 4 },
      requests: [{ path: '/health' }],
    },
  });

  await page.goto(
    `/experiments/new?targetId=${target.id}&poolConfigIds=${pc.id}&scenarioIds=${sc.id}&repeats=1`,
  );
  await expect(page.getByLabel('Load generators')).toHaveValue('1');
  await page.getByLabel('Load generators').fill('17');
  await page.getByRole('button', { name: 'Run experiment' }).click();
  await expect(page.getByText('must be at most 16')).toBeVisible();
  await page.getByLabel('Load generators').fill('2');
  // The stack runs one worker: the form says so, and the launch is refused at the field instead of
  // holding that worker while the run waits for a second generator that never comes.
  await expect(page.getByText(/1 worker online now/)).toBeVisible();
  await page.getByRole('button', { name: 'Run experiment' }).click();
  await expect(
    page
      .getByText('2 load generators need 2 workers online; 1 is online', { exact: false })
      .first(),
  ).toBeVisible();
  await expect(page).toHaveURL(/\/experiments\/new/);

  const second = spawn(process.execPath, ['--import', 'tsx', 'apps/worker/src/index.ts'], {
    cwd: REPO,
    env: {
      ...process.env,
      WORKER_ID: `e2e-generator-${randomBytes(3).toString('hex')}`,
      WORKER_HEALTH_PORT: '0',
    },
    stdio: 'ignore',
  });
  let runId = '';
  try {
    // a second real worker joins the fleet; the form sees it and the same launch goes through
    await expect(page.getByText(/2 workers online now/)).toBeVisible({ timeout: 90_000 });
    await page.getByRole('button', { name: 'Run experiment' }).click();
    await expect(page).toHaveURL(/\/experiments\/(?!new)[\w-]+$/);
    await page.getByTestId('matrix-run').first().click();
    await expect(page).toHaveURL(/\/runs\/[\w-]+$/);
    runId = page.url().split('/').at(-1)!;
    await expect(page.getByTestId('run-status').first()).toHaveText('Succeeded', {
      timeout: 180_000,
    });
    const table = page.getByTestId('load-generators');
    await expect(table.locator('tbody tr')).toHaveCount(2);
    await expectScopedHeadings(page);
    const run = (await call('run.get', { id: runId }, 'query')) as unknown as {
      segments: Array<{ workerId: string; requests: number; cpuMaxPercent: number | null }>;
    };
    expect(new Set(run.segments.map((s) => s.workerId)).size).toBe(2);
    for (const [i, s] of run.segments.entries()) {
      const cells = table.locator('tbody tr').nth(i).getByRole('cell');
      await expect(cells.nth(1)).toHaveText(s.workerId);
      await expect(cells.nth(2)).toHaveText('succeeded');
      expect(Number(await cells.nth(3).textContent())).toBeGreaterThan(10); // 20 req/s each
      // each generator's machine, measured as a single run's: CPU beside it, late samples
      await expect(cells.nth(6)).toHaveText(/^\d+ %$/);
      await expect(cells.nth(7)).toHaveText(/^\d+$/);
      await expect(cells.nth(8)).toContainText(/B$/);
    }
    // the CPU warning shows exactly when a generator's own k6 was above 80 % of a core
    const hot = run.segments.some((s) => (s.cpuMaxPercent ?? 0) > 80);
    await expect(page.getByTestId('generator-cpu-warning')).toHaveCount(hot ? 1 : 0);
    await page
      .getByTestId('load-generators')
      .screenshot({ path: `${SHOTS}/run-load-generators.png` });
  } finally {
    second.kill('SIGTERM');
  }
});
