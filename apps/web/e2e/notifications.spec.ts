import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import { SHOTS, signUpApi, trpcOk } from './helpers';

interface Captured {
  headers: http.IncomingHttpHeaders;
  body: string;
}
const SECRET = 'whsec-e2e-0123456789abcdef';

/**
 * Issue 17, "schedules compare and tell": a schedule compared with the baseline "nightly" (a pool
 * of 8 connections) runs a pool of 1 under 8 VUs that each hold a connection 20 ms: a real
 * regression, measured by the real worker, k6 and lab target, decided when the firing's last run
 * ended, and POSTed to a capture server signed with the secret typed in the browser.
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
    const one = await call('poolConfig.create', {
      targetId: target.id,
      name: 'pool of 1',
      config: { strategy: 'fixed', params: { maxConns: 1 } },
    });
    const eight = await call('poolConfig.create', {
      targetId: target.id,
      name: 'pool of 8',
      config: { strategy: 'fixed', params: { maxConns: 8 } },
    });
    const sc = await call('scenario.create', {
      name: '8 VUs holding a connection 20 ms',
      scenario: {
        template: 'sustained',
        params: { vus: 8, durationMs: 3000 },
        requests: [{ path: '/work', query: { ms: '20' } }],
      },
    });
    // the baseline: 4 runs of the pool of 8, saved as "nightly"
    const base = (await call('experiment.launch', {
      name: 'baseline',
      targetId: target.id,
      poolConfigIds: [eight.id],
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
        poolConfigId: eight.id,
        scenarioId: sc.id,
      },
    });
    // the capture server is on loopback: the team's admin allows it (a public host would need nothing)
    await call('team.allow', { pattern: '127.0.0.1/32', note: 'webhook capture server' });
    await call('experiment.schedule', {
      definition: {
        name: 'Nightly pool check',
        targetId: target.id,
        poolConfigIds: [one.id],
        scenarioIds: [sc.id],
        repeats: 4,
      },
      schedule: { name: 'Nightly pool check', cron: '0 3 * * *' },
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
      experiment: { url: string };
      cells: Array<{
        poolConfig: string;
        regression: boolean;
        metrics: Array<{ key: string; verdict: string }>;
      }>;
    };
    expect(body).toMatchObject({
      event: 'schedule.regression',
      outcome: 'regression',
      baseline: 'nightly',
    });
    expect(body.experiment.url).toContain(page.url().split('/').pop()!);
    expect(body.cells[0]).toMatchObject({ poolConfig: 'pool of 1', regression: true });
    expect(body.cells[0]!.metrics.find((m) => m.key === 'p95Ms')?.verdict).toBe('worse');

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
