import { expect, test } from '@playwright/test';
import { nav, SHOTS, signUpApi, signUpUi, trpcOk } from './helpers';

test.use({ viewport: { width: 1280, height: 800 } });

/**
 * A brand-new team's first hour on a runtime other than Go, at 1280 × 800: onboarding, a
 * Java/HikariCP target on MariaDB through the form, pool configs where only HikariCP's strategies
 * are offered and the server's refusal lands at its field, an experiment through the real worker,
 * the run page naming the JVM, HikariCP and MariaDB that served it, the comparison and a share
 * link opened signed out.
 */
test('a new team on Java/HikariCP and MariaDB: target, pool configs, experiment, run, compare, share', async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(10 * 60_000);
  await signUpUi(page, 'Hikari Newcomer');
  await expect(page.getByTestId('onboarding')).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/journey-01-onboarding.png`, fullPage: true });

  // the target, through the form, worded for its runtime and database
  await nav(page, 'Targets');
  await page.getByRole('link', { name: 'New target' }).first().click();
  await page.getByLabel('Name', { exact: true }).fill('Orders on HikariCP');
  await page.getByLabel('Runtime', { exact: true }).selectOption('java-hikari');
  await page.getByLabel('Database', { exact: true }).selectOption('mariadb');
  await expect(page.getByText('Java + HikariCP on MariaDB')).toBeVisible();
  await expect(page.getByLabel('Endpoint', { exact: true })).toHaveValue('GET /work');
  await page.screenshot({ path: `${SHOTS}/journey-02-target-form.png`, fullPage: true });
  await page.getByRole('button', { name: 'Create target' }).click();
  await expect(page).toHaveURL(/\/targets\/(?!new$)[a-z0-9]+$/);
  const targetUrl = page.url();
  const targetId = targetUrl.split('/').pop()!;

  // pool configs: HikariCP's seven strategies only, a supported one preselected
  await page.getByRole('link', { name: 'Add pool config' }).click();
  const strategies = page.getByRole('radio');
  await expect(strategies).toHaveCount(7);
  await expect(page.locator('input[name="strategy"][value="lazy"]')).toHaveCount(0);
  await expect(page.locator('input[name="strategy"]:checked')).toHaveValue('prewarm');
  await page.getByText('Fixed (naive)', { exact: true }).click();
  await page.getByLabel('Name', { exact: true }).fill('hikari 8');
  await page.getByLabel(/^Max connections/).fill('8');
  // below HikariCP's connectionTimeout floor: the schema allows it, the runtime's check refuses it
  const acquire = page.getByLabel(/^Acquire timeout/);
  await acquire.fill('100');
  await page.getByRole('button', { name: 'Create pool config' }).click();
  await expect(acquire).toHaveAttribute('aria-invalid', 'true');
  await expect(acquire).toHaveAccessibleDescription(/at least 250 ms on the java-hikari runtime/);
  await page.screenshot({ path: `${SHOTS}/journey-03-pool-config-refused.png`, fullPage: true });
  await acquire.fill('1000');
  await page.getByRole('button', { name: 'Create pool config' }).click();
  await expect(page).toHaveURL(targetUrl);
  await page.getByRole('link', { name: 'Add pool config' }).click();
  await page.getByText('Fixed (naive)', { exact: true }).click();
  await page.getByLabel('Name', { exact: true }).fill('hikari 1');
  await page.getByLabel(/^Max connections/).fill('1');
  await page.getByRole('button', { name: 'Create pool config' }).click();
  await expect(page).toHaveURL(targetUrl);
  for (const name of ['hikari 8', 'hikari 1'])
    await expect(page.getByRole('cell', { name, exact: true })).toBeVisible();

  // a short arrival-rate scenario; 30 req/s of 20 ms needs ~0.6 connections on average
  const call = trpcOk(page.request, baseURL!);
  const scenario = await call('scenario.create', {
    name: 'work 20 ms at 30 req/s',
    scenario: {
      template: 'constant-arrival-rate',
      params: { ratePerSec: 30, durationMs: 3000, preAllocatedVUs: 10, maxVUs: 60 },
      requests: [{ path: '/work', query: { ms: 20 } }],
    },
  });

  // the experiment, through the form
  await page.goto(`/experiments/new?targetId=${targetId}&scenarioIds=${scenario.id}`);
  await page.getByLabel('Name', { exact: true }).fill('HikariCP: 8 connections vs 1');
  await page.getByRole('checkbox', { name: /^hikari 8/ }).check();
  await page.getByRole('checkbox', { name: /^hikari 1/ }).check();
  await page.getByLabel('Repeats').fill('2');
  await expect(page.getByTestId('run-count')).toHaveText('4');
  await page.screenshot({ path: `${SHOTS}/journey-04-experiment-form.png`, fullPage: true });
  await page.getByRole('button', { name: 'Run experiment' }).click();
  await expect(page).toHaveURL(/\/experiments\/(?!new)[a-z0-9]+$/);
  const experimentUrl = page.url();
  const statuses = page.getByTestId('matrix-run').getByTestId('run-status');
  await expect
    .poll(async () => statuses.filter({ hasText: 'Succeeded' }).count(), {
      timeout: 6 * 60_000,
      intervals: [3000],
    })
    .toBe(4);
  await page.screenshot({ path: `${SHOTS}/journey-05-experiment-done.png`, fullPage: true });

  // the run page names what served the load: the JVM, HikariCP and the MariaDB server
  await page.getByTestId('matrix-run').first().click();
  await expect(page).toHaveURL(/\/runs\/[a-z0-9]+$/);
  await expect(page.getByTestId('run-summary')).toBeVisible();
  await expect(page.getByTestId('run-charts')).toHaveAttribute('data-charts-drawn', 'true');
  const provenance = page.getByText(/lab-target-hikari .*\(java \d/);
  await expect(provenance).toContainText(/HikariCP \d+\.\d+\.\d+/);
  await expect(provenance).toContainText(/MariaDB Connector\/J \d/);
  await expect(page.getByText(/^MariaDB \d+\.\d+/)).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/journey-06-run-versions.png`, fullPage: true });

  // compare the two configs, then share the comparison and open it signed out
  await page.goto(experimentUrl);
  await page.getByRole('link', { name: 'Compare configs' }).click();
  const table = page.getByTestId('comparison-table');
  await expect(table).toBeVisible({ timeout: 120_000 });
  await expect(table.getByRole('rowheader', { name: /^Latency p99/ })).toBeVisible();
  await expect(page.getByTestId('compare-chart-area')).toHaveAttribute('data-charts-drawn', 'true');
  await page.screenshot({ path: `${SHOTS}/journey-07-compare.png`, fullPage: true });
  await page.getByRole('button', { name: 'Share' }).click();
  await page.getByLabel('Title').fill('HikariCP on MariaDB: 8 vs 1');
  await page.getByRole('button', { name: 'Create link' }).click();
  const shareUrl = await page.getByTestId('share-url').inputValue();
  expect(shareUrl).toMatch(/\/share\/[A-Za-z0-9_-]{43}$/);
  const anon = await (
    await browser.newContext({ viewport: { width: 1280, height: 800 } })
  ).newPage();
  const res = await anon.goto(shareUrl);
  expect(res?.status()).toBe(200);
  await expect(anon.getByRole('heading', { name: 'HikariCP on MariaDB: 8 vs 1' })).toBeVisible();
  await expect(anon.getByText('Latency p99').first()).toBeVisible();
  await anon.screenshot({ path: `${SHOTS}/journey-08-shared.png`, fullPage: true });
});

/**
 * A PHP-FPM run's page: the pool config keeps every param of its strategy at its default, but
 * PHP-FPM applies only the pool size and the connection's timeouts; the others are shown struck
 * through, "not applied by PHP-FPM + nginx (PDO)", instead of as if they had been set.
 */
test('a PHP-FPM run page marks the params PHP-FPM does not apply', async ({ page, baseURL }) => {
  await signUpApi(page.request, baseURL!, 'Rasmus Params');
  const call = trpcOk(page.request, baseURL!);
  const target = await call('target.create', {
    kind: 'managed',
    name: 'PHP on MariaDB',
    requestDefaults: { method: 'GET', path: '/work' },
    environment: { runtime: 'php-fpm', database: 'mariadb' },
  });
  const pc = await call('poolConfig.create', {
    targetId: target.id,
    name: 'php 4 children',
    config: { strategy: 'fixed', params: { maxConns: 4 } },
  });
  const sc = await call('scenario.create', {
    name: 'php tiny',
    scenario: {
      template: 'sustained',
      params: { vus: 1, durationMs: 1000 },
      requests: [{ path: '/work', query: { ms: 1 } }],
    },
  });
  const launched = (await call('experiment.launch', {
    name: 'PHP params',
    targetId: target.id,
    poolConfigIds: [pc.id],
    scenarioIds: [sc.id],
    repeats: 1,
  })) as unknown as { experimentId: string };
  const experiment = (await call('experiment.get', { id: launched.experimentId }, 'query')) as {
    runs?: Array<{ id: string }>;
  };
  const runId = experiment.runs?.[0]?.id;
  expect(runId).toBeTruthy();
  await page.goto(`/runs/${runId}`);
  const skipped = page.getByTestId('param-not-applied');
  await expect(skipped.filter({ hasText: 'acquireTimeoutMs' })).toContainText(
    'not applied by PHP-FPM + nginx (PDO)',
  );
  await expect(skipped.filter({ hasText: 'maxConns' })).toHaveCount(0);
  await expect(page.getByText('maxConns', { exact: true })).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/journey-09-php-params.png`, fullPage: true });
  await call('experiment.cancel', { id: launched.experimentId });
});
