import { expect, test } from '@playwright/test';
import { expectScopedHeadings, SHOTS, signUpApi, trpcOk } from './helpers';

// Two checks, one of which fails on every 200 (the lab target's /health never says "hello"), in
// the root group and in a group; a threshold on k6's checks rate, one on a tagged sub-metric, and
// two custom Trends: one of times (ms), one of plain numbers.
const SCRIPT = `import http from 'k6/http';
import { check, group, sleep } from 'k6';
import { Trend } from 'k6/metrics';

const waited = new Trend('health_wait_ms', true);
const bodyBytes = new Trend('body_bytes');
const uploadBytes = new Trend('upload_bytes');

export const options = {
  scenarios: { load: { executor: 'per-vu-iterations', vus: 2, iterations: 20 } },
  thresholds: {
    checks: ['rate>0.99'],
    'http_req_duration{name:health}': ['p(95)<2000'],
    health_wait_ms: ['p(99)<2000'],
  },
};

export default function () {
  const res = http.get(\`\${__ENV.BASE_URL}/health\`, { tags: { name: 'health' } });
  waited.add(res.timings.waiting);
  bodyBytes.add(String(res.body).length);
  // each VU's first iteration "uploads" 5 MB: above a plain trend's top of 3,600,000
  uploadBytes.add(__ITER === 0 ? 5e6 : 1000);
  check(res, { 'status is 200': (r) => r.status === 200 });
  group('body', () => {
    check(res, { 'says hello': (r) => String(r.body).includes('hello') });
  });
  sleep(0.1);
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
  await expect(thresholds).toContainText(
    'http_req_duration{name:health} p(95)<2000 evaluated by PoolBench',
  );
  await expect(thresholds).toContainText('health_wait_ms p(99)<2000 evaluated by PoolBench');
  await expect(thresholds).not.toContainText('not evaluated');
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
    expect.objectContaining({ metric: 'health_wait_ms', pass: true }),
    expect.objectContaining({ metric: 'http_req_duration{name:health}', pass: true }),
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
  // the group's duration beside its checks: k6's group_duration of ::body, once per iteration
  const body = checks.locator('[data-testid="check-group"][data-group="::body"]');
  await expect(body.getByTestId('group-duration')).toContainText('p95');
  await expect(body.getByTestId('group-duration')).toContainText('40 times');
  await expect(checks).toContainText('50.0 % of 80 passed');
  await expectScopedHeadings(page);
  const failed = page.getByTestId('thresholds').locator('li', { hasText: 'checks rate>0.99' });
  await expect(failed).toContainText('fail');
  await expect(page.getByText('1 of 3 thresholds failed: checks rate>0.99')).toBeVisible();
  // the sub-metric's value, and the custom Trend's chart
  const sub = page.getByTestId('sub-metric').filter({ hasText: 'http_req_duration{name:health}' });
  await expect(sub).toContainText('40');
  await expect(sub).toContainText('p95');
  // and per second, charted: the series its threshold names
  const subChart = page
    .getByTestId('sub-metric-charts')
    .locator('[data-testid="custom-metric-chart"][data-metric="http_req_duration{name:health}"]');
  await expect(subChart.locator('.recharts-line')).toHaveCount(3);
  const trend = page.locator('[data-testid="custom-metric-chart"][data-metric="health_wait_ms"]');
  await expect(trend).toBeVisible();
  await expect(trend.locator('.recharts-line')).toHaveCount(3);
  // new Trend(name, true) holds times: ms; new Trend(name) plain numbers, which never read ms
  await expect(trend.getByTestId('custom-metric-unit')).toHaveText('trend · ms');
  const numbers = page.locator('[data-testid="custom-metric-chart"][data-metric="body_bytes"]');
  await expect(numbers.getByTestId('custom-metric-unit')).toHaveText('trend · number');
  await expect(numbers.locator('.recharts-line')).toHaveCount(3);
  await expect(numbers.getByTestId('custom-metric-negative')).toHaveCount(0);
  await expect(numbers.getByTestId('custom-metric-above-top')).toHaveCount(0);
  // a sample above the histogram's top is held there, and the chart says so
  const uploads = page.locator('[data-testid="custom-metric-chart"][data-metric="upload_bytes"]');
  await expect(uploads.getByTestId('custom-metric-above-top')).toHaveText(
    /^2 samples above 3,600,000 counted as 3,600,000: a percentile at the top means at least/,
  );
  await checks.scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/k6-script-checks-01-run.png`, fullPage: true });

  // the two pool configs' runs side by side: the check pass rate is one of the compared metrics
  await page.goto(
    `/compare?items=c.${experimentId}.${pcs[0]!.id}.${script.id},c.${experimentId}.${pcs[1]!.id}.${script.id}`,
  );
  const merged = page.getByTestId('merged-table');
  await expect(merged.locator('tbody tr')).toHaveCount(2, { timeout: 60_000 });
  await expect(page.getByText('Check pass rate').first()).toBeVisible();
  // the custom Trend and the group's duration side by side, each with the candidate's diff
  for (const metric of ['health_wait_ms', 'group_duration{group:::body}']) {
    const row = page.locator(
      `[data-testid="script-metric-row"][data-metric="${metric}"][data-stat="p95"]`,
    );
    await expect(row).toBeVisible();
    await expect(row.getByTestId('diff')).toContainText(/[+−±][\d.]+ (ms|s)/);
  }
  // a trend of plain numbers is compared without a unit
  const bytesRow = page.locator(
    '[data-testid="script-metric-row"][data-metric="body_bytes"][data-stat="p95"]',
  );
  await expect(bytesRow.getByTestId('diff')).toHaveText(/^[+−±][\d.,]+( \([+−±][\d.]+ %\))?$/);
  await expect(bytesRow).not.toContainText(' ms');
  await expectScopedHeadings(page);
  // and in the exports: a column per custom statistic and per check
  const query = new URL(page.url()).search.slice(1);
  const csv = await page.request.get(`/api/exports/comparison?format=summary-csv&${query}`);
  expect(csv.status()).toBe(200);
  const [header, ...lines] = (await csv.text()).trim().split('\r\n');
  const cols = header!.split(',');
  expect(cols).toEqual(
    expect.arrayContaining([
      'custom:health_wait_ms:p95_ms',
      'custom:group_duration{group:::body}:p95_ms',
      'custom:body_bytes:p95',
      'check:status is 200:passes',
      'check:::body::says hello:fails',
    ]),
  );
  expect(lines).toHaveLength(2);
  for (const line of lines)
    expect(line.split(',')[cols.indexOf('check:::body::says hello:fails')]).toBe('40');
  await page.screenshot({ path: `${SHOTS}/k6-script-checks-02-compare.png`, fullPage: true });
});

/**
 * A script that tags every request uniquely, 200 req/s for 15 s, with a threshold on one such
 * tag: the run completes, the output keeps at most 50 series, and the page says what it left out.
 */
test('a script tagging each request uniquely keeps bounded series and says so', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(4 * 60_000);
  await signUpApi(page.request, baseURL!, 'Unique Tagger');
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
  const source = `import http from 'k6/http';
import exec from 'k6/execution';
export const options = {
  scenarios: { load: { executor: 'constant-arrival-rate', rate: 200, timeUnit: '1s', duration: '15s', preAllocatedVUs: 20 } },
  thresholds: { 'http_req_duration{name:req-5}': ['p(95)<2000'] },
};
export default function () {
  http.get(\`\${__ENV.BASE_URL}/health\`, { tags: { name: 'req-' + exec.scenario.iterationInTest } });
}
`;
  const inspected = (await call(
    'scenario.inspectScript',
    { source, files: {} },
    'mutation',
  )) as unknown as {
    ok: boolean;
  };
  expect(inspected.ok).toBe(true);
  // the editor saves the thresholds the check step applied, as here
  const sc = await call('scenario.saveScript', {
    name: 'unique tags',
    script: {
      template: 'k6-script',
      source,
      files: {},
      thresholds: [{ metric: 'http_req_duration{name:req-5}', expr: 'p(95)<2000' }],
    },
  });
  const { experimentId } = (await call('experiment.launch', {
    name: 'unique tags',
    targetId: target.id,
    poolConfigIds: [pc.id],
    scenarioIds: [sc.id],
    repeats: 1,
  })) as unknown as { experimentId: string };
  await page.goto(`/experiments/${experimentId}`);
  await expect(page.getByTestId('matrix-run').first().getByTestId('run-status')).toHaveText(
    'Succeeded',
    { timeout: 180_000 },
  );
  const runId = (
    (await call('experiment.get', { id: experimentId }, 'query')) as unknown as {
      runs: Array<{ id: string }>;
    }
  ).runs[0]!.id;
  const run = (await call('run.get', { id: runId }, 'query')) as unknown as {
    thresholdResults: Array<{ metric: string; pass: boolean }>;
    summary: {
      requests: number;
      subMetrics: Array<{ name: string; count: number }>;
      subMetricsDropped: number;
    };
  };
  // thousands of distinct tags, far past the 50 series kept (how close k6 came to its 3 000 on a
  // busy machine is for the measurement tests to judge, not this one)
  expect(run.summary.requests).toBeGreaterThan(1000);
  expect(run.summary.subMetrics).toHaveLength(50);
  expect(run.summary.subMetrics[0]).toMatchObject({
    name: 'http_req_duration{name:req-5}',
    count: 1,
  });
  expect(run.summary.subMetricsDropped).toBe(run.summary.requests - 50);
  expect(run.thresholdResults).toEqual([
    expect.objectContaining({ metric: 'http_req_duration{name:req-5}', pass: true }),
  ]);
  await page.goto(`/runs/${runId}`);
  await expect(page.getByTestId('sub-metrics-truncated')).toContainText('at most 50 series');
  await expect(page.getByTestId('sub-metric')).toHaveCount(50);
  // per second, only the series the threshold names is charted
  await expect(
    page.getByTestId('sub-metric-charts').getByTestId('custom-metric-chart'),
  ).toHaveCount(1);
  await page.getByTestId('sub-metrics').scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/k6-script-checks-03-unique-tags.png`, fullPage: true });
});
