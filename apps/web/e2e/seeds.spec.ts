import { expect, test } from '@playwright/test';
import { nav, SHOTS, trpcCall, trpcOk } from './helpers';

// The demo team's Seeds page: every seed preset with its claims in the seed's words and numbers,
// the latest reproduction's verdicts, and Reproduce launching every seed experiment through the queue.
test("seeds page: claims with the seeds' numbers, latest verdicts, Reproduce queues every seed experiment", async ({
  page,
  baseURL,
}) => {
  test.setTimeout(3 * 60_000);
  await page.goto('/sign-in');
  await page.getByLabel('Email').fill('demo@poolbench.dev');
  await page.getByLabel('Password').fill('poolbench-demo');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/runs$/);

  await nav(page, 'Seeds');
  await expect(page.getByRole('heading', { level: 1, name: 'Seeds' })).toBeVisible();
  const s004 = page.getByTestId('seed-seed-004-per-request-vs-shared-pool');
  await expect(s004).toContainText(
    'One shared pool serves more requests per second than open+close per request (seed: 467 vs 116 req/s, 4×).',
  );
  await expect(s004).toContainText('has a higher throughput than');
  // 25 claims of the Go emulations, 4 of seed 001 on Go/Bun/PHP-FPM, 5 of seed 003 on HikariCP
  await expect(page.getByTestId('seed-claim')).toHaveCount(34);
  // whatever the latest reproduction of this stack decided (make seeds, or nothing yet)
  await page.screenshot({ path: `${SHOTS}/seeds-page.png`, fullPage: true });

  const call = trpcOk(page.request, baseURL!);
  try {
    await page.getByRole('button', { name: 'Reproduce' }).first().click();
    await expect(page.getByText(/Reproduction \d{8}-\d{6} started/)).toBeVisible();
    await expect(page.getByText('10 experiments queued')).toBeVisible();
    const repro = page.getByTestId('seeds-reproduction');
    await expect(repro).toContainText(/\d{8}-\d{6}/);
    // each seed now links its new experiment; its claims wait for the experiment's end
    await expect(
      s004.getByRole('link', { name: /^experiment \w+ \((queued|running)\)$/ }),
    ).toBeVisible();
    await expect(s004.getByText('pending')).toHaveCount(3);
    await page.screenshot({ path: `${SHOTS}/seeds-reproduce-started.png`, fullPage: true });
  } finally {
    // The reproduction is ~30 min of load: cancel its runs so the suite stays bounded.
    const overview = (await call('seeds.overview', undefined, 'query')) as unknown as {
      latest: { experiments: Array<{ experimentId: string }> };
    };
    for (const e of overview.latest.experiments) {
      const exp = (await call('experiment.get', { id: e.experimentId }, 'query')) as unknown as {
        runs: Array<{ id: string; status: string }>;
      };
      for (const r of exp.runs.filter((x) => ['queued', 'preparing', 'running'].includes(x.status)))
        await trpcCall(page.request, baseURL!, 'run.cancel', { id: r.id }, 'mutation'); // a run may finish meanwhile: 409, fine
    }
  }
  await expect(s004.getByRole('link', { name: /^experiment \w+ \(canceled\)$/ })).toBeVisible({
    timeout: 30_000,
  });
});

// Seed 002's question, answered by the advisor: one click starts the search on the preset's rows.
test("seeds page: Ask the advisor starts seed 002's pool-size search", async ({ page }) => {
  await page.goto('/sign-in');
  await page.getByLabel('Email').fill('demo@poolbench.dev');
  await page.getByLabel('Password').fill('poolbench-demo');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/runs$/);
  await nav(page, 'Seeds');
  const ask = page.getByTestId('seed-advisor-002');
  await expect(ask).toContainText('Three instances behind nginx');
  await ask.getByRole('button', { name: /Ask the advisor: One instance/ }).click();
  await expect(page).toHaveURL(/\/experiments\/[a-z0-9]+$/);
  const card = page.getByTestId('advisor-card');
  await expect(card).toContainText('maxConns of “002 · 10 conns x 1 instance · seeds ×0.25”');
  await expect(card).toContainText('p99 ≤ 50 ms and errors ≤ 0.10 % at 250 req/s');
  // the search is minutes of load: stop it; it ends with what it has, saying so
  await page.getByRole('button', { name: 'Cancel experiment' }).click();
  await page.getByRole('button', { name: 'Cancel runs' }).click();
  await expect(card.getByText('stopped', { exact: true })).toBeVisible({ timeout: 60_000 });
  await expect(card.getByTestId('advisor-summary')).toContainText('the experiment was canceled');
});
