import { expect, test } from '@playwright/test';
import { SHOTS, signUpApi, trpcOk } from './helpers';

// Two checks, one of which fails on every 200 (the lab target's /health never says "hello"), in
// the root group and in a group, and a threshold on k6's checks rate.
const SCRIPT = `import http from 'k6/http';
import { check, group } from 'k6';

export const options = {
  scenarios: { load: { executor: 'per-vu-iterations', vus: 2, iterations: 20 } },
  thresholds: { checks: ['rate>0.99'] },
};

export default function () {
  const res = http.get(\`\${__ENV.BASE_URL}/health\`, { tags: { name: 'health' } });
  check(res, { 'status is 200': (r) => r.status === 200 });
  group('body', () => {
    check(res, { 'says hello': (r) => String(r.body).includes('hello') });
  });
}
`;

/**
 * A script's checks as k6 users write them: the checks threshold is evaluated, the run that fails
 * it ends "Thresholds failed" naming it, its page lists both checks with their counts, and two
 * such runs compare their check pass rate side by side.
 */
test('a k6 script whose checks fail ends Thresholds failed and shows its checks', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(5 * 60_000);
  await signUpApi(page.request, baseURL!, 'Check Writer');
  const call = trpcOk(page.request, baseURL!);
  const target = await call('target.create', {
    kind: 'managed',
    name: 'Lab',
    requestDefaults: { method: 'GET', path: '/health' },
  });
  const pcs = await Promise.all(
    [4, 2].map((n) =>
      call('poolConfig.create', {
        targetId: target.id,
        name: `fixed ${n}`,
        config: { strategy: 'fixed', params: { maxConns: n } },
      }),
    ),
  );

  await page.goto('/scenarios/import');
  await page.getByLabel('Name', { exact: true }).fill('checks script');
  await page.getByLabel('Script', { exact: true }).fill(SCRIPT);
  await page.getByRole('button', { name: 'Check script' }).click();
  const thresholds = page.getByTestId('script-thresholds');
  await expect(thresholds).toContainText('checks rate>0.99 evaluated by PoolBench', {
    timeout: 60_000,
  });
  await page.getByRole('button', { name: 'Save as scenario' }).click();
  await expect(page).toHaveURL(/\/scenarios$/);
  const list = (await call('scenario.list', {}, 'query')) as unknown as Array<{
    id: string;
    name: string;
  }>;
  const script = list.find((s) => s.name === 'checks script')!;

  const { experimentId } = (await call('experiment.launch', {
    name: 'checks',
    targetId: target.id,
    poolConfigIds: pcs.map((p) => p.id),
    scenarioIds: [script.id],
    repeats: 1,
  })) as unknown as { experimentId: string };
  await page.goto(`/experiments/${experimentId}`);
  const cells = page.getByTestId('matrix-run');
  for (const i of [0, 1])
    await expect(cells.nth(i).getByTestId('run-status')).toHaveText('Thresholds failed', {
      timeout: 180_000,
    });

  const runs = (
    (await call('experiment.get', { id: experimentId }, 'query')) as unknown as {
      runs: Array<{ id: string; poolConfigId: string }>;
    }
  ).runs;
  const first = runs.find((r) => r.poolConfigId === pcs[0]!.id)!;
  const run = (await call('run.get', { id: first.id }, 'query')) as unknown as {
    status: string;
    thresholdResults: Array<{ metric: string; expr: string; pass: boolean }>;
    summary: {
      failed: number;
      checks: { passes: number; fails: number; items: Array<Record<string, unknown>> };
    };
  };
  expect(run.thresholdResults).toEqual([
    expect.objectContaining({ metric: 'checks', expr: 'rate>0.99', observed: 0.5, pass: false }),
  ]);
  expect(run.summary.checks.items).toEqual([
    { name: 'status is 200', group: '', passes: 40, fails: 0 },
    { name: 'says hello', group: '::body', passes: 0, fails: 40 },
  ]);
  // a failed check is not a failed request
  expect(run.summary.failed).toBe(0);

  await page.goto(`/runs/${first.id}`);
  const checks = page.getByTestId('checks');
  const rows = checks.getByTestId('check');
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0)).toContainText('status is 200');
  await expect(rows.nth(0)).toContainText('40');
  await expect(rows.nth(0)).toContainText('100.0 %');
  await expect(rows.nth(1)).toContainText('says hello');
  await expect(rows.nth(1)).toContainText('0.0 %');
  await expect(checks).toContainText('Group body');
  await expect(checks).toContainText('50.0 % of 80 passed');
  const failed = page.getByTestId('thresholds').locator('li', { hasText: 'checks rate>0.99' });
  await expect(failed).toContainText('fail');
  await checks.scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/k6-script-checks-01-run.png`, fullPage: true });

  // the two pool configs' runs side by side: the check pass rate is one of the compared metrics
  await page.goto(
    `/compare?items=c.${experimentId}.${pcs[0]!.id}.${script.id},c.${experimentId}.${pcs[1]!.id}.${script.id}`,
  );
  const merged = page.getByTestId('merged-table');
  await expect(merged.locator('tbody tr')).toHaveCount(2, { timeout: 60_000 });
  await expect(page.getByText('Check pass rate').first()).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/k6-script-checks-02-compare.png`, fullPage: true });
});
