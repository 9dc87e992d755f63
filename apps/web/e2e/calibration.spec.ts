import { expect, test } from '@playwright/test';
import { SHOTS, signUpApi, trpcOk } from './helpers';
import { closeE2eDb, finishedExperiment, runEnvironmentOf, teamOf } from './synthetic';

test.afterAll(closeE2eDb);

/**
 * A/A calibration from the target page: a member starts it in the browser (5 runs per side, real
 * worker, k6 and lab target), the target page then shows the measured noise floor, and a
 * comparison on the same target × scenario uses it as the practical floor, says so, and switches
 * back to the default floors on request.
 */
test('calibrate a target from its page, then compare with the measured noise floor', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(8 * 60_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  const email = await signUpApi(page.request, baseURL!, 'Ada Noise');
  const call = trpcOk(page.request, baseURL!);
  const target = await call('target.create', {
    kind: 'managed',
    name: 'Lab target',
    requestDefaults: { method: 'GET', path: '/work' },
  });
  const fixed = await call('poolConfig.create', {
    targetId: target.id,
    name: 'fixed 10',
    config: { strategy: 'fixed', params: { maxConns: 10 } },
  });
  const lazy = await call('poolConfig.create', {
    targetId: target.id,
    name: 'lazy 10',
    config: { strategy: 'lazy', params: { maxConns: 10 } },
  });
  const scenario = await call('scenario.create', {
    name: 'steady 100 req/s',
    scenario: {
      template: 'constant-arrival-rate',
      params: { ratePerSec: 100, durationMs: 1000, preAllocatedVUs: 10, maxVUs: 20 },
      requests: [{ path: '/work', query: { ms: 1 } }],
    },
  });

  await page.goto(`/targets/${target.id}`);
  await expect(page.getByTestId('no-noise-floor')).toBeVisible();
  const form = page.getByRole('form', { name: 'Start an A/A calibration' });
  await form.getByLabel('Pool config').selectOption({ label: 'fixed 10' });
  await form.getByLabel('Scenario').selectOption({ label: 'steady 100 req/s' });
  // the server's limit, shown at its field
  await form.getByLabel('Runs per side').fill('3');
  await form.getByRole('button', { name: /Calibrate/ }).click();
  await expect(form.getByText(/must be at least 5/)).toBeVisible();
  await form.getByLabel('Runs per side').fill('5');
  await expect(form.getByRole('button', { name: /Calibrate \(10 runs\)/ })).toBeVisible();
  await form.getByRole('button', { name: /Calibrate/ }).click();
  await expect(page).toHaveURL(/\/experiments\/[a-z0-9]+$/);
  const calibrationId = new URL(page.url()).pathname.split('/').pop()!;
  await expect(page.getByRole('heading', { name: /A\/A calibration · fixed 10/ })).toBeVisible();

  // back on the target page while it runs: the floor appears there when the last run ends and
  // the floor is stored, without a reload
  await page.goto(`/targets/${target.id}`);
  await expect(page.getByTestId('no-noise-floor')).toBeVisible();
  const floors = page.getByTestId('noise-floors');
  await expect(floors).toContainText('steady 100 req/s', { timeout: 6 * 60_000 });
  await expect(floors).toContainText('5 vs 5 runs');
  await expect(floors.getByText(/^±\d+(\.\d)? %$/).first()).toBeVisible();
  await page.getByTestId('noise-floors').scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/calibration-target.png`, fullPage: true });

  // a finished experiment on the same target × scenario, measured on the same machine and build
  // (a calibration from another machine is not used): its comparison uses the measured floors
  const experimentId = await finishedExperiment({
    environment: await runEnvironmentOf(calibrationId),
    teamId: await teamOf(email),
    targetId: target.id,
    name: 'fixed vs lazy',
    poolConfigs: [
      { id: fixed.id, name: 'fixed 10' },
      { id: lazy.id, name: 'lazy 10' },
    ],
    scenario: { id: scenario.id, name: 'steady 100 req/s' },
    repeats: 6,
    shape: (i) => ({ latencyMs: i ? 2.2 : 2, rps: 100 }),
  });
  await page.goto(`/experiments/${experimentId}`);
  await page.getByRole('link', { name: 'Compare configs' }).click();
  const note = page.getByTestId('noise-floor-note');
  await expect(note).toContainText('noise floor measured by an A/A calibration');
  await expect(note.getByRole('link', { name: '5 vs 5 runs' })).toBeVisible();
  // a metric's floor is raised only by noise beyond what its test accounts for, which 5 vs 5
  // identical runs may or may not show: any raised floor says where it comes from
  for (const floor of await page.getByTestId('noise-floor').all())
    await expect(floor).toContainText(/floor ±.* \(A\/A\)/);
  await page.screenshot({ path: `${SHOTS}/calibration-compare.png`, fullPage: true });

  await note.getByRole('button', { name: 'Use the default floors' }).click();
  await expect(page).toHaveURL(/floor=default/);
  await expect(page.getByTestId('noise-floor-note')).toContainText('default floor');
  await expect(page.getByTestId('noise-floor')).toHaveCount(0);
});
