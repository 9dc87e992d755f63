import { expect, test } from '@playwright/test';
import { SHOTS, signUpApi, trpcCall } from './helpers';

test('schedule an experiment with a readable cron preview, then pause, resume and delete it', async ({
  page,
  baseURL,
}) => {
  const base = baseURL!;
  await signUpApi(page.request, base, 'Sched Owner');
  const target = await trpcCall(
    page.request,
    base,
    'target.create',
    { kind: 'managed', name: 'Lab', requestDefaults: { method: 'GET', path: '/health' } },
    'mutation',
  );
  const targetId = target.data!.id as string;
  const pc = await trpcCall(
    page.request,
    base,
    'poolConfig.create',
    { targetId, name: 'fixed 8', config: { strategy: 'fixed', params: { maxConns: 8 } } },
    'mutation',
  );
  const sc = await trpcCall(
    page.request,
    base,
    'scenario.create',
    {
      name: 'steady',
      scenario: {
        template: 'sustained',
        params: { vus: 2, durationMs: 5000 },
        requests: [{ path: '/health' }],
      },
    },
    'mutation',
  );

  // "Schedule an experiment" opens the experiment form with scheduling already chosen
  await page.goto('/schedules');
  await page.getByRole('link', { name: 'Schedule an experiment' }).first().click();
  await expect(page).toHaveURL(/\/experiments\/new\?when=schedule$/);
  await expect(page.getByRole('radio', { name: 'On a schedule' })).toHaveAttribute(
    'aria-checked',
    'true',
  );
  await expect(page.getByLabel('Cron')).toBeVisible();

  await page.goto(
    `/experiments/new?targetId=${targetId}&poolConfigIds=${pc.data!.id as string}&scenarioIds=${sc.data!.id as string}&repeats=2`,
  );
  await page.getByLabel('Name', { exact: true }).fill('Nightly fixed pool');
  await page.getByRole('radio', { name: 'On a schedule' }).click();
  await page.getByLabel('Cron').fill('0 3 * * 1-5');
  await expect(page.getByTestId('cron-preview')).toContainText(
    'At 03:00, Monday through Friday (UTC)',
  );
  await expect(page.getByTestId('cron-preview').getByRole('listitem')).toHaveCount(5);
  await page.getByLabel('Cron').fill('61 3 * * *');
  // the error is about the 61 in the minute field, shown where the preview was (not any "61" on the page)
  await expect(page.getByTestId('cron-error')).toContainText(/\b61\b/);
  await expect(page.getByTestId('cron-preview')).toHaveCount(0);
  await page.getByLabel('Cron').fill('0 3 * * 1-5');
  await expect(page.getByTestId('cron-preview')).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/30-schedule-form.png`, fullPage: true });
  await page.getByRole('button', { name: 'Save schedule' }).click();

  await expect(page).toHaveURL(/\/schedules$/);
  const row = page.getByRole('row', { name: /Nightly fixed pool/ });
  await expect(row).toContainText('active');
  await expect(row).toContainText('At 03:00, Monday through Friday');
  await page.screenshot({ path: `${SHOTS}/31-schedules.png`, fullPage: true });
  await row.getByRole('button', { name: /Pause/ }).click();
  await expect(row).toContainText('paused');
  await row.getByRole('button', { name: /Resume/ }).click();
  await expect(row).toContainText('active');
  // edit in place: the cron in words with its next fire times, a bad time zone under its field
  await row.getByRole('button', { name: /Edit/ }).click();
  const edit = page.getByRole('dialog', { name: 'Edit Nightly fixed pool' });
  await edit.getByLabel('Cron').fill('30 2 * * *');
  await expect(edit.getByTestId('schedule-edit-preview')).toContainText('At 02:30');
  await edit.getByLabel('Time zone').fill('Mars/Olympus');
  await expect(edit.getByText(/time zone/i).first()).toBeVisible();
  await edit.getByLabel('Time zone').fill('Europe/Berlin');
  await edit.getByLabel('Repeats').fill('6');
  await page.screenshot({ path: `${SHOTS}/31-schedule-edit.png` });
  await edit.getByRole('button', { name: 'Save schedule' }).click();
  await expect(edit).toBeHidden();
  await expect(row).toContainText('At 02:30 (Europe/Berlin)');
  await expect(row).toContainText('6 repeats');
  // the Notify popup is a labelled modal dialog to assistive technology
  await row.getByRole('button', { name: /^Notifications of/ }).click();
  const notify = page.getByRole('dialog', { name: 'Notifications of Nightly fixed pool' });
  await expect(notify).toHaveAttribute('aria-modal', 'true');
  await page.keyboard.press('Escape');
  await expect(notify).toBeHidden();
  // an in-app confirmation (no native confirm()): Escape keeps the schedule, the dialog's button deletes it
  page.on('dialog', () => {
    throw new Error('native dialog shown');
  });
  await row.getByRole('button', { name: /Delete/ }).click();
  const confirmDialog = page.getByRole('dialog', {
    name: /Delete the schedule Nightly fixed pool\?/,
  });
  await expect(confirmDialog).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/31-confirm-dialog.png` });
  await page.keyboard.press('Escape');
  await expect(confirmDialog).toBeHidden();
  await expect(row).toBeVisible();
  await row.getByRole('button', { name: /Delete/ }).click();
  await confirmDialog.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('No schedules')).toBeVisible();
});
