import { expect, test } from '@playwright/test';
import { SHOTS, signUpApi, trpcOk } from './helpers';

/**
 * Forms on react-hook-form + zodResolver with the server's schemas (issue 18, issue 17 "Forms"):
 * an error shows under the field it is about (its accessible description) and goes away as soon as
 * the value is fixed.
 */
test('experiment, schedule and scenario forms put each error on its field and clear it when fixed', async ({
  page,
  baseURL,
}) => {
  const base = baseURL!;
  await signUpApi(page.request, base, 'Forms Owner');
  const call = trpcOk(page.request, base);
  const target = await call('target.create', {
    kind: 'managed',
    name: 'Lab',
    requestDefaults: { method: 'GET', path: '/health' },
  });
  const pc = await call('poolConfig.create', {
    targetId: target.id,
    name: 'fixed 8',
    config: { strategy: 'fixed', params: { maxConns: 8 } },
  });
  const sc = await call('scenario.create', {
    name: 'steady',
    scenario: {
      template: 'sustained',
      params: { vus: 2, durationMs: 5000 },
      requests: [{ path: '/health' }],
    },
  });

  // Experiment form: Repeats
  await page.goto(
    `/experiments/new?targetId=${target.id}&poolConfigIds=${pc.id}&scenarioIds=${sc.id}`,
  );
  const repeats = page.getByLabel('Repeats');
  await repeats.fill('60');
  await repeats.blur();
  await expect(repeats).toHaveAccessibleDescription(/must be at most 50/);
  await expect(repeats).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByLabel('Name', { exact: true })).not.toHaveAttribute(
    'aria-invalid',
    'true',
  );
  await page.screenshot({ path: `${SHOTS}/60-forms-repeats-error.png`, fullPage: true });
  await repeats.fill('-4');
  await expect(repeats).toHaveAccessibleDescription(/must be at least 1/);
  await expect(page.getByTestId('run-count')).toHaveText('—'); // never "-4"
  await repeats.fill('6');
  await expect(repeats).not.toHaveAccessibleDescription(/must be/);
  await expect(repeats).toHaveAttribute('aria-invalid', 'false');
  await expect(page.getByTestId('run-count')).toHaveText('6');

  // Schedule part: cron in words under Cron, time zone under Time zone
  await page.getByRole('radio', { name: 'On a schedule' }).click();
  const cron = page.getByLabel('Cron');
  const tz = page.getByLabel('Time zone');
  await cron.fill('61 3 * * *');
  await expect(cron).toHaveAccessibleDescription(/the minute field allows 0–59, not 61/);
  await expect(page.getByText('Constraint error')).toHaveCount(0);
  await cron.fill('0 3 * * 1-5');
  await expect(cron).not.toHaveAccessibleDescription(/minute field/);
  await tz.fill('Mars/Olympus');
  await expect(tz).toHaveAccessibleDescription(/unknown time zone "Mars\/Olympus"/);
  await expect(cron).not.toHaveAccessibleDescription(/time zone/);
  await page.screenshot({ path: `${SHOTS}/61-forms-timezone-error.png`, fullPage: true });
  await tz.fill('Europe/Berlin');
  await expect(tz).not.toHaveAccessibleDescription(/unknown time zone/);
  await expect(page.getByTestId('cron-preview')).toContainText('Next fire times');
  await expect(page.getByTestId('cron-preview').getByRole('listitem')).toHaveCount(5);
  await page.screenshot({ path: `${SHOTS}/62-forms-schedule-fixed.png`, fullPage: true });

  // Scenario editor: a duration in words, a VUs error on the VUs field
  await page.goto('/scenarios/new');
  const vus = page.getByLabel(/^VUs/);
  await vus.fill('0');
  await expect(vus).toHaveAccessibleDescription(/at least 1|greater than or equal to 1|>=1/i);
  await vus.fill('10');
  await expect(vus).toHaveAttribute('aria-invalid', 'false');
  const hold = page.getByLabel(/^Hold/);
  await hold.fill('soon');
  await expect(hold).toHaveAttribute('aria-invalid', 'true');
  await hold.fill('30s');
  await expect(hold).toHaveAttribute('aria-invalid', 'false');
  // a request's path: the error sits under that request's Path (not Ready path), and goes when fixed
  const reqPath = page.getByLabel('Path', { exact: true });
  await reqPath.fill('work');
  await expect(reqPath).toHaveAccessibleDescription(/must start with \//);
  await expect(page.getByLabel('Ready path')).toHaveAttribute('aria-invalid', 'false');
  await expect(vus).toHaveAttribute('aria-invalid', 'false');
  await page.screenshot({ path: `${SHOTS}/63-forms-scenario.png`, fullPage: true });
  await reqPath.fill('/work');
  await expect(reqPath).toHaveAttribute('aria-invalid', 'false');
  await expect(reqPath).not.toHaveAccessibleDescription(/must start/);
  // a row of a form being edited goes at once, by its own trash button
  const removeThreshold = page.getByRole('button', { name: /^Remove threshold \d+$/ });
  const thresholdsAtFirst = await removeThreshold.count();
  await page.getByRole('button', { name: 'Add threshold' }).click();
  await expect(removeThreshold).toHaveCount(thresholdsAtFirst + 1);
  await page.getByRole('button', { name: `Remove threshold ${thresholdsAtFirst + 1}` }).click();
  await expect(removeThreshold).toHaveCount(thresholdsAtFirst);
  // submitting with a blank name: the error is under Name only, and the scenario is saved once it has one
  await page.getByRole('button', { name: 'Create scenario' }).click();
  const scName = page.getByLabel('Name', { exact: true });
  await expect(scName).toHaveAccessibleDescription(/is required/);
  await expect(reqPath).toHaveAttribute('aria-invalid', 'false');
  await scName.fill('checked by the server schema');
  await expect(scName).toHaveAttribute('aria-invalid', 'false');
  await page.getByRole('button', { name: 'Create scenario' }).click();
  await expect(page).toHaveURL(/\/scenarios$/);
  await expect(page.getByText('checked by the server schema')).toBeVisible();
});

test('target and pool config forms put each error on its field and clear it when fixed', async ({
  page,
  baseURL,
}) => {
  const base = baseURL!;
  await signUpApi(page.request, base, 'Target Forms Owner');

  // URL target: a second base URL that is not http(s) is the Base URLs field's problem
  await page.goto('/targets/new');
  await page.getByText('URL target', { exact: true }).click();
  await page.getByLabel('Name', { exact: true }).fill('Orders API');
  const urls = page.getByRole('textbox', { name: 'Base URLs' });
  await urls.fill('http://127.0.0.1:9\nftp://127.0.0.1:21');
  await urls.blur();
  await expect(urls).toHaveAccessibleDescription(/must use http or https/);
  const metrics = page.getByLabel(/^Prometheus metrics URL/);
  await metrics.fill('nope');
  await metrics.blur();
  // what is wrong, under the field (it used to say "Invalid input", or throw "Invalid URL" on submit)
  await expect(metrics).toHaveAccessibleDescription(/must be a URL like https:\/\/api.example.com/);
  await expect(page.getByLabel('Name', { exact: true })).toHaveAttribute('aria-invalid', 'false');
  await page.screenshot({ path: `${SHOTS}/64-forms-target-url-errors.png`, fullPage: true });
  await urls.fill('http://127.0.0.1:9');
  await expect(urls).toHaveAttribute('aria-invalid', 'false');
  await metrics.fill('');
  await expect(metrics).toHaveAttribute('aria-invalid', 'false');
  await expect(metrics).not.toHaveAccessibleDescription(/must be a URL/);

  // managed target: a data-set field and an environment field, each under its own label
  await page.goto('/targets/new');
  // worded for the chosen runtime and database, and a default request that uses the pool
  const endpoint = page.getByLabel('Endpoint', { exact: true });
  await expect(endpoint).toHaveValue('GET /work');
  await expect(page.getByLabel('Parameter 1 name')).toHaveValue('ms');
  await expect(page.getByLabel('Parameter 1 value')).toHaveValue('5');
  await expect(page.getByText('Go (pgx / database/sql) on Postgres')).toBeVisible();
  await expect(page.getByLabel('CPU limit (cores)')).toHaveAccessibleDescription(/GOMAXPROCS/);
  await expect(page.getByLabel('Role connection limit')).toHaveAccessibleDescription(
    /SQLSTATE 53300/,
  );
  await expect(endpoint.locator('option', { hasText: 'POST /upload' })).toHaveCount(1);
  await page.getByLabel('Runtime', { exact: true }).selectOption('java-hikari');
  await page.getByLabel('Database', { exact: true }).selectOption('mariadb');
  await expect(page.getByText('Java + HikariCP on MariaDB')).toBeVisible();
  await expect(endpoint.locator('option', { hasText: 'POST /upload' })).toHaveCount(0);
  await expect(page.getByLabel(/^Blob store delay/)).toHaveCount(0);
  await expect(page.getByLabel('CPU limit (cores)')).toHaveAccessibleDescription(
    /ActiveProcessorCount/,
  );
  await expect(page.getByLabel('User connection limit')).toHaveAccessibleDescription(/error 1203/);
  await expect(page.getByText(/SQLSTATE 53300|between target and Postgres|GOMAXPROCS/)).toHaveCount(
    0,
  );
  // every select is wide enough for its longest option
  for (const label of ['Endpoint', 'Runtime', 'Database', 'Balancing (several instances)']) {
    const fits = await page.getByLabel(label, { exact: true }).evaluate((el) => {
      const select = el as HTMLSelectElement;
      const probe = document.createElement('span');
      probe.style.font = getComputedStyle(select).font;
      probe.style.position = 'absolute';
      probe.style.whiteSpace = 'nowrap';
      document.body.append(probe);
      const widest = Math.max(
        ...[...select.options].map((o) => {
          probe.textContent = o.text;
          return probe.offsetWidth;
        }),
      );
      probe.remove();
      // padding and the arrow take about 2.5rem
      return { widest, room: select.clientWidth - 40 };
    });
    expect(fits.widest, `${label} options fit`).toBeLessThanOrEqual(fits.room);
  }
  await page.screenshot({ path: `${SHOTS}/67-forms-target-java-mariadb.png`, fullPage: true });
  await page.getByLabel('Name', { exact: true }).fill('Lab');
  const rows = page.getByLabel('Rows', { exact: true });
  await rows.fill('5');
  await rows.blur();
  await expect(rows).toHaveAccessibleDescription(/must be at least 100/);
  await expect(page.getByLabel('Fields per row')).toHaveAttribute('aria-invalid', 'false');
  await page.screenshot({ path: `${SHOTS}/65-forms-target-managed-error.png`, fullPage: true });
  await rows.fill('1000');
  await expect(rows).not.toHaveAccessibleDescription(/must be at least/);
  await page.getByRole('button', { name: 'Create target' }).click();
  await expect(page).not.toHaveURL(/\/targets\/new$/);
  await expect(page).toHaveURL(/\/targets\/[a-z0-9]+$/);
  const targetId = page.url().split('/').pop()!;
  // a managed target runs only during runs: no connection test that could only say so
  await expect(page.getByRole('button', { name: 'Test connection' })).toHaveCount(0);
  await expect(page.getByTestId('managed-no-probe')).toContainText('nothing to probe');

  // pool config: a parameter out of range under that parameter, cleared when fixed
  await page.goto(`/targets/${targetId}/pool-configs/new`);
  const maxConns = page.getByLabel(/^Max connections/);
  await maxConns.fill('0');
  await maxConns.blur();
  await expect(maxConns).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByLabel('Instances')).toHaveAttribute('aria-invalid', 'false');
  await page.screenshot({ path: `${SHOTS}/66-forms-pool-config-error.png`, fullPage: true });
  await maxConns.fill('8');
  await expect(maxConns).toHaveAttribute('aria-invalid', 'false');
  await page.getByLabel('Name', { exact: true }).fill('lazy 8');
  await page.getByRole('button', { name: 'Create pool config' }).click();
  await expect(page).toHaveURL(new RegExp(`/targets/${targetId}$`));
  await expect(page.getByRole('cell', { name: 'lazy 8', exact: true })).toBeVisible();
});

/**
 * The allowlist form: what a pattern allows is shown before it is saved, a broad range is saved
 * only once confirmed, and each entry is listed with what it reaches and its note.
 */
test('the allowlist says what a pattern allows, asks before a broad range, and lists each entry', async ({
  page,
  baseURL,
}) => {
  await signUpApi(page.request, baseURL!, 'Allowlist Owner');
  await page.goto('/settings');
  const pattern = page.getByLabel('Host, *.domain, IP or CIDR');
  // the allowlist's own form (an installation admin also sees the form that opens ranges)
  const form = page.locator('form').filter({ has: pattern });
  const note = form.getByLabel(/^Note/);
  const allow = form.getByRole('button', { name: 'Allow', exact: true });
  const entry = (address: string) => page.getByRole('listitem').filter({ hasText: address });

  await pattern.fill('api.staging.example.com');
  await expect(pattern).toHaveAccessibleDescription(/^Allows /);
  await note.fill('staging cluster');
  await allow.click();
  await expect(entry('api.staging.example.com')).toContainText('staging cluster');
  await expect(pattern).toHaveValue('');
  await expect(note).toHaveValue('');

  // a /7 of public addresses: refused until the box says it is meant
  await pattern.fill('44.0.0.0/7');
  const confirm = page.getByLabel(/I understand this allows 33,554,432 addresses/);
  await expect(confirm).toBeVisible();
  await allow.click();
  await expect(page.getByText(/confirm that you mean it/)).toBeVisible();
  await expect(entry('44.0.0.0/7')).toHaveCount(0);
  await confirm.check();
  await allow.click();
  await expect(entry('44.0.0.0/7')).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/67-allowlist-entries.png`, fullPage: true });

  await page.getByRole('button', { name: 'Remove api.staging.example.com' }).click();
  await expect(entry('api.staging.example.com')).toHaveCount(0);
});
