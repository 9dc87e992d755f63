import { expect, test } from '@playwright/test';
import { SHOTS, signUpApi, trpcOk } from './helpers';
import { closeE2eDb, e2eDb, teamOf } from './synthetic';

test.afterAll(closeE2eDb);

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

/**
 * The advisor's small print on a Java/HikariCP target, from an answer written as the search
 * stores it: the knob in HikariCP's own words, Little's law not claimed at a setting whose
 * requests failed, a failing run's numbers told apart from the columns' medians, the USL's peak
 * with the caveat of a fixed-rate search, and a recommendation close to the SLO warned about.
 */
test('advisor small print: HikariCP names, failing settings, the USL caveat, near the SLO', async ({
  page,
  baseURL,
}) => {
  const email = await signUpApi(page.request, baseURL!, 'Small Print');
  const call = trpcOk(page.request, baseURL!);
  const target = await call('target.create', {
    kind: 'managed',
    name: 'Orders on HikariCP',
    requestDefaults: { method: 'GET', path: '/work' },
    environment: { runtime: 'java-hikari' },
  });
  const base = await call('poolConfig.create', {
    targetId: target.id,
    name: 'hikari 10',
    config: { strategy: 'fixed', params: { maxConns: 10 } },
  });
  const scenario = await call('scenario.create', {
    name: '60 req/s of 40 ms',
    scenario: {
      template: 'constant-arrival-rate',
      params: { ratePerSec: 60, durationMs: 3000, preAllocatedVUs: 10, maxVUs: 60 },
      requests: [{ path: '/work', query: { ms: 40 } }],
    },
  });
  const setting = (n: number, over: Record<string, unknown>) => ({
    setting: n,
    poolConfigId: base.id,
    runs: 3,
    meets: 3,
    verdict: 'meets',
    p99Median: 44,
    p99Low: 43,
    p99High: 46,
    rpsMedian: 60,
    errorRateMedian: 0,
    dbConnectionsPeak: n,
    rssPeakBytes: 120 * 1048576,
    poolInUseMean: 2.4,
    ...over,
  });
  const now = new Date().toISOString();
  const experiment = await e2eDb().experiment.create({
    data: {
      teamId: await teamOf(email),
      targetId: target.id,
      name: 'Which maximumPoolSize?',
      repeats: 3,
      status: 'completed',
      finishedAt: new Date(),
      poolConfigs: { create: [{ poolConfigId: base.id, position: 0 }] },
      scenarios: { create: [{ scenarioId: scenario.id, position: 0 }] },
      advisor: {
        knob: 'maxConns',
        basePoolConfigId: base.id,
        basePoolConfigName: 'hikari 10',
        base: { strategy: 'fixed', params: { maxConns: 10 }, instanceCount: 1 },
        scenarioId: scenario.id,
        min: 1,
        max: 6,
        objective: { kind: 'slo', p99Ms: 50, errorRate: 0.001, rate: 60 },
        budgetRuns: 12,
        repeatsPerSetting: 3,
      },
      advisorState: {
        status: 'decided',
        recommended: 3,
        summary: 'maxConns 3 is the smallest setting that meets the SLO; maxConns 2 fails it.',
        evidence: [],
        runsUsed: 9,
        budgetRuns: 12,
        settings: [
          setting(2, {
            meets: 0,
            verdict: 'fails',
            p99Median: 1040,
            p99Low: 1002,
            p99High: 1100,
            errorRateMedian: 0.5161,
            reasons: ['p99 1002 ms > 50 ms', 'errors 51.3 % > 0.1 %'],
          }),
          setting(3, {}),
          setting(4, { p99Median: 41, p99High: 42 }),
        ],
        usl: {
          lambda1: 30,
          sigma: 0.72,
          kappa: 0.003,
          peakN: 9.7,
          rSquared: 0.73,
          points: [2, 3, 4].map((n) => ({ n, observed: 60, fitted: 58 })),
        },
        littlesLaw: [
          { setting: 2, expected: 0, observed: 1.8, relativeDifference: null, agrees: false },
          { setting: 3, expected: 2.4, observed: 2.4, relativeDifference: 0, agrees: true },
        ],
        updatedAt: now,
        decidedAt: now,
      },
    },
  });
  await page.goto(`/experiments/${experiment.id}`);
  const card = page.getByTestId('advisor-card');
  await expect(card).toContainText("Advisor: maxConns (HikariCP's maximumPoolSize) of “hikari 10”");
  await expect(card.getByTestId('advisor-recommendation')).toContainText(
    "that is, HikariCP's maximumPoolSize = 3",
  );
  const rows = card.getByTestId('advisor-settings').getByRole('row');
  const failing = rows.filter({ has: page.getByRole('rowheader', { name: '2', exact: true }) });
  await expect(failing).toContainText(
    '3 of 3 runs failed, e.g. p99 1002 ms > 50 ms; errors 51.3 %',
  );
  await expect(failing).toContainText('51.61 %');
  await expect(failing).toContainText('not checked: requests failed');
  await expect(failing).not.toContainText('0.00 expected');
  await expect(card.getByTestId('advisor-usl')).toContainText('peak at N* = 9.7');
  await expect(card.getByTestId('advisor-usl-caveat')).toContainText(
    'this fit describes the offered load, not the target',
  );
  await expect(card.getByTestId('advisor-near-slo')).toContainText(
    'reached p99 46.0 ms, within 25 % of the 50 ms the SLO allows',
  );
  await card.screenshot({ path: `${SHOTS}/advisor-small-print.png` });
});
