import { expect, test } from '@playwright/test';
import { SHOTS, signUpApi, trpcCall, trpcOk } from './helpers';

const SCRIPT = `import http from 'k6/http';
import { check, sleep } from 'k6';

export const options = {
  scenarios: {
    browse: { executor: 'constant-vus', vus: 2, duration: '3s', exec: 'browse' },
    roles: { executor: 'per-vu-iterations', vus: 1, iterations: 5, exec: 'roles' },
  },
  thresholds: {
    http_req_failed: ['rate<0.01'],
    'http_req_duration{scenario:roles}': ['p(95)<2000'],
  },
};

export function setup() {
  return { base: __ENV.BASE_URL };
}

export function browse(data) {
  const res = http.get(\`\${data.base}/health\`, { tags: { name: 'health' } });
  check(res, { 'health is 200': (r) => r.status === 200 });
  sleep(0.1);
}

export function roles(data) {
  http.get(\`\${data.base}/roles\`, { tags: { name: 'roles' } });
}
`;

/**
 * A team's own k6 script: k6's error (with its line) before anything is saved, then its own
 * options.scenarios and thresholds shown, saved as a scenario, run through the queue in the
 * sandbox beside a template scenario, and the two compared.
 */
test('an imported k6 script with its own scenarios runs and compares with a template scenario', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(5 * 60_000);
  await signUpApi(page.request, baseURL!, 'Script Importer');
  const call = trpcOk(page.request, baseURL!);
  const target = await call('target.create', {
    kind: 'managed',
    name: 'Lab',
    requestDefaults: { method: 'GET', path: '/health' },
  });
  const pc = await call('poolConfig.create', {
    targetId: target.id,
    name: 'fixed 4',
    config: { strategy: 'fixed', params: { maxConns: 4 } },
  });
  const template = await call('scenario.create', {
    name: 'template: 2 VUs',
    scenario: {
      template: 'sustained',
      params: { vus: 2, durationMs: 3000 },
      requests: [{ path: '/health' }],
    },
  });

  await page.goto('/scenarios');
  await page.getByRole('link', { name: 'Import a k6 script' }).click();
  await expect(page).toHaveURL(/\/scenarios\/import$/);
  await page.getByLabel('Name', { exact: true }).fill('our k6 script');
  const editor = page.getByLabel('Script', { exact: true });

  // k6's own message, with the line, before anything is saved
  await editor.fill(
    'import http from "k6/http";\n\nexport default function () {\n  http.get(;\n}\n',
  );
  await page.getByRole('button', { name: 'Check script' }).click();
  await expect(page.getByTestId('script-error')).toContainText('Line 4:12 Unexpected token', {
    timeout: 60_000,
  });
  await expect(page.getByRole('button', { name: 'Save as scenario' })).toBeDisabled();
  await page.screenshot({ path: `${SHOTS}/k6-script-01-error.png`, fullPage: true });

  await editor.fill(SCRIPT);
  await page.getByRole('button', { name: 'Check script' }).click();
  const rows = page.getByTestId('script-scenarios').locator('tbody tr');
  await expect(rows).toHaveCount(2, { timeout: 60_000 });
  await expect(rows.nth(0)).toContainText('browse');
  await expect(rows.nth(0)).toContainText('constant-vus');
  await expect(rows.nth(1)).toContainText('per-vu-iterations');
  const thresholds = page.getByTestId('script-thresholds');
  await expect(thresholds).toContainText('http_req_failed rate<0.01 evaluated by PoolBench');
  await expect(thresholds).toContainText(
    'http_req_duration{scenario:roles} p(95)<2000 evaluated by PoolBench',
  );
  await page.screenshot({ path: `${SHOTS}/k6-script-02-checked.png`, fullPage: true });
  await page.getByRole('button', { name: 'Save as scenario' }).click();
  await expect(page).toHaveURL(/\/scenarios$/);
  await expect(page.getByRole('row', { name: /our k6 script/ })).toContainText('Your k6 script');

  const list = (await call('scenario.list', {}, 'query')) as unknown as Array<{
    id: string;
    name: string;
  }>;
  const script = list.find((s) => s.name === 'our k6 script')!;
  const { experimentId } = (await call('experiment.launch', {
    name: 'script vs template',
    targetId: target.id,
    poolConfigIds: [pc.id],
    scenarioIds: [template.id, script.id],
    repeats: 1,
  })) as unknown as { experimentId: string };
  await page.goto(`/experiments/${experimentId}`);
  const cells = page.getByTestId('matrix-run');
  for (const i of [0, 1])
    await expect(cells.nth(i).getByTestId('run-status')).toHaveText('Succeeded', {
      timeout: 180_000,
    });

  // the script's run: both of its own scenarios sent requests, by their names
  const runs = (
    (await call('experiment.get', { id: experimentId }, 'query')) as unknown as {
      runs: Array<{ id: string; scenarioId: string | null }>;
    }
  ).runs;
  const scriptRun = runs.find((r) => r.scenarioId === script.id)!;
  const run = (await call('run.get', { id: scriptRun.id }, 'query')) as unknown as {
    script: string | null;
    summary: {
      requests: number;
      failed: number;
      steps?: Array<{ name: string; requests: number }>;
    };
  };
  expect(run.summary.failed).toBe(0);
  const steps = Object.fromEntries((run.summary.steps ?? []).map((s) => [s.name, s.requests]));
  expect(steps.roles).toBe(5);
  expect(steps.health).toBeGreaterThan(10);
  expect(run.summary.requests).toBe(steps.roles! + steps.health!);
  expect(run.script).toContain("exec: 'roles'");
  await page.goto(`/runs/${scriptRun.id}`);
  await expect(page.getByTestId('request-steps')).toContainText('roles');
  await expect(page.getByText("The team's k6 script")).toBeVisible();
  // the scenario card: the script's own scenarios and the run's limits, not an empty list
  const details = page.getByTestId('script-scenario-details');
  await expect(details).toContainText('Up to 3 VUs');
  await expect(details.locator('[data-testid="script-scenarios"] tbody tr')).toHaveCount(2);
  await expect(details).toContainText('vus 2, duration 3s');
  await expect(details).toContainText('stopped after');
  await page.screenshot({ path: `${SHOTS}/k6-script-03-run.png`, fullPage: true });

  // compared with the template scenario's run
  await page.goto(
    `/compare?items=c.${experimentId}.${pc.id}.${template.id},c.${experimentId}.${pc.id}.${script.id}`,
  );
  const merged = page.getByTestId('merged-table');
  await expect(merged.locator('tbody tr')).toHaveCount(2, { timeout: 60_000 });
  await expect(page.getByText('template: 2 VUs').first()).toBeVisible();
  await expect(page.getByText('our k6 script').first()).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/k6-script-04-compare.png`, fullPage: true });

  // saved again from the editor, it keeps an insight threshold the team added to it
  await call('scenario.addInsightThreshold', { id: script.id, code: 'pool-never-waited' });
  await page.goto(`/scenarios/${script.id}`);
  await page.getByRole('button', { name: 'Check script' }).click();
  await expect(page.getByTestId('script-scenarios').locator('tbody tr')).toHaveCount(2, {
    timeout: 60_000,
  });
  // the stored stop time is shown and kept; a changed one is saved
  const stopAfter = page.getByLabel('Stop the run after (seconds)');
  await expect(stopAfter).toHaveValue('600');
  await stopAfter.fill('90');
  await page.getByRole('button', { name: 'Save script' }).click();
  await expect(page).toHaveURL(/\/scenarios$/);
  const saved = (await call('scenario.get', { id: script.id }, 'query')) as unknown as {
    scenario: { thresholds: Array<{ metric: string; expr: string }>; maxDurationMs: number };
  };
  expect(saved.scenario.maxDurationMs).toBe(90_000);
  expect(saved.scenario.thresholds.map((t) => `${t.metric} ${t.expr}`)).toEqual([
    // in the order k6 resolved the script's options
    'http_req_duration{scenario:roles} p(95)<2000',
    'http_req_failed rate<0.01',
    'insight:pool-never-waited absent',
  ]);

  // an admin turns the team's own scripts off: checking and launching are refused, by reason
  await page.goto('/settings');
  const allow = page.getByLabel('Allow members to import and run their own k6 scripts');
  await expect(allow).toBeChecked();
  await allow.uncheck();
  await expect(allow).not.toBeChecked();
  await page.reload();
  await expect(allow).not.toBeChecked();
  await page.screenshot({ path: `${SHOTS}/k6-script-05-settings-off.png`, fullPage: true });
  await page.goto('/scenarios/import');
  await page.getByRole('button', { name: 'Check script' }).click();
  await expect(page.getByText("this team's admins turned off k6 scripts")).toBeVisible({
    timeout: 30_000,
  });
  const launch = await trpcCall(
    page.request,
    baseURL!,
    'experiment.launch',
    {
      name: 'script while off',
      targetId: target.id,
      poolConfigIds: [pc.id],
      scenarioIds: [script.id],
      repeats: 1,
    },
    'mutation',
  );
  expect(launch.status).toBe(400);
  expect(launch.message).toContain("this team's admins turned off k6 scripts");
});
