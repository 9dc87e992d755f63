import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import { SHOTS, signUpApi, trpcOk } from './helpers';
import { openLoopback } from './synthetic';

interface Captured {
  headers: http.IncomingHttpHeaders;
  body: string;
}
const SECRET = 'whsec-e2e-0123456789abcdef';

/**
 * Schedules compare and tell, the way a regression reaches a team: a pool config P (8
 * connections) runs 4 times and is saved as the baseline "nightly"; then P is edited to 1
 * connection (the change someone ships) and the nightly schedule fires P with 3 repeats under 8
 * VUs that each hold a connection 20 ms, with a p95 threshold that now fails. Measured by the real
 * worker, k6 and lab target, decided when the firing's last run ended by the one outcome rule
 * (docs/outcomes.md): not a pass, a regression naming the failed thresholds and the p95 change with
 * its interval, compared with P's own runs from before the edit, marked on Trends, and POSTed to
 * a capture server signed with the secret typed in the browser.
 */
test('a schedule whose firing regresses against its baseline calls the webhook, signed', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(10 * 60_000);
  const got: Captured[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      got.push({ headers: req.headers, body });
      res.writeHead(200).end('thanks');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const hook = `http://127.0.0.1:${(server.address() as AddressInfo).port}/poolbench`;
  try {
    await signUpApi(page.request, baseURL!, 'Webhook Owner');
    const call = trpcOk(page.request, baseURL!);
    const target = await call('target.create', {
      kind: 'managed',
      name: 'Lab',
      requestDefaults: { method: 'GET', path: '/health' },
    });
    const P = await call('poolConfig.create', {
      targetId: target.id,
      name: 'orders pool',
      config: { strategy: 'fixed', params: { maxConns: 8 } },
    });
    // another config of the same target: the baseline saved from P's card is never its baseline
    const other = await call('poolConfig.create', {
      targetId: target.id,
      name: 'reports pool',
      config: { strategy: 'fixed', params: { maxConns: 4 } },
    });
    const sc = await call('scenario.create', {
      name: '8 VUs holding a connection 20 ms',
      scenario: {
        template: 'sustained',
        params: { vus: 8, durationMs: 3000 },
        requests: [{ path: '/work', query: { ms: '20' } }],
        // about 20-30 ms with 8 connections; 8 requests queue for 1 connection: ~160 ms
        thresholds: [{ metric: 'http_req_duration', expr: 'p(95)<100' }],
      },
    });
    // the baseline: 4 runs of P at 8 connections, saved as "nightly" from P's cell
    const base = (await call('experiment.launch', {
      name: 'baseline',
      targetId: target.id,
      poolConfigIds: [P.id],
      scenarioIds: [sc.id],
      repeats: 4,
    })) as unknown as { experimentId: string };
    const finished = async (experimentId: string) => {
      const e = (await call('experiment.get', { id: experimentId }, 'query')) as unknown as {
        runs: Array<{ status: string }>;
      };
      const bad = e.runs.filter(
        (r) => !['queued', 'preparing', 'running', 'succeeded'].includes(r.status),
      );
      if (bad.length) throw new Error(`runs ended ${bad.map((r) => r.status).join(', ')}`);
      return e.runs.filter((r) => r.status === 'succeeded').length;
    };
    await expect
      .poll(() => finished(base.experimentId), { timeout: 4 * 60_000, intervals: [2000] })
      .toBe(4);
    await call('baseline.set', {
      name: 'nightly',
      item: {
        kind: 'cell',
        experimentId: base.experimentId,
        poolConfigId: P.id,
        scenarioId: sc.id,
      },
    });
    // the capture server is on loopback: this installation opened loopback to teams (what its
    // admin does in Settings → Installation; this account is not one), then the team's admin
    // allows it (a public host would need neither)
    await openLoopback();
    await call('team.allow', { pattern: '127.0.0.1/32', note: 'webhook capture server' });
    await call('experiment.schedule', {
      definition: {
        name: 'Nightly pool check',
        targetId: target.id,
        poolConfigIds: [P.id, other.id],
        scenarioIds: [sc.id],
        repeats: 3,
      },
      schedule: { name: 'Nightly pool check', cron: '0 3 * * *' },
    });
    // the regression someone ships: P edited from 8 connections to 1
    await call('poolConfig.update', {
      id: P.id,
      name: 'orders pool',
      config: { strategy: 'fixed', params: { maxConns: 1 } },
    });

    await page.goto('/schedules');
    const row = page.getByRole('row', { name: /Nightly pool check/ });
    await expect(row.getByTestId('schedule-notify-summary')).toContainText(
      'no baseline comparison',
    );
    await row.getByRole('button', { name: /^Notifications of/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Notifications of Nightly pool check' });
    await expect(dialog).toContainText('Baselines of this target: nightly');
    await dialog.getByLabel('Webhook URL').fill('https://user:pw@hooks.example.com/x');
    await dialog.getByLabel('Webhook URL').blur();
    await expect(dialog.getByText('must not carry user:password@')).toBeVisible();
    await dialog.getByLabel('Webhook URL').fill(hook);
    await expect(dialog.getByText('must not carry user:password@')).toHaveCount(0);
    await dialog.getByRole('button', { name: 'Save notifications' }).click();
    await expect(
      dialog.getByText(/baselineName|is required to notify on a regression/),
    ).toBeVisible();
    await dialog.getByLabel('Compare with baseline').fill('nightly');
    // before anything fires, the dialog lists the baseline each cell will be compared with
    const cells = dialog.getByTestId('notify-baseline-cells');
    await expect(
      cells.getByRole('row', { name: /orders pool .* orders pool in baseline/ }),
    ).toBeVisible();
    await expect(cells.getByRole('row', { name: /reports pool .* none/ })).toBeVisible();
    await dialog.getByLabel('Signing secret').fill(SECRET);
    await page.screenshot({ path: `${SHOTS}/32-schedule-notify.png` });
    await dialog.getByRole('button', { name: 'Save notifications' }).click();
    await expect(dialog).toBeHidden();
    await expect(row.getByTestId('schedule-notify-summary')).toContainText(
      `vs baseline nightly · webhook to 127.0.0.1:${new URL(hook).port} on a regression`,
    );
    // the URL never comes back to the browser, only its host
    const listed = await call('schedule.list', undefined, 'query');
    expect(JSON.stringify(listed)).not.toContain('/poolbench');

    await row.getByRole('button', { name: /^Run .* now$/ }).click();
    await expect(page).toHaveURL(/\/experiments\/(?!new)[\w-]+$/);
    await expect.poll(() => got.length, { timeout: 5 * 60_000, intervals: [2000] }).toBe(1);
    const [req] = got;
    const sig = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(req!.headers['x-poolbench-signature']));
    expect(sig, 'X-PoolBench-Signature').not.toBeNull();
    expect(sig![2]).toBe(
      createHmac('sha256', SECRET).update(`${sig![1]}.${req!.body}`).digest('hex'),
    );
    const body = JSON.parse(req!.body) as {
      event: string;
      outcome: string;
      baseline: string;
      experiment: { id: string; url: string };
      cells: Array<{
        poolConfig: string;
        state: string;
        regression: boolean;
        baselineRuns: number;
        candidateRuns: number;
        failedThresholds: Array<{ runId: string; metric: string; expr: string }>;
        metrics: Array<{
          key: string;
          verdict: string;
          suspected: boolean;
          changePercent: { estimate: number; lower: number; upper: number } | null;
        }>;
      }>;
    };
    expect(body).toMatchObject({
      event: 'schedule.regression',
      outcome: 'regression',
      baseline: 'nightly',
    });
    expect(body.experiment.url).toContain(page.url().split('/').pop()!);
    const cell = body.cells.find((c) => c.poolConfig === 'orders pool')!;
    // compared with P's own 4 runs from before the edit, not with another config's
    expect(cell).toMatchObject({ state: 'regression', regression: true, baselineRuns: 4 });
    expect(cell.candidateRuns).toBe(3);
    // every run of the 1-connection pool failed its p95 threshold, each named with its run
    expect(cell.failedThresholds.length).toBe(3);
    expect(cell.failedThresholds[0]).toMatchObject({
      metric: 'http_req_duration',
      expr: 'p(95)<100',
    });
    // p95 is far worse, with its change and interval; on 4 vs 3 runs no primary metric can reach
    // p < 0.05 (the cell alone would be incomplete), so the failed thresholds make the regression
    const p95 = cell.metrics.find((m) => m.key === 'p95Ms')!;
    expect(p95, JSON.stringify(p95)).toMatchObject({ verdict: 'inconclusive', suspected: false });
    expect(p95.changePercent!.estimate).toBeGreaterThan(100);
    expect(p95.changePercent!.upper).toBeGreaterThan(p95.changePercent!.lower);
    // the baseline saved on P's card is not the other config's: no baseline there, nothing hidden
    expect(body.cells.find((c) => c.poolConfig === 'reports pool')).toMatchObject({
      baselineRuns: 0,
      metrics: [],
    });
    // Trends reads the same baseline and marks the firing
    const trend = (await call(
      'trend.series',
      { targetId: target.id, scenarioId: sc.id, poolConfigId: P.id },
      'query',
    )) as unknown as {
      baseline: { experimentId: string; runs: number } | null;
      points: Array<{ experimentId: string; state: string }>;
    };
    expect(trend.baseline).toMatchObject({ experimentId: base.experimentId, runs: 4 });
    expect(trend.points.find((pt) => pt.experimentId === body.experiment.id)?.state).toBe(
      'regression',
    );

    await page.goto('/schedules');
    await expect(row.getByTestId('schedule-notification')).toContainText('regression');
    await expect(row.getByTestId('schedule-notification')).toContainText(
      'webhook delivered (HTTP 200)',
    );
    await page.screenshot({ path: `${SHOTS}/33-schedule-webhook-delivered.png`, fullPage: true });
  } finally {
    server.close();
  }
});
