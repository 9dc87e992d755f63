import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { nav, PASSWORD, SHOTS, signUpApi, trpcOk } from './helpers';
import { startInstallation } from './installation';

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

/** Holds every team.me answer until the returned function is called: the page as it first paints. */
async function holdTeamMe(page: Page): Promise<() => void> {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/api\/trpc\/[^?]*team\.me/, async (route) => {
    await held;
    await route.continue();
  });
  return release;
}

/**
 * The team switcher loads after the page; while it does, the sidebar's links must not move. A
 * 34 px shift once put the Runs link under a click aimed at Experiments on a busy machine.
 */
test('the sidebar links stay put while the team switcher loads', async ({ page, baseURL }) => {
  await signUpApi(page.request, baseURL!, 'Steady Sidebar');
  const release = await holdTeamMe(page);
  await page.goto('/runs');
  const links = page.getByRole('navigation', { name: 'Main' }).getByRole('link');
  await expect(links.first()).toBeVisible();
  const boxes = () => links.evaluateAll((as) => as.map((a) => a.getBoundingClientRect().top));
  const loading = await boxes();
  release();
  await expect(page.getByRole('combobox', { name: 'Team' })).toBeVisible();
  await expect(page.getByText('owner', { exact: true })).toBeVisible();
  expect(await boxes()).toEqual(loading);
});

/**
 * A brand-new account is unverified, and its pages open with the verify banner above them. The
 * banner must be there from the first paint: appearing when the team loads, it pushed every page's
 * content down under the pointer.
 */
test("a new account's verify banner is there before the team loads, and the page stays put", async ({
  page,
  baseURL,
}) => {
  await signUpApi(page.request, baseURL!, 'Unverified Newcomer', { verified: false });
  const release = await holdTeamMe(page);
  await page.goto('/runs');
  const heading = page.getByRole('heading', { level: 1 });
  await expect(page.getByTestId('verify-email-banner')).toBeVisible();
  const before = (await heading.boundingBox())!.y;
  release();
  await expect(page.getByRole('combobox', { name: 'Team' })).toBeVisible();
  await expect(page.getByTestId('verify-email-banner')).toBeVisible();
  expect((await heading.boundingBox())!.y).toBe(before);
});

/**
 * A sign-in whose request gets no answer at all (offline, the server restarting) must say so and
 * give the button back: it used to spin for good, with nothing on the page.
 */
test('a sign-in that gets no answer says so, and the next try goes through', async ({
  page,
  baseURL,
}) => {
  const email = await signUpApi(page.request, baseURL!, 'Offline Moment');
  await page.context().clearCookies();
  await page.goto('/sign-in');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.route('**/api/auth/sign-in/email', (route) => route.abort('internetdisconnected'));
  const button = page.getByRole('button', { name: 'Sign in' });
  await button.click();
  await expect(page.getByRole('alert').filter({ hasText: 'Could not reach' })).toHaveText(
    /Could not reach PoolBench: check your connection/,
  );
  await expect(button).toBeEnabled();
  await page.unroute('**/api/auth/sign-in/email');
  await button.click();
  await expect(page).toHaveURL(/\/runs$/);
});

test("the verify banner's resend that gets no answer says so, and the next try is sent", async ({
  page,
  baseURL,
}) => {
  await signUpApi(page.request, baseURL!, 'Resend Offline', { verified: false });
  await page.goto('/runs');
  const banner = page.getByTestId('verify-email-banner');
  await page.route('**/api/auth/send-verification-email', (route) =>
    route.abort('internetdisconnected'),
  );
  await banner.getByRole('button', { name: 'Send the link again' }).click();
  const retry = banner.getByRole('button', { name: 'Could not send: try again' });
  await expect(retry).toBeEnabled();
  await page.unroute('**/api/auth/send-verification-email');
  await retry.click();
  await expect(banner.getByRole('button', { name: 'Sent again' })).toBeVisible();
});

test('a sign-out that gets no answer says so and keeps the session, and the next try signs out', async ({
  page,
  baseURL,
}) => {
  await signUpApi(page.request, baseURL!, 'Sign Out Offline');
  await page.goto('/runs');
  await page.route('**/api/auth/sign-out', (route) => route.abort('internetdisconnected'));
  await page.getByRole('button', { name: 'Sign out' }).click();
  const retry = page.getByRole('button', { name: 'Could not sign out: try again' });
  await expect(retry).toBeEnabled();
  await expect(page).toHaveURL(/\/runs$/);
  await page.unroute('**/api/auth/sign-out');
  await retry.click();
  await expect(page).toHaveURL(/\/sign-in/);
});

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

/** The CLI from this checkout (apps/cli's bin, through tsx), as a CI job runs it. */
function poolbench(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [join(import.meta.dirname, '../../cli/bin/poolbench.js'), ...args],
      { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d));
    child.stderr.on('data', (d: Buffer) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

/**
 * An installation without a worker: the stack's web build on its own port, with a database of its
 * own (cloned from the migrated template) and a Redis database no worker listens on, so its
 * launches are stored and enqueued for real and nothing takes them.
 */
test('launching with no worker online says so, on the form, on the experiment and in the CLI', async ({
  browser,
}) => {
  test.setTimeout(3 * 60_000);
  const inst = await startInstallation({ label: 'e2e_no_worker', redisDb: 7 });
  const base = inst.base;
  const ctx = await browser.newContext({ baseURL: base, viewport: { width: 1280, height: 800 } });
  try {
    const page = await ctx.newPage();
    await expect
      .poll(
        () =>
          page.request.get('/api/health').then(
            (r) => r.status(),
            () => 0,
          ),
        {
          timeout: 60_000,
        },
      )
      .toBe(503);
    const health = (await (await page.request.get('/api/health')).json()) as {
      worker: { ok: boolean };
    };
    expect(health.worker.ok).toBe(false);

    const { call } = await javaTeam(page, base, 'Lonely Launcher');
    await page.goto('/experiments/new');
    await fillExperiment(page, 'No worker yet');
    const before = page.getByTestId('no-worker-alert');
    await expect(before).toContainText('its runs wait as queued until one is');
    await expect(before).toContainText('make up');
    await expect(before).toContainText('scripts/stack.sh start worker');
    await page.screenshot({ path: `${SHOTS}/first-hour-02-no-worker-form.png`, fullPage: true });
    await page.getByRole('button', { name: 'Run experiment' }).click();
    await expect(page).toHaveURL(/\/experiments\/(?!new)[a-z0-9]+$/);
    const after = page.getByTestId('no-worker-alert');
    await expect(after).toContainText('These runs wait as queued');
    await expect(after).toContainText('make up');
    await expect(page.getByTestId('matrix-run').getByTestId('run-status').first()).toHaveText(
      'Queued',
    );
    await page.screenshot({ path: `${SHOTS}/first-hour-03-no-worker-queued.png`, fullPage: true });
    await call('experiment.cancel', { id: new URL(page.url()).pathname.split('/').pop() });

    // the CLI, started from CI against the same installation, says so on stderr at the launch
    const { token } = (await call('apiToken.create', {
      name: 'ci',
      scopes: ['runs:read', 'runs:write'],
      expiresInDays: 1,
    })) as unknown as { token: string };
    const cli = await poolbench(['run', '--experiment', 'No worker yet', '--json'], {
      POOLBENCH_URL: base,
      POOLBENCH_TOKEN: token,
    });
    expect(cli.code, cli.stderr).toBe(0);
    expect(cli.stderr).toMatch(
      /^warning: no worker is online: the runs wait as queued until one is\. .*`make up`.*`scripts\/stack\.sh start worker`/m,
    );
    const started = JSON.parse(cli.stdout) as {
      experiment: { id: string; warnings: { code: string }[] };
    };
    expect(started.experiment.warnings.map((w) => w.code)).toEqual(['no_worker_online']);
    await call('experiment.cancel', { id: started.experiment.id });
  } finally {
    await ctx.close();
    await inst.stop();
  }
});

/**
 * A team whose first target is its own Java/HikariCP one: the onboarding names what serves it,
 * says to set docs/ci.md's $TARGET to its name, and adds only the presets HikariCP
 * can run, without copies named "(2)".
 */
test('onboarding on a Java target offers only the presets HikariCP can run', async ({
  page,
  baseURL,
}) => {
  await signUpApi(page.request, baseURL!, 'Preset Newcomer');
  const call = trpcOk(page.request, baseURL!);
  const target = await call('target.create', {
    kind: 'managed',
    name: 'Orders on HikariCP',
    requestDefaults: { method: 'GET', path: '/work' },
    environment: { runtime: 'java-hikari', database: 'postgres' },
  });
  await page.goto('/runs');
  const steps = page.getByTestId('onboarding');
  await expect(steps.getByTestId('onboarding-target')).toContainText(
    'Orders on HikariCP (Java + HikariCP on Postgres)',
  );
  await expect(steps.getByTestId('onboarding-target-name')).toContainText(
    'The examples in docs/ci.md take the target from $TARGET (Lab target in the lab): set it to Orders on HikariCP.',
  );
  await expect(steps.getByTestId('onboarding-presets-fit')).toContainText(
    'The seed presets Java + HikariCP on Postgres can run',
  );
  await expect(steps.getByTestId('onboarding-presets-fit')).toContainText(
    '9 others need another runtime or database',
  );
  await page.screenshot({ path: `${SHOTS}/first-hour-04-onboarding-java.png`, fullPage: true });
  await steps.getByRole('button', { name: 'Add the seed preset' }).click();
  await expect(steps.getByTestId('onboarding-presets')).toHaveAttribute('data-done', 'true');
  await expect(steps.getByTestId('onboarding-presets')).toContainText(
    'Added the seed preset Java + HikariCP on Postgres can run',
  );
  const configs = (await call('poolConfig.list', { targetId: target.id }, 'query')) as unknown as {
    name: string;
    strategy: string;
  }[];
  expect(configs.map((c) => c.name).sort()).toEqual(
    [
      'borrowing',
      'elastic',
      'fixed (naive)',
      'hybrid adaptive',
      'partitioned',
      'prewarmed',
      'priority queue',
    ].sort(),
  );
  await page.screenshot({
    path: `${SHOTS}/first-hour-05-onboarding-java-presets.png`,
    fullPage: true,
  });
});

/** A managed target's page says what serves it: the runtime, the database, the rest of its environment. */
test('a target page names its runtime and database', async ({ page, baseURL }) => {
  await signUpApi(page.request, baseURL!, 'Stack Reader');
  const target = await trpcOk(page.request, baseURL!)('target.create', {
    kind: 'managed',
    name: 'Orders on HikariCP and MariaDB',
    requestDefaults: { method: 'GET', path: '/work' },
    environment: { runtime: 'java-hikari', database: 'mariadb', dbLinkRttMs: 5 },
  });
  await page.goto(`/targets/${target.id}`);
  await expect(page.getByTestId('target-runtime')).toHaveText('Java + HikariCP');
  await expect(page.getByTestId('target-database')).toHaveText('MariaDB');
  await expect(page.getByText('database link RTT 5 ms')).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/first-hour-06-target-stack.png`, fullPage: true });
});

/** An experiment's page starts it again, now or on a schedule, through the filled form. */
test('Rerun and Schedule this open the form filled from the experiment', async ({
  page,
  baseURL,
}) => {
  const { call, targetId } = await javaTeam(page, baseURL!, 'Rerun Newcomer');
  const configs = (await call('poolConfig.list', { targetId }, 'query')) as unknown as {
    id: string;
  }[];
  const scenarios = (await call('scenario.list', undefined, 'query')) as unknown as {
    id: string;
  }[];
  const launched = (await call('experiment.launch', {
    name: 'HikariCP 10 vs 2, nightly candidate',
    targetId,
    poolConfigIds: configs.map((c) => c.id),
    scenarioIds: scenarios.map((s) => s.id),
    repeats: 2,
  })) as unknown as { experimentId: string };
  await call('experiment.cancel', { id: launched.experimentId });

  await page.goto(`/experiments/${launched.experimentId}`);
  await page.getByRole('link', { name: 'Rerun' }).click();
  await expect(page).toHaveURL(/\/experiments\/new\?/);
  await expect(page.getByLabel('Name', { exact: true })).toHaveValue(
    'HikariCP 10 vs 2, nightly candidate',
  );
  await expect(page.getByRole('checkbox', { name: /^hikari 10/ })).toBeChecked();
  await expect(page.getByRole('checkbox', { name: /^hikari 2/ })).toBeChecked();
  await expect(page.getByRole('checkbox', { name: /^burst 40/ })).toBeChecked();
  await expect(page.getByTestId('run-count')).toHaveText('4');
  await expect(page.getByRole('radio', { name: 'Run now' })).toHaveAttribute(
    'aria-checked',
    'true',
  );

  await page.goto(`/experiments/${launched.experimentId}`);
  await page.getByRole('link', { name: 'Schedule this' }).click();
  await expect(page.getByRole('radio', { name: 'On a schedule' })).toHaveAttribute(
    'aria-checked',
    'true',
  );
  await expect(page.getByTestId('run-count')).toHaveText('4');
  await page.getByLabel('Cron').fill('0 3 * * 1-5');
  await page.getByRole('button', { name: 'Save schedule' }).click();
  await expect(page).toHaveURL(/\/schedules$/);
  await expect(
    page.getByRole('row', { name: /HikariCP 10 vs 2, nightly candidate/ }),
  ).toContainText('At 03:00, Monday through Friday');
});
