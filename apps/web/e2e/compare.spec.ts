import { expect, test } from '@playwright/test';
import { expectScopedHeadings, SHOTS, signUpApi, trpcOk } from './helpers';
import { closeE2eDb, e2eDb, finishedExperiment, teamOf } from './synthetic';

test.afterAll(closeE2eDb);

/**
 * Issue 7's definition of done: a finished experiment with lazy and prewarm (cold-start preset
 * scaled to ~20 s, 2 repeats; synthetic runs stored as the worker stores them), compare the two
 * configs, share the comparison, open the link signed out in a fresh browser context, revoke it,
 * and the same link answers 404.
 */
test('compare lazy vs prewarm -> share -> open signed out -> revoke -> 404', async ({
  page,
  browser,
  baseURL,
}) => {
  const email = await signUpApi(page.request, baseURL!, 'Grace Hopper');
  const call = trpcOk(page.request, baseURL!);
  // the same setup as the web app's experiment flow, through tRPC
  const target = await call('target.create', {
    kind: 'managed',
    name: 'Lab target',
    requestDefaults: { method: 'GET', path: '/work' },
  });
  const lazy = await call('poolConfig.create', {
    targetId: target.id,
    name: 'lazy',
    config: { strategy: 'lazy', params: { maxConns: 10 } },
  });
  const prewarm = await call('poolConfig.create', {
    targetId: target.id,
    name: 'prewarm',
    config: { strategy: 'prewarm', params: {} },
  });
  const preset = (await call('scenario.applyPreset', {
    presetId: 'seed-000-tc1-cold-start-burst',
    scale: 0.125,
    targetId: target.id,
    createPoolConfigs: false,
  })) as unknown as { scenarioIds: string[] };
  expect(preset.scenarioIds).toHaveLength(1);
  const scenario = await e2eDb().scenario.findUniqueOrThrow({
    where: { id: preset.scenarioIds[0] },
  });
  // the runs the worker would have stored: lazy slower than prewarm, 20 s each, 2 repeats
  const experimentId = await finishedExperiment({
    teamId: await teamOf(email),
    targetId: target.id,
    name: 'Cold start: lazy vs prewarm',
    poolConfigs: [
      { id: lazy.id, name: 'lazy' },
      { id: prewarm.id, name: 'prewarm' },
    ],
    scenario: { id: scenario.id, name: scenario.name },
    repeats: 2,
    seconds: 20,
    shape: (i) => (i === 0 ? { latencyMs: 3, rps: 300 } : { latencyMs: 2.5, rps: 320 }),
  });
  const runs = (
    (await call('experiment.get', { id: experimentId }, 'query')) as unknown as {
      runs: Array<{ status: string }>;
    }
  ).runs;
  expect(runs.map((r) => r.status)).toEqual(Array(4).fill('succeeded'));

  // From the experiment page to the comparison of its two configs
  await page.goto(`/experiments/${experimentId}`);
  await page.getByRole('link', { name: 'Compare configs' }).click();
  await expect(page).toHaveURL(/\/compare\?items=c\./, { timeout: 120_000 }); // a dev server compiles the route on first use
  const table = page.getByTestId('comparison-table');
  await expect(table).toBeVisible({ timeout: 120_000 });
  await expect(page.getByRole('heading', { name: 'lazy vs prewarm', exact: true })).toBeVisible();
  for (const label of [
    'Throughput',
    'Latency p95',
    'Latency p99',
    'Latency max',
    'Error rate',
    'Connection set-up p95',
    'Target CPU mean',
    'Target RSS peak',
    'Pool wait mean',
  ]) {
    await expect(table.getByRole('rowheader', { name: new RegExp(`^${label}`) })).toBeVisible();
  }
  await expect(table.getByTestId('verdict').first()).toBeVisible();
  await expect(page.getByTestId('compare-warnings')).toContainText('fewer than 4 repeats');
  await expectScopedHeadings(page);
  // 2 vs 2 runs: the widest interval covers 1 − 2/C(4,2) = 66.7 %, and the table says so instead of "95 % CI"
  await expect(table.getByTestId('metric-p95Ms').getByTestId('interval-coverage')).toContainText(
    '66.7 %',
  );
  // the matrix colours only verdicts that hold: 2 vs 2 runs decide nothing, so nothing is red or green
  const candidateCell = page
    .getByTestId('pivot')
    .locator('[data-testid="pivot-cell"]:not([data-verdict="reference"])')
    .first();
  await expect(candidateCell).toHaveAttribute('data-verdict', 'inconclusive');
  await expect(candidateCell).toHaveCSS('background-color', 'rgba(0, 0, 0, 0)');
  // from inconclusive to an answer: the bootstrap estimate under the verdict, and repeats to add in place
  await expect(table.getByTestId('metric-p50Ms')).toContainText(
    /would likely resolve this|more than 50 repeats per side/,
    { timeout: 60_000 },
  );
  await expect(table.getByRole('button', { name: /^Add \d+ repeats?$/ }).first()).toBeVisible();
  await expect(page.getByTestId('merged-table')).toContainText('prewarm');
  await expect(page.getByTestId('chart-spectrum').locator('.recharts-line').first()).toBeVisible();
  await expect(page.getByTestId('chart-rps').locator('.recharts-area').first()).toBeVisible();
  await expect(page.getByTestId('chart-p95Ms').locator('.recharts-line')).toHaveCount(2);
  await expect(page.getByTestId('pivot')).toBeVisible();
  await expect(page.getByTestId('compare-chart-area')).toHaveAttribute('data-charts-drawn', 'true'); // charts mount one per frame
  await page.screenshot({ path: `${SHOTS}/compare-01-view.png`, fullPage: true });

  // Time window: the cold start alone. Bad input names the field; a window re-computes everything.
  const picker = page.getByTestId('window-picker');
  await expect(picker.getByTestId('window-state')).toContainText('Whole runs');
  await picker.getByLabel('From (s)').fill('5');
  await picker.getByLabel('To (s)').fill('5');
  await picker.getByRole('button', { name: 'Apply' }).click();
  await expect(picker.getByRole('alert')).toHaveText('To must be after From (5 s)');
  await expect(page).not.toHaveURL(/from=/);
  await picker.getByRole('button', { name: /^First \d+ s$/ }).click();
  await expect(page).toHaveURL(/&from=0&to=\d+/);
  const to = new URL(page.url()).searchParams.get('to');
  await expect(page.getByTestId('window-picker').getByTestId('window-state')).toHaveText(
    `Seconds 0–${to} of every run: statistics, percentiles and charts`,
    { timeout: 60_000 },
  );
  await expect(
    page.getByText(`One value per run and metric, over seconds 0–${to} of each run.`, {
      exact: false,
    }),
  ).toBeVisible();
  await expect(page.getByTestId('comparison-table').getByTestId('verdict').first()).toBeVisible();
  await expect(page.getByTestId('compare-chart-area')).toHaveAttribute('data-charts-drawn', 'true');
  const windowed = await page.request.get(
    `/api/exports/comparison?format=json&${new URL(page.url()).search.slice(1)}`,
  );
  expect(windowed.status()).toBe(200);
  expect(((await windowed.json()) as { window: unknown }).window).toEqual({
    from: 0,
    to: Number(to),
  });
  await page.screenshot({ path: `${SHOTS}/compare-01b-window.png`, fullPage: true });
  await page.getByTestId('window-picker').getByRole('button', { name: 'Whole runs' }).click();
  await expect(page).not.toHaveURL(/from=/);
  await expect(page.getByTestId('window-picker').getByTestId('window-state')).toContainText(
    'Whole runs',
    { timeout: 60_000 },
  );

  // offline report: one self-contained file, nothing to fetch
  const report = await page.request.get(
    `/api/exports/comparison?format=html&${new URL(page.url()).search.slice(1)}`,
  );
  expect(report.status()).toBe(200);
  const html = await report.text();
  expect(html).toContain('<svg');
  expect(html).not.toMatch(/<script|<link |src="http|url\(http/i);

  // Share the comparison
  await page.getByRole('button', { name: 'Share' }).click();
  await page.getByLabel('Title').fill('Cold start: lazy vs prewarm');
  await page.getByRole('button', { name: 'Create link' }).click();
  const shareUrl = await page.getByTestId('share-url').inputValue();
  expect(shareUrl).toMatch(/\/share\/[A-Za-z0-9_-]{43}$/);
  await page.screenshot({ path: `${SHOTS}/compare-02-share-dialog.png` });
  await page.keyboard.press('Escape');

  // A fresh, signed-out browser context sees the results
  const outsider = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const anon = await outsider.newPage();
  const res = await anon.goto(shareUrl, { timeout: 120_000 });
  expect(res?.status()).toBe(200);
  expect(res?.headers()['referrer-policy']).toBe('no-referrer');
  expect(res?.headers()['x-robots-tag']).toContain('noindex');
  await expect(anon.locator('meta[name="robots"]')).toHaveAttribute('content', /noindex/);
  await expect(anon.locator('meta[property="og:description"]')).toHaveAttribute(
    'content',
    /prewarm vs lazy: p95 [+−±]/,
  );
  await expect(anon.getByRole('heading', { name: 'Cold start: lazy vs prewarm' })).toBeVisible();
  await expect(anon.getByText('Latency p99').first()).toBeVisible();
  expect(await anon.content()).not.toMatch(/<script/i);
  await anon.screenshot({ path: `${SHOTS}/compare-03-shared-signed-out.png`, fullPage: true });

  // Revoke in settings; the same link now answers 404
  await page.goto('/settings');
  const row = page.getByTestId('share-link-row').filter({ hasText: 'Cold start: lazy vs prewarm' });
  await expect(row).toContainText('active', { timeout: 120_000 });
  await row.getByRole('button', { name: 'Revoke' }).click();
  // revoking asks first: nothing changes until the dialog's own button is pressed
  const ask = page.getByRole('dialog', { name: /^Revoke the link/ });
  await expect(ask).toContainText('Anyone who opens it afterwards gets 404');
  await expect(row).toContainText('active');
  await ask.getByRole('button', { name: 'Revoke link' }).click();
  await expect(row).toContainText('revoked');
  await page
    .getByTestId('share-links')
    .screenshot({ path: `${SHOTS}/compare-04-share-links-settings.png` });
  const gone = await anon.goto(shareUrl);
  expect(gone?.status()).toBe(404);
  await expect(anon.getByText('Link not found')).toBeVisible();
  await anon.screenshot({ path: `${SHOTS}/compare-05-revoked-404.png` });
  await outsider.close();
});
