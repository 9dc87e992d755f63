import { expect, test, type Page } from '@playwright/test';
import { SHOTS, signUpApi } from './helpers';

/**
 * Saves `bad` in the setting labelled `label` and expects `reason` under it, then saves `good`
 * and waits for the server to take it (tRPC procedure `procedure`).
 */
async function refusedThenSaved(
  page: Page,
  label: string,
  procedure: string,
  bad: string,
  reason: string,
  good: string,
) {
  const field = page.getByLabel(label);
  const form = page.locator('form').filter({ has: field });
  await field.fill(bad);
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form.getByRole('alert')).toHaveText(reason);
  await field.fill(good);
  await Promise.all([
    page.waitForResponse((r) => r.url().includes(procedure) && r.ok()),
    form.getByRole('button', { name: 'Save' }).click(),
  ]);
  await expect(form.getByRole('alert')).toHaveCount(0);
}

/**
 * Two team settings an admin changes in Settings, data retention and fleet limits: each shows the
 * stored setting, puts a refused value's reason under its field, and keeps an accepted one across
 * a reload.
 */
test('data retention and fleet limits refuse a bad value on its field and keep a good one', async ({
  page,
  baseURL,
}) => {
  await signUpApi(page.request, baseURL!, 'Settings Admin');
  await page.goto('/settings');
  await expect(page.getByLabel('Keep per-second data for (days)')).toHaveValue('');
  await expect(page.getByTestId('retention-pruned')).toHaveText(
    'No run has lost its per-second data yet.',
  );
  await expect(page.getByTestId('fleet-usage')).toContainText('Queued now: 0 runs');

  const days = 'Keep per-second data for (days)';
  await refusedThenSaved(page, days, 'team.setRetention', '0', 'must be at least 1 day', '30');
  const runs = 'Runs per experiment';
  await refusedThenSaved(page, runs, 'team.setFleetLimits', '0', 'must be at least 1', '12');

  await page.reload();
  await expect(page.getByLabel(days)).toHaveValue('30');
  await expect(page.getByLabel(runs)).toHaveValue('12');
  await page.screenshot({ path: `${SHOTS}/team-settings.png`, fullPage: true });
});
