import { expect, test } from '@playwright/test';
import { nav, SHOTS, signUpUi } from './helpers';

/**
 * The definition of done, end to end through the real worker: sign up, managed lab target,
 * lazy + prewarm pool configs, the cold-start preset scaled to ~20 s, an experiment with 2 repeats,
 * live charts, every run succeeds, the summary shows.
 */
test('sign up -> lab target -> pool configs -> cold-start preset -> live experiment -> summary', async ({
  page,
}) => {
  test.setTimeout(12 * 60_000);
  await signUpUi(page, 'Ada Lovelace');
  await expect(page.getByRole('heading', { level: 1, name: 'Runs' })).toBeVisible();
  await expect(page.getByText('No runs yet')).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/01-runs-empty.png`, fullPage: true });

  // Managed lab target
  await nav(page, 'Targets');
  await page.getByRole('link', { name: 'New target' }).first().click();
  await page.getByLabel('Name', { exact: true }).fill('Lab target');
  await page.getByLabel('Endpoint').selectOption('GET /work');
  await page.screenshot({ path: `${SHOTS}/02-target-form.png`, fullPage: true });
  await page.getByRole('button', { name: 'Create target' }).click();
  await expect(page).toHaveURL(/\/targets\/(?!new$)[\w-]+$/);
  const targetUrl = page.url();

  // Pool configs lazy and prewarm; the form shows exactly the chosen strategy's params
  for (const [label, name] of [
    ['Lazy (default)', 'lazy'],
    ['Prewarmed', 'prewarm'],
  ] as const) {
    await page.getByRole('link', { name: 'Add pool config' }).click();
    await page.getByText(label, { exact: true }).click();
    await page.getByLabel('Name', { exact: true }).fill(name);
    if (name === 'lazy') {
      await expect(page.getByLabel(/Idle timeout/)).toBeVisible();
      await expect(page.getByLabel(/Keepalive/)).toHaveCount(0);
      // inline error from the shared schema
      await page.getByLabel(/Max connections/).fill('0');
      await expect(page.getByText('must be at least 1')).toBeVisible();
      await page.getByLabel(/Max connections/).fill('10');
    } else {
      await expect(page.getByLabel(/Keepalive/)).toBeVisible();
      await page.screenshot({ path: `${SHOTS}/03-pool-config-form.png`, fullPage: true });
    }
    await page.getByRole('button', { name: 'Create pool config' }).click();
    await expect(page).toHaveURL(targetUrl);
    await expect(page.getByRole('cell', { name, exact: true })).toBeVisible();
  }
  await page.screenshot({ path: `${SHOTS}/04-target-detail.png`, fullPage: true });

  // Cold-start preset scaled to about 20 s, using our own two pool configs
  await nav(page, 'Scenarios');
  await expect(page.getByRole('heading', { name: 'Templates', exact: true })).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/05-scenarios.png`, fullPage: true });
  await page
    .getByTestId('preset-seed-000-tc1-cold-start-burst')
    .getByRole('button', { name: 'Use preset' })
    .click();
  await page.getByLabel('Scale').fill('0.125');
  await expect(page.getByTestId('preset-estimate')).toContainText('20 s');
  await page.getByLabel(/Also create its pool configs/).uncheck();
  await page.screenshot({ path: `${SHOTS}/06-preset-dialog.png` });
  await page.getByRole('button', { name: 'Create and set up experiment' }).click();
  await expect(page).toHaveURL(/\/experiments\/new\?/);

  // Experiment: lazy + prewarm, 2 repeats
  await page.getByRole('checkbox', { name: /^lazy/ }).check();
  await page.getByRole('checkbox', { name: /^prewarm/ }).check();
  await expect(page.getByLabel('Repeats')).toHaveValue('5'); // the default can reach a verdict
  await expect(page.getByTestId('repeats-warning')).toHaveCount(0);
  await page.getByLabel('Repeats').fill('2');
  // 2 per side can never be significant: said before launch, with the smallest count that can
  await expect(page.getByTestId('repeats-warning')).toContainText(
    'smallest possible p-value is 0.33',
  );
  await expect(page.getByRole('button', { name: 'Use 4' })).toBeVisible();
  await expect(page.getByTestId('run-count')).toHaveText('4');
  await expect(page.getByTestId('estimated-duration')).not.toHaveText('—');
  await page.screenshot({ path: `${SHOTS}/07-experiment-form.png`, fullPage: true });
  await page.getByRole('button', { name: 'Run experiment' }).click();
  await expect(page).toHaveURL(/\/experiments\/(?!new)[\w-]+$/);
  const experimentUrl = page.url();
  await expect(page.getByTestId('matrix-run')).toHaveCount(4);
  await page.screenshot({ path: `${SHOTS}/08-experiment-matrix.png`, fullPage: true });

  // Live: open the first run and watch the chart gain points while it runs
  await page.getByTestId('matrix-run').first().click();
  await expect(page).toHaveURL(/\/runs\/[\w-]+$/);
  const runUrl = page.url();
  await expect(page.getByTestId('run-status').first()).toHaveText('Running', { timeout: 180_000 });
  const charts = page.getByTestId('run-charts');
  await expect
    .poll(async () => Number(await charts.getAttribute('data-points')), { timeout: 60_000 })
    .toBeGreaterThanOrEqual(2);
  const before = Number(await charts.getAttribute('data-points'));
  await expect(charts).toHaveAttribute('data-charts-drawn', 'true'); // charts mount one per frame
  await page.screenshot({ path: `${SHOTS}/09-run-live.png`, fullPage: true });
  // the page is not reloaded: new seconds arrive over the SSE stream while the run is still running
  await expect
    .poll(async () => Number(await charts.getAttribute('data-points')), { timeout: 30_000 })
    .toBeGreaterThan(before);
  expect(
    (await page.getByText(/^Live · \d+ s received$/).count()) +
      (await page.getByTestId('run-summary').count()),
  ).toBeGreaterThan(0);

  // Every run of the experiment succeeds
  await page.goto(experimentUrl);
  const matrixStatuses = page.getByTestId('matrix-run').getByTestId('run-status');
  await expect
    .poll(async () => matrixStatuses.filter({ hasText: 'Succeeded' }).count(), {
      timeout: 8 * 60_000,
      intervals: [3000],
    })
    .toBe(4);
  await expect(page.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '4');
  await page.screenshot({ path: `${SHOTS}/10-experiment-done.png`, fullPage: true });

  await page.goto(runUrl);
  await expect(page.getByTestId('run-summary')).toBeVisible();
  await expect(page.getByTestId('run-summary')).toContainText('Requests');
  await expect(page.getByTestId('run-status').first()).toHaveText('Succeeded');
  await expect(page.getByTestId('run-charts')).toHaveAttribute('data-charts-drawn', 'true');
  await page.screenshot({ path: `${SHOTS}/11-run-summary.png`, fullPage: true });

  // The rest of the app shell, for the record
  await nav(page, 'Runs');
  await expect(page.getByTestId('run-status').filter({ hasText: 'Succeeded' })).toHaveCount(4);
  await page.screenshot({ path: `${SHOTS}/12-runs-list.png`, fullPage: true });
  await nav(page, 'Experiments');
  await expect(page.getByRole('link', { name: /Seed 000 TC1/ })).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/13-experiments.png`, fullPage: true });
  await nav(page, 'Settings');
  await expect(page.getByRole('heading', { name: 'Members', exact: true })).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/14-settings.png`, fullPage: true });
});
