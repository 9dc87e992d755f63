import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { SHOTS, signUpApi, trpcOk } from './helpers';
import { closeE2eDb, finishedExperiment, teamOf } from './synthetic';

/**
 * The outermost elements that reach past the window's right edge, each by tag, test id or class
 * and how far: what a failure names, so the culprit is found without a screenshot.
 */
const widest = (page: Page) =>
  page.evaluate(() => {
    const w = document.documentElement.clientWidth;
    const out: string[] = [];
    const walk = (el: Element) => {
      const r = el.getBoundingClientRect();
      if (r.right > w + 0.5 && r.width > 0) {
        const name =
          el.getAttribute('data-testid') ?? `${el.tagName.toLowerCase()}.${el.className}`;
        out.push(`${name.slice(0, 80)} +${Math.round(r.right - w)}px`);
        return;
      }
      // what a scrolling box holds scrolls inside it, not the page
      if (getComputedStyle(el).overflowX !== 'visible') return;
      for (const c of el.children) walk(c);
    };
    walk(document.body);
    return out.slice(0, 5);
  });

/** axe's serious and critical findings on the page as it is now, one line each. */
async function axeFindings(page: Page, where: string) {
  const result = await new AxeBuilder({ page }).analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) => `${where}: ${v.id} (${v.impact}) ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
    );
}

/** How far the page is wider than the window (0 = no horizontal scrolling). */
const overflow = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

/** A team with a Java target, two configs, a finished experiment and a schedule. */
async function javaTeam(page: Page, baseURL: string, who: string) {
  const email = await signUpApi(page.request, baseURL, who);
  const call = trpcOk(page.request, baseURL);
  const target = await call('target.create', {
    kind: 'managed',
    name: 'Orders on HikariCP',
    requestDefaults: { method: 'GET', path: '/work' },
    environment: { runtime: 'java-hikari', database: 'postgres' },
  });
  const fixed = await call('poolConfig.create', {
    targetId: target.id,
    name: 'fixed 10',
    config: { strategy: 'fixed', params: { maxConns: 10 } },
  });
  const elastic = await call('poolConfig.create', {
    targetId: target.id,
    name: 'elastic 2..20',
    config: { strategy: 'elastic', params: { minConns: 2, maxConns: 20, idleTimeoutMs: 10_000 } },
  });
  const scenario = await call('scenario.create', {
    name: 'burst at 60 req/s',
    scenario: {
      template: 'constant-arrival-rate',
      params: { ratePerSec: 60, durationMs: 3000, preAllocatedVUs: 10, maxVUs: 60 },
      requests: [{ path: '/work', query: { ms: 40 } }],
    },
  });
  const experimentId = await finishedExperiment({
    teamId: await teamOf(email),
    targetId: target.id,
    name: 'fixed 10 vs elastic 2..20',
    poolConfigs: [
      { id: fixed.id, name: 'fixed 10' },
      { id: elastic.id, name: 'elastic 2..20' },
    ],
    scenario: { id: scenario.id, name: 'burst at 60 req/s' },
    repeats: 3,
    seconds: 10,
    shape: (i) => (i === 0 ? { latencyMs: 40, rps: 60 } : { latencyMs: 55, rps: 58 }),
  });
  const scheduled = (await call('experiment.schedule', {
    definition: {
      name: 'Nightly HikariCP check with a long name',
      targetId: target.id,
      poolConfigIds: [fixed.id, elastic.id],
      scenarioIds: [scenario.id],
      repeats: 3,
    },
    schedule: { name: 'Nightly HikariCP check with a long name', cron: '0 3 * * 1-5' },
  })) as unknown as { id: string };
  return {
    call,
    scheduleId: scheduled.id,
    experimentId,
    targetId: target.id,
    fixed,
    elastic,
    scenario,
  };
}

/** The team of `javaTeam`, with a share link of its comparison. */
async function team(page: Page, baseURL: string, who: string) {
  const { call, experimentId, targetId, fixed, elastic, scenario } = await javaTeam(
    page,
    baseURL,
    who,
  );
  const cells = [fixed.id, elastic.id].map((poolConfigId) => ({
    kind: 'cell' as const,
    experimentId,
    poolConfigId,
    scenarioId: scenario.id,
  }));
  const link = (await call('shareLink.create', {
    target: { kind: 'comparison', selection: { items: cells } },
    title: 'fixed 10 vs elastic 2..20 on HikariCP',
  })) as unknown as { token: string };
  const items = cells.map((c) => `c.${c.experimentId}.${c.poolConfigId}.${c.scenarioId}`).join(',');
  return { targetId, experimentId, items, shareToken: link.token };
}

test.afterAll(closeE2eDb);

test.describe('390 × 844, a phone', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  /**
   * The sidebar is a drawer behind "Menu", and no signed-in page nor the shared comparison is
   * wider than the phone: tables scroll inside their own box.
   */
  test('the sidebar collapses and no page scrolls sideways', async ({ page, browser, baseURL }) => {
    test.setTimeout(4 * 60_000);
    const t = await team(page, baseURL!, 'Phone Reader');
    await page.goto('/runs');
    const nav = page.getByRole('navigation', { name: 'Main' });
    await expect(nav).toBeHidden();
    const menu = page.getByRole('button', { name: 'Menu' });
    await expect(menu).toHaveAttribute('aria-expanded', 'false');
    await menu.click();
    await expect(nav).toBeVisible();
    await expect(menu).toHaveAttribute('aria-expanded', 'true');
    const a11y = await axeFindings(page, 'menu open');
    await page.screenshot({ path: `${SHOTS}/phone-01-menu-open.png` });
    await nav.getByRole('link', { name: 'Experiments', exact: true }).click();
    await expect(page).toHaveURL(/\/experiments$/);
    await expect(nav).toBeHidden();

    const pages: [string, string][] = [
      ['/runs', 'runs'],
      ['/experiments', 'experiments'],
      [`/experiments/${t.experimentId}`, 'experiment'],
      ['/experiments/new', 'experiment-form'],
      [`/compare?items=${t.items}`, 'compare'],
      ['/compare', 'compare-picker'],
      ['/advisor', 'advisor'],
      ['/trends', 'trends'],
      ['/scenarios', 'scenarios'],
      ['/targets', 'targets'],
      [`/targets/${t.targetId}`, 'target'],
      ['/schedules', 'schedules'],
      ['/seeds', 'seeds'],
      ['/settings', 'settings'],
      ['/getting-started', 'getting-started'],
    ];
    const wide: string[] = [];
    for (const [path, name] of pages) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
      if (name === 'compare') {
        const table = page.getByTestId('comparison-table');
        await expect(table).toBeVisible({ timeout: 60_000 });
        await table.screenshot({ path: `${SHOTS}/phone-compare-table.png` });
      }
      await page.waitForLoadState('networkidle');
      a11y.push(...(await axeFindings(page, path)));
      const over = await overflow(page);
      if (over > 0) wide.push(`${path}: ${over} px too wide: ${(await widest(page)).join('; ')}`);
      await page.screenshot({ path: `${SHOTS}/phone-${name}.png`, fullPage: true });
    }
    expect(wide).toEqual([]);
    expect(a11y, 'axe: no serious or critical violation at 390 px').toEqual([]);

    const anon = await (
      await browser.newContext({ viewport: { width: 390, height: 844 } })
    ).newPage();
    await anon.goto(`/share/${t.shareToken}`);
    await expect(
      anon.getByRole('heading', { name: 'fixed 10 vs elastic 2..20 on HikariCP' }),
    ).toBeVisible();
    await anon.waitForLoadState('networkidle');
    expect(await overflow(anon), (await widest(anon)).join('; ')).toBe(0);
    // each metric's verdict is on the screen, not scrolled off to the right
    const verdict = anon.locator('table.cmp .verdict').first();
    await verdict.scrollIntoViewIfNeeded();
    const box = await verdict.boundingBox();
    expect(box!.x + box!.width).toBeLessThanOrEqual(390);
    await anon.screenshot({ path: `${SHOTS}/phone-share-top.png` });
    expect(await axeFindings(anon, 'share')).toEqual([]);
    await anon.screenshot({ path: `${SHOTS}/phone-share.png`, fullPage: true });
    await anon.context().close();
  });

  /**
   * The in-app comparison stacks each metric as the shared page does: a metric's candidate value
   * and its verdict are inside the phone's width, with nothing to scroll sideways, neither the
   * page nor the table's box.
   */
  test('the compare page shows a metric’s values and verdict on the screen', async ({
    page,
    baseURL,
  }) => {
    const t = await team(page, baseURL!, 'Phone Comparer');
    await page.goto(`/compare?items=${t.items}`);
    const table = page.getByTestId('comparison-table');
    await expect(table).toBeVisible({ timeout: 60_000 });
    await page.waitForLoadState('networkidle');
    expect(await overflow(page), (await widest(page)).join('; ')).toBe(0);
    expect(await table.evaluate((el) => el.scrollWidth - el.clientWidth)).toBe(0);

    const row = table.getByTestId('metric-p95Ms');
    const verdict = row.getByTestId('verdict');
    const value = row.getByTestId('candidate-value');
    await expect(verdict).toHaveText(/\w/);
    // vertically only: a scroll into view could also scroll the table's box sideways
    await row.evaluate((el) => window.scrollBy(0, el.getBoundingClientRect().top - 160));
    for (const [what, el] of [
      ['verdict', verdict],
      ['candidate value', value],
    ] as const) {
      await expect(el, what).toBeInViewport();
      const box = (await el.boundingBox())!;
      expect(box.x, `${what} left edge`).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width, `${what} right edge`).toBeLessThanOrEqual(390);
    }
    // the line is named by the candidate it is of
    await expect(value).toHaveAttribute('data-label', 'elastic 2..20');
    expect(await table.evaluate((el) => el.scrollLeft)).toBe(0);
    await page.screenshot({ path: `${SHOTS}/phone-compare-metric.png` });
  });
});

test.describe('1280 × 800, a laptop', () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  /**
   * The in-app comparison opens with its answer in one line, as the shared page does, and says
   * which settings differ between the two configs (fixed 10 vs elastic 2..20 differ in strategy
   * and in max size, so the result cannot be put on one of them).
   */
  test('the compare page answers in one line and names what differs', async ({ page, baseURL }) => {
    const t = await team(page, baseURL!, 'Laptop Comparer');
    await page.goto(`/compare?items=${t.items}`);
    await expect(page.getByTestId('comparison-table')).toBeVisible({ timeout: 60_000 });
    await expect(page.getByTestId('compare-answer')).toHaveText(
      /^elastic 2\.\.20 vs fixed 10: p95 \+\d+ % \((inconclusive|worse)\), throughput .+\.$/,
    );
    const differs = page.getByTestId('config-difference');
    await expect(differs).toContainText('fixed 10 and elastic 2..20 differ in');
    await expect(differs).toContainText('Strategy fixed → elastic');
    await expect(differs).toContainText('Max connections 10 → 20');
    await expect(differs).toContainText('A difference in the results may come from any of them.');
    await page.screenshot({ path: `${SHOTS}/laptop-compare-answer.png` });
    await differs.getByRole('link', { name: 'Every setting side by side' }).click();
    await expect(page).toHaveURL(/\/pool-configs\/diff\?a=/);
    await expect(page.getByRole('heading', { name: 'Compare pool configs' })).toBeVisible();

    // the allowlist is for URL targets and for webhooks to internal addresses alike
    await page.goto('/settings');
    await expect(
      page.getByText(/internal addresses schedule webhooks may be delivered to/),
    ).toBeVisible();
  });

  /** The Schedules table shows its Actions column without scrolling the table sideways. */
  test('the Schedules table keeps its Actions column in view', async ({ page, baseURL }) => {
    const t = await javaTeam(page, baseURL!, 'Laptop Scheduler');
    // what a configured schedule shows: a baseline, a Slack webhook, a firing
    await t.call('schedule.setNotify', {
      id: t.scheduleId,
      baselineName: 'main',
      notifyOn: 'regression',
      webhookFormat: 'slack',
      webhookUrl: 'https://hooks.slack.com/services/T0000000/B0000000/XXXXXXXXXXXXXXXX',
      webhookSecret: 'a-signing-secret-of-32-characters',
      removeWebhook: false,
    });
    const fired = (await t.call('schedule.runNow', { id: t.scheduleId })) as unknown as {
      experimentId: string;
    };
    await t.call('experiment.cancel', { id: fired.experimentId });
    await page.goto('/schedules');
    const row = page.getByRole('row', { name: /Nightly HikariCP check/ });
    await expect(row).toBeVisible();
    const box = page.getByRole('table').locator('xpath=..');
    expect(await box.evaluate((el) => el.scrollWidth - el.clientWidth)).toBe(0);
    const del = row.getByRole('button', { name: /^Delete / });
    await expect(del).toBeInViewport();
    const [b, d] = [await box.boundingBox(), await del.boundingBox()];
    expect(d!.x + d!.width).toBeLessThanOrEqual(b!.x + b!.width);
    expect(await overflow(page)).toBe(0);
    await page.screenshot({ path: `${SHOTS}/laptop-schedules.png`, fullPage: true });
  });
});
