import { expect, test, type Page } from '@playwright/test';
import { nav, SHOTS, signUpApi, trpcOk } from './helpers';

test.use({ viewport: { width: 1280, height: 800 } });

/** A new team whose only target is a Java/HikariCP managed target, two pool configs, a scenario. */
async function javaTeam(page: Page, baseURL: string, who: string) {
  await signUpApi(page.request, baseURL, who);
  const call = trpcOk(page.request, baseURL);
  const target = await call('target.create', {
    kind: 'managed',
    name: 'Orders on HikariCP',
    requestDefaults: { method: 'GET', path: '/work' },
    environment: { runtime: 'java-hikari', database: 'postgres' },
  });
  for (const [name, maxConns] of [
    ['hikari 10', 10],
    ['hikari 2', 2],
  ] as const)
    await call('poolConfig.create', {
      targetId: target.id,
      name,
      config: { strategy: 'fixed', params: { maxConns } },
    });
  await call('scenario.create', {
    name: 'burst 40',
    scenario: {
      template: 'sustained',
      params: { vus: 2, durationMs: 1000 },
      requests: [{ path: '/work', query: { ms: 5 } }],
    },
  });
  return { call, targetId: target.id };
}

/** Fills the experiment form as a person does: a name, both pool configs, the scenario. */
async function fillExperiment(page: Page, name: string) {
  await expect(page.getByLabel('Target', { exact: true })).toHaveValue(/.+/);
  await page.getByLabel('Name', { exact: true }).fill(name);
  await page.getByRole('checkbox', { name: /^hikari 10/ }).check();
  await page.getByRole('checkbox', { name: /^hikari 2/ }).check();
  await page.getByRole('checkbox', { name: /^burst 40/ }).check();
  await expect(page.getByTestId('run-count')).toHaveText('10');
}

/**
 * The experiment form opened from the sidebar (no target in the address) shows the team's only
 * target as chosen, and submits with it: no "Target: is required" under a target that is shown.
 */
test('New experiment and Schedule an experiment submit with the target the form shows', async ({
  page,
  baseURL,
}) => {
  const { call } = await javaTeam(page, baseURL!, 'Form Newcomer');

  await page.goto('/runs');
  await nav(page, 'Experiments');
  await page.getByRole('link', { name: 'New experiment' }).first().click();
  await expect(page).toHaveURL(/\/experiments\/new$/);
  await fillExperiment(page, 'HikariCP 10 vs 2');
  await page.getByRole('button', { name: 'Run experiment' }).click();
  await expect(page.getByText('is required')).toHaveCount(0);
  await expect(page).toHaveURL(/\/experiments\/(?!new)[a-z0-9]+(\?.*)?$/);
  const experimentId = new URL(page.url()).pathname.split('/').pop()!;
  await page.screenshot({ path: `${SHOTS}/first-hour-01-launched.png`, fullPage: true });
  await call('experiment.cancel', { id: experimentId });

  await nav(page, 'Schedules');
  await page.getByRole('link', { name: 'Schedule an experiment' }).first().click();
  await expect(page).toHaveURL(/\/experiments\/new\?when=schedule$/);
  await fillExperiment(page, 'Nightly HikariCP 10 vs 2');
  await page.getByRole('button', { name: 'Save schedule' }).click();
  await expect(page.getByText('is required')).toHaveCount(0);
  await expect(page).toHaveURL(/\/schedules$/);
  await expect(page.getByRole('row', { name: /Nightly HikariCP 10 vs 2/ })).toContainText('active');
});
