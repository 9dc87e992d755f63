import { expect, test } from '@playwright/test';
import { SHOTS, signUpApi } from './helpers';

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

  const days = page.getByLabel('Keep per-second data for (days)');
  const retention = page.locator('form').filter({ has: days });
  await expect(days).toHaveValue('');
  await expect(page.getByTestId('retention-pruned')).toHaveText(
    'No run has lost its per-second data yet.',
  );
  await days.fill('0');
  await retention.getByRole('button', { name: 'Save' }).click();
  await expect(retention.getByRole('alert')).toHaveText('must be at least 1 day');
  await days.fill('30');
  await Promise.all([
    page.waitForResponse((r) => r.url().includes('team.setRetention') && r.ok()),
    retention.getByRole('button', { name: 'Save' }).click(),
  ]);
  await expect(retention.getByRole('alert')).toHaveCount(0);

  const runs = page.getByLabel('Runs per experiment');
  const fleet = page.locator('form').filter({ has: runs });
  await expect(page.getByTestId('fleet-usage')).toContainText('Queued now: 0 runs');
  await runs.fill('0');
  await fleet.getByRole('button', { name: 'Save' }).click();
  await expect(fleet.getByRole('alert')).toHaveText('must be at least 1');
  await runs.fill('12');
  await Promise.all([
    page.waitForResponse((r) => r.url().includes('team.setFleetLimits') && r.ok()),
    fleet.getByRole('button', { name: 'Save' }).click(),
  ]);
  await expect(fleet.getByRole('alert')).toHaveCount(0);

  await page.reload();
  await expect(page.getByLabel('Keep per-second data for (days)')).toHaveValue('30');
  await expect(page.getByLabel('Runs per experiment')).toHaveValue('12');
  await page.screenshot({ path: `${SHOTS}/team-settings.png`, fullPage: true });
});
