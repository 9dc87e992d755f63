import { expect, test } from '@playwright/test';
import { expectScopedHeadings, SHOTS, signUpApi, trpcOk } from './helpers';

/**
 * A flow built in the scenario editor, run by the real worker against the lab target: log in
 * with per-VU credentials from a CSV, take the token from the JSON answer, send it on the next
 * step; that step's body check fails, which shows in the error rate and fails the run's
 * threshold. Every request answers 200 only when the token was taken and sent: a step without it
 * would be refused with 401.
 */
test('a login flow with CSV data and a failing body check, from the editor to the run', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(5 * 60_000);
  await signUpApi(page.request, baseURL!, 'Flow Builder');
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
  const pc2 = await call('poolConfig.create', {
    targetId: target.id,
    name: 'fixed 2',
    config: { strategy: 'fixed', params: { maxConns: 2 } },
  });

  await page.goto('/scenarios/new');
  await page.getByLabel('Name', { exact: true }).first().fill('login flow');
  await page.getByLabel('Template').selectOption('fixed-requests');
  await page.getByLabel('Requests', { exact: true }).fill('6');
  await page.getByLabel('Concurrency').fill('2');
  await page.getByLabel('Run the requests in order as a flow').check();

  // step 1: log in with the row's credentials, keep the token, expect 200
  await page.getByLabel('Step 1 method', { exact: true }).selectOption('POST');
  await page.getByLabel('Path', { exact: true }).first().fill('/login');
  await page
    .getByLabel('JSON body')
    .first()
    .fill('{"username": "{{username}}", "password": "{{password}}"}');
  await page.getByRole('button', { name: 'Add a variable to step 1' }).click();
  await page.getByLabel('Step 1 variable 1 name', { exact: true }).fill('token');
  await page.getByLabel('Step 1 variable 1 json path', { exact: true }).fill('token');
  await page.getByRole('button', { name: 'Add a check to request 1' }).click();
  await expect(page.getByLabel('Request 1 check 1 value', { exact: true })).toHaveValue('200');

  // step 2: the token as a bearer header; a body check that fails
  await page.getByRole('button', { name: 'Add step' }).click();
  await page.getByLabel('Path', { exact: true }).nth(1).fill('/me');
  await page.getByRole('button', { name: 'Add a header to step 2' }).click();
  await page.getByLabel('Step 2 header name', { exact: true }).fill('Authorization');
  await page.getByLabel('Step 2 header value', { exact: true }).fill('Bearer {{token}}');
  await page.getByRole('button', { name: 'Add a check to request 2' }).click();
  await page.getByLabel('Request 2 check 1 kind', { exact: true }).selectOption('body-contains');
  await page.getByLabel('Request 2 check 1 value', { exact: true }).fill('nobody');

  // a variable nothing defines is named on its field before saving
  await page.getByRole('button', { name: 'Create scenario' }).click();
  await expect(
    page.getByText(/uses \{\{username\}\}, which no earlier request extracts/),
  ).toBeVisible();

  // per-VU credentials
  await page.getByRole('button', { name: 'Add data' }).click();
  await page
    .getByLabel('Content')
    .fill('username,password\nuser0001,pw-user0001\nuser0002,pw-user0002\n');
  await expect(page.getByText('2 rows; variables: {{username}}, {{password}}')).toBeVisible();
  // the columns define the variables: the message on the body goes
  await expect(page.getByText(/uses \{\{username\}\}/)).toHaveCount(0);
  await expect(page.getByLabel('Threshold 1 metric')).toHaveValue('http_req_failed');
  await expect(page.getByLabel('Threshold 1 expression')).toHaveValue('rate<0.01');
  await page.screenshot({ path: `${SHOTS}/flows-01-builder.png`, fullPage: true });
  await page.getByRole('button', { name: 'Create scenario' }).click();
  await expect(page).toHaveURL(/\/scenarios$/);

  const scenarios = (await call('scenario.list', {}, 'query')) as unknown as Array<{
    id: string;
    name: string;
  }>;
  const sc = scenarios.find((s) => s.name === 'login flow')!;
  // the editor opens it again with every step field as saved
  await page.goto(`/scenarios/${sc.id}`);
  await expect(page.getByLabel('Run the requests in order as a flow')).toBeChecked();
  await expect(page.getByLabel('Step 1 variable 1 name', { exact: true })).toHaveValue('token');
  await expect(page.getByLabel('Step 2 header value', { exact: true })).toHaveValue(
    'Bearer {{token}}',
  );
  await expect(page.getByLabel('Request 2 check 1 value', { exact: true })).toHaveValue('nobody');

  const { experimentId } = (await call('experiment.launch', {
    name: 'login flow',
    targetId: target.id,
    poolConfigIds: [pc.id, pc2.id],
    scenarioIds: [sc.id],
    repeats: 1,
  })) as unknown as { experimentId: string };
  await page.goto(`/experiments/${experimentId}`);
  const cells = page.getByTestId('matrix-run');
  for (const i of [0, 1])
    await expect(cells.nth(i).getByTestId('run-status')).toHaveText(
      /Succeeded|Thresholds failed|Failed/,
      { timeout: 180_000 },
    );
  const cell = cells.first();
  await cell.click();
  await expect(page).toHaveURL(/\/runs\/[a-z0-9]+$/);
  const runId = page.url().split('/').pop()!;

  // 6 iterations x 2 steps, all answered 200 (the token was taken and sent), and every /me
  // failed its body check: half the requests failed
  const run = (await call('run.get', { id: runId }, 'query')) as unknown as {
    status: string;
    summary: {
      requests: number;
      failed: number;
      checkFailed?: number;
      statusCounts: Record<string, number>;
    };
  };
  expect(run.summary.requests).toBe(12);
  expect(run.summary.statusCounts).toEqual({ '200': 12 });
  expect(run.summary.failed).toBe(6);
  expect(run.summary.checkFailed).toBe(6);
  expect(run.status).toBe('thresholds_failed');
  await expect(page.getByTestId('run-status').first()).toHaveText('Thresholds failed');
  const thresholds = page.getByTestId('thresholds');
  await expect(thresholds).toContainText('http_req_failed rate<0.01');
  await expect(page.getByText('50.00 %').first()).toBeVisible();
  await expect(page.getByTestId('run-summary')).toContainText('6 failed, 6 by a check');
  // the flow's checks are listed as a script's are: every /me failed its body check
  const bodyCheck = page
    .getByTestId('checks')
    .getByTestId('check')
    .filter({ hasText: 'body contains "nobody"' });
  await expect(bodyCheck.locator('td')).toHaveText(['0', '6', '0.0 %']);
  // each step over the load: the logins all passed, every /me failed its check
  const steps = page.getByTestId('request-step');
  await expect(steps).toHaveCount(2);
  await expect(steps.nth(0)).toContainText('1. POST /login');
  await expect(steps.nth(0).locator('td').nth(1)).toHaveText('0 (0.0 %)');
  await expect(steps.nth(1)).toContainText('2. GET /me');
  await expect(steps.nth(1).locator('td').nth(1)).toHaveText('6 (100.0 %)');
  await page.screenshot({ path: `${SHOTS}/flows-02-run.png`, fullPage: true });

  // the two pool configs side by side, step by step
  await page.goto(
    `/compare?items=c.${experimentId}.${pc.id}.${sc.id},c.${experimentId}.${pc2.id}.${sc.id}`,
  );
  const stepRows = page.getByTestId('steps-row');
  await expect(stepRows).toHaveCount(2, { timeout: 60_000 });
  await expect(stepRows.nth(0).getByRole('rowheader')).toHaveText('POST /login');
  await expect(stepRows.nth(1).getByRole('rowheader')).toHaveText('GET /me');
  // failed share per group: logins 0 %, every /me failed its check
  await expect(stepRows.nth(0).locator('td').nth(2)).toHaveText('0.0 %');
  await expect(stepRows.nth(1).locator('td').nth(2)).toHaveText('100.0 %');
  await expect(stepRows.nth(1).locator('td').nth(5)).toHaveText('100.0 %');
  await page.getByTestId('steps-table').scrollIntoViewIfNeeded();
  // the comparison, the requests and the per-config tables: every heading scoped, groups grouped
  await expectScopedHeadings(page);
  await page.screenshot({ path: `${SHOTS}/flows-03-compare-steps.png`, fullPage: true });
});
