import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect, test } from '@playwright/test';
import { SHOTS, signUpApi, trpcOk } from './helpers';
import { REPO, startInstallation } from './installation';

const run = promisify(execFile);

/**
 * First impression. 1) What the first `make up` starts (scripts/stack.sh runs
 * apps/worker/src/cli/first-demo.ts), on a never-used installation of the test's own: the demo
 * team gets the seed 004 experiment through a real worker, a finished comparison and a share link; a second start adds nothing. 2) A new team's
 * onboarding steps, each done from real data. 3) A link into another of my teams names that team
 * and switches; a user outside it learns nothing.
 */
test('first start: the demo team shows its finished comparison and a share link', async ({
  browser,
}) => {
  test.setTimeout(12 * 60_000);
  // a never-used installation of its own: the shared stack's demo team may already have its demo
  // (an earlier suite on the same data, or a `make up`)
  const inst = await startInstallation({
    label: 'e2e_first_start',
    redisDb: 6,
    seed: true,
    worker: true,
  });
  const ctx = await browser.newContext({ baseURL: inst.base });
  try {
    const started = Date.now();
    const first = await run(
      process.execPath,
      ['--import', 'tsx', 'apps/worker/src/cli/first-demo.ts'],
      { cwd: REPO, env: { ...process.env, ...inst.env }, timeout: 11 * 60_000 },
    );
    console.log(`first-demo took ${Math.round((Date.now() - started) / 1000)} s:\n${first.stdout}`);
    const shareUrl = /share link \(signed out\): (\S+)/.exec(first.stdout)?.[1];
    expect(shareUrl, first.stdout + first.stderr).toBeTruthy();
    // idempotent: the next start leaves the demo team alone
    const again = await run(
      process.execPath,
      ['--import', 'tsx', 'apps/worker/src/cli/first-demo.ts'],
      { cwd: REPO, env: { ...process.env, ...inst.env }, timeout: 60_000 },
    );
    expect(again.stdout).toContain('already has experiments; nothing to do');

    const page = await ctx.newPage();
    const res = await page.request.post('/api/auth/sign-in/email', {
      data: { email: 'demo@poolbench.dev', password: 'poolbench-demo' },
      headers: { origin: inst.base },
    });
    expect(res.status(), await res.text()).toBe(200);
    await page.goto('/experiments');
    const row = page.getByRole('row', { name: /Demo: / });
    await expect(row).toContainText('10/10');
    await row.getByRole('link').first().click();
    await expect(page.getByTestId('matrix-run')).toHaveCount(10);
    await page.screenshot({ path: `${SHOTS}/first-run-01-demo-experiment.png`, fullPage: true });
    await page.getByRole('link', { name: 'Compare configs' }).click();
    const table = page.getByTestId('comparison-table');
    await expect(table).toBeVisible({ timeout: 120_000 });
    // 5 vs 5 runs of a pool against a connection per request: real verdicts, not only "inconclusive"
    await expect(table.getByTestId('metric-rps').getByTestId('verdict')).toHaveText('Better');
    await expect(page.getByTestId('chart-dbTotal')).toBeVisible(); // database connections, as on the run page
    await page.screenshot({ path: `${SHOTS}/first-run-02-demo-comparison.png`, fullPage: true });

    const anon = await (await browser.newContext()).newPage();
    const shared = await anon.goto(shareUrl!);
    expect(shared?.status()).toBe(200);
    await expect(anon.getByText(/Demo: /).first()).toBeVisible();
    await anon.screenshot({ path: `${SHOTS}/first-run-03-demo-share.png`, fullPage: true });
  } finally {
    await ctx.close();
    await inst.stop();
  }
});

test('a new team is guided: lab target, seed presets, first experiment, each done from real data', async ({
  page,
  baseURL,
}) => {
  await signUpApi(page.request, baseURL!, 'Onboarding Owner');
  await page.goto('/runs');
  const steps = page.getByTestId('onboarding');
  await expect(steps).toBeVisible();
  for (const s of ['onboarding-target', 'onboarding-presets', 'onboarding-experiment'])
    await expect(steps.getByTestId(s)).toHaveAttribute('data-done', 'false');
  // step 1 names what the lab target is before anyone creates it
  await expect(steps.getByTestId('onboarding-target')).toContainText('Go on Postgres');
  await page.screenshot({ path: `${SHOTS}/first-run-04-onboarding-empty.png`, fullPage: true });
  await steps.getByRole('button', { name: 'Create the lab target' }).click();
  await expect(steps.getByTestId('onboarding-target')).toHaveAttribute('data-done', 'true');
  await steps.getByRole('button', { name: /^Add all \d+ seed presets$/ }).click();
  await expect(steps.getByTestId('onboarding-presets')).toHaveAttribute('data-done', 'true');
  await expect(steps.getByTestId('onboarding-presets')).toContainText(
    /\d+ of the \d+ seed presets Go \(pgx \/ database\/sql\) on Postgres can run added/,
  );
  await page.screenshot({ path: `${SHOTS}/first-run-05-onboarding-two-done.png`, fullPage: true });
  await steps.getByRole('link', { name: 'Start an experiment' }).click();
  await expect(page).toHaveURL(/\/experiments\/new\?targetId=/);
  // the presets' scenarios and pool configs are real rows of this team now
  const call = trpcOk(page.request, baseURL!);
  const scenarios = (await call('scenario.list', undefined, 'query')) as unknown as Array<{
    presetId: string | null;
  }>;
  expect(scenarios.filter((s) => s.presetId).length).toBeGreaterThan(3);

  // the steps stay reachable from the navigation, not only from the empty runs page
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Get started' })
    .click();
  await expect(page).toHaveURL(/\/getting-started$/);
  await expect(page.getByTestId('onboarding-target')).toHaveAttribute('data-done', 'true');
  await expect(page.getByTestId('onboarding-presets')).toHaveAttribute('data-done', 'true');
  await page.screenshot({ path: `${SHOTS}/first-run-05b-getting-started.png`, fullPage: true });
});

test('a link into another of my teams names it and switches; outsiders learn nothing', async ({
  page,
  browser,
  baseURL,
}) => {
  await signUpApi(page.request, baseURL!, 'Two Teams');
  const call = trpcOk(page.request, baseURL!);
  const me = (await call('team.me', undefined, 'query')) as unknown as {
    active: { id: string; name: string };
  };
  const target = await call('target.create', {
    kind: 'managed',
    name: 'Lab',
    requestDefaults: { method: 'GET', path: '/health' },
  });
  const pc = await call('poolConfig.create', {
    targetId: target.id,
    name: 'fixed 2',
    config: { strategy: 'fixed', params: { maxConns: 2 } },
  });
  const sc = await call('scenario.create', {
    name: 'tiny',
    scenario: {
      template: 'sustained',
      params: { vus: 1, durationMs: 1000 },
      requests: [{ path: '/health' }],
    },
  });
  const launched = (await call('experiment.launch', {
    name: 'In my first team',
    targetId: target.id,
    poolConfigIds: [pc.id],
    scenarioIds: [sc.id],
    repeats: 1,
  })) as unknown as { experimentId: string };
  // creating a team makes it the active one: the old link must still lead somewhere
  await call('team.create', { name: 'Second team' });
  await page.goto(`/experiments/${launched.experimentId}`);
  const notice = page
    .getByRole('status')
    .filter({ hasText: `This experiment belongs to the team ${me.active.name}` });
  await expect(notice).toBeVisible();
  await expect(notice).toContainText('Second team');
  await page.screenshot({ path: `${SHOTS}/first-run-06-other-team-link.png`, fullPage: true });
  await page.getByTestId('switch-to-owner-team').click();
  await expect(page.getByRole('heading', { name: 'In my first team' })).toBeVisible();
  await expect(page.locator('#team-switcher')).toHaveValue(me.active.id);

  // a user who is not in that team sees "not found", no team name
  const other = await (await browser.newContext()).newPage();
  await signUpApi(other.request, baseURL!, 'Outsider');
  const outsider = await other.goto(`/experiments/${launched.experimentId}`);
  expect(outsider?.status()).toBe(404);
  await expect(other.getByText('This page does not exist in your current team.')).toBeVisible();
  await expect(other.getByText(me.active.name)).toHaveCount(0);
  await expect(other.getByTestId('switch-to-owner-team')).toHaveCount(0);
});
