import { expect, test } from '@playwright/test';
import { SHOTS, signUpApi, trpcOk } from './helpers';
import { closeE2eDb, e2eDb } from './synthetic';

/**
 * Issue 14: a hypothesis stated in the experiment form before the runs, decided when the
 * experiment ends, through the real worker, k6 and lab target. A pool of 8 connections against a
 * pool of 1 under 8 VUs that each hold one for 20 ms: "8's p95 is lower by at least 20 %" holds.
 * The decision is made slow on purpose (a trigger sleeps before it is stored), as on a busy
 * machine: the page shows it although its answer with every run ended came before it.
 */
test('a hypothesis stated in the form is pre-registered and decided when the experiment ends', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(8 * 60_000);
  await signUpApi(page.request, baseURL!, 'Hypothesis Tester');
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
  // a Postgres trigger holds this claim's decision 5 s before it is stored
  const db = e2eDb();
  const slow = `e2e_slow_decision_${one.id}`;
  await db.$executeRawUnsafe(`
    CREATE FUNCTION "${slow}"() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NEW."decidedAt" IS NOT NULL AND OLD."decidedAt" IS NULL THEN PERFORM pg_sleep(5); END IF;
      RETURN NEW;
    END $$`);
  await db.$executeRawUnsafe(`
    CREATE TRIGGER "${slow}" BEFORE UPDATE ON "Hypothesis" FOR EACH ROW
    WHEN (NEW."basePoolConfigId" = '${one.id}') EXECUTE FUNCTION "${slow}"()`);
  test.info().attach('slow decision', { body: slow });
  const dropSlow = async () => {
    await db.$executeRawUnsafe(`DROP TRIGGER IF EXISTS "${slow}" ON "Hypothesis"`);
    await db.$executeRawUnsafe(`DROP FUNCTION IF EXISTS "${slow}"()`);
    await closeE2eDb();
  };
  try {
    const sc = await call('scenario.create', {
      name: '8 VUs holding a connection 20 ms',
      scenario: {
        template: 'sustained',
        params: { vus: 8, durationMs: 2000 },
        requests: [{ path: '/work', query: { ms: '20' } }],
      },
    });

    await page.goto(
      `/experiments/new?name=Pool+size+claim&targetId=${target.id}&poolConfigIds=${one.id},${eight.id}&scenarioIds=${sc.id}&repeats=4`,
    );
    const section = page.getByTestId('hypotheses-fields');
    await section.getByRole('button', { name: 'Add a hypothesis' }).click();
    const h = section.getByRole('group', { name: 'Hypothesis 1' });
    await h.getByLabel('Candidate').selectOption({ label: 'pool of 8' });
    await h.getByLabel('Against (base)').selectOption({ label: 'pool of 8' });
    // the same cell on both sides is refused under the field, and the message clears when fixed
    await page.getByRole('button', { name: 'Run experiment' }).click();
    await expect(h.getByText('must be a different cell than base')).toBeVisible();
    await h.getByLabel('Against (base)').selectOption({ label: 'pool of 1' });
    await expect(h.getByText('must be a different cell than base')).toHaveCount(0);
    await h.getByLabel('Metric').selectOption({ label: 'Latency p95' });
    await h.getByLabel('Expect').selectOption('better');
    await h.getByLabel('Band').fill('20');
    await page.screenshot({ path: `${SHOTS}/hypotheses-01-form.png`, fullPage: true });
    await page.getByRole('button', { name: 'Run experiment' }).click();
    await expect(page).toHaveURL(/\/experiments\/(?!new)[\w-]+$/);

    const card = page.getByTestId('hypotheses');
    const row = card.getByTestId('hypothesis');
    await expect(row).toContainText(
      'pool of 8 has a lower p95 latency than pool of 1 by at least 20 %',
    );
    await expect(card).toContainText('Pre-registered: fixed before the first run started', {
      timeout: 60_000,
    });
    await expect(row).toContainText('Holds', { timeout: 5 * 60_000 });
    await expect(row).toContainText(
      /Change −\d+ % \[−\d+, −\d+\] · p = [\d.<> ]+ unadjusted · 8 runs/,
    );
    // the unadjusted p is tied in words to the comparison table's adjusted one
    await expect(card.getByTestId('hypotheses-p-note')).toContainText(
      'its own p decides it, unadjusted',
    );
    await expect(card.getByTestId('hypotheses-p-note')).toContainText(
      'adjusts each p for that (Holm among the primary metrics',
    );
    await expect(row.getByRole('link', { name: 'Compare the two cells' })).toHaveAttribute(
      'href',
      /\/compare\?items=c\./,
    );
    await page.screenshot({ path: `${SHOTS}/hypotheses-02-decided.png`, fullPage: true });

    // the same decision through the API, and edits are refused now
    const e = page.url().split('/').pop()!;
    const answer = (await call('experiment.hypotheses', { id: e }, 'query')) as unknown as {
      preRegistered: boolean;
      items: Array<{ status: string; runsUsed: number }>;
    };
    expect(answer).toMatchObject({
      preRegistered: true,
      items: [{ status: 'holds', runsUsed: 8 }],
    });
  } finally {
    await dropSlow();
  }
});
