import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { expectScopedHeadings, SHOTS, signUpUi, trpcOk } from './helpers';

/**
 * axe on the pages a new user meets first: no serious or critical violation on any of them.
 * Moderate and minor findings are left to review; a failure lists each rule with its elements.
 */
// the narrowest desktop the app is laid out for: lists must fit without horizontal scrolling
test.use({ viewport: { width: 1280, height: 800 } });

test('a new user meets no serious or critical accessibility violations on the main pages, at 1280 and 390 px', async ({
  page,
  browser,
  baseURL,
}) => {
  await signUpUi(page, 'Axe Owner');
  const call = trpcOk(page.request, baseURL!);
  const target = await call('target.create', {
    kind: 'managed',
    name: 'Lab',
    requestDefaults: { method: 'GET', path: '/work', query: { ms: '5' } },
  });
  const configs = [];
  for (const [name, strategy] of [
    ['open/close per request', 'per-request'],
    ['shared pool (max 20, min 5)', 'fixed'],
  ] as const)
    configs.push(
      await call('poolConfig.create', {
        targetId: target.id,
        name,
        config: { strategy, params: {} },
      }),
    );
  const scenario = await call('scenario.create', {
    name: 'short steady load',
    scenario: {
      template: 'sustained',
      params: { vus: 1, durationMs: 1000 },
      requests: [{ path: '/work', query: { ms: 1 } }],
    },
  });
  // an experiment with a long name, so the list has a row as wide as real ones
  await call('experiment.launch', {
    name: 'Seed 004 at scale 0.1: connection per request vs shared pool, ab -c 100 (nightly check)',
    targetId: target.id,
    poolConfigIds: configs.map((c) => c.id),
    scenarioIds: [scenario.id],
    repeats: 1,
  });
  const pages: Array<[string, string]> = [
    ['/runs', 'Runs'],
    ['/getting-started', 'Get started'],
    ['/experiments', 'Experiments'],
    ['/experiments/new', 'New experiment'],
    ['/targets', 'Targets'],
    [`/targets/${target.id as string}`, 'Lab'],
    ['/targets/new', 'New target'],
    ['/settings', 'Settings'],
    ['/schedules', 'Schedules'],
    ['/trends', 'Trends'],
    ['/seeds', 'Seeds'],
  ];
  const found: string[] = [];
  const axe = async (p: Page, path: string, heading: string, where: string) => {
    await p.goto(path);
    await expect(p.getByRole('heading', { level: 1, name: heading })).toBeVisible();
    // the page's own data has arrived: no loading skeletons left
    await expect(p.locator('[aria-busy="true"]')).toHaveCount(0);
    await expectScopedHeadings(p);
    const result = await new AxeBuilder({ page: p }).analyze();
    for (const v of result.violations) {
      if (v.impact !== 'serious' && v.impact !== 'critical') continue;
      found.push(
        `${path} at ${where}: ${v.id} (${v.impact}) ${v.help}\n    ${v.nodes
          .slice(0, 5)
          .map((n) => `${n.target.join(' ')}: ${n.any[0]?.message ?? n.failureSummary ?? ''}`)
          .join('\n    ')}`,
      );
    }
  };
  for (const [path, heading] of pages) await axe(page, path, heading, '1280 px');
  // the same pages on a phone, where the sidebar is a drawer and tables scroll in their own box,
  // and the pages a new user meets signed out
  await page.setViewportSize({ width: 390, height: 844 });
  for (const [path, heading] of pages) await axe(page, path, heading, '390 px');
  const signedOut = await (
    await browser.newContext({ viewport: { width: 390, height: 844 } })
  ).newPage();
  const signedOutPages: Array<[string, string]> = [
    ['/sign-up', 'Create your account'],
    ['/sign-in', 'Sign in to PoolBench'],
  ];
  for (const [path, heading] of signedOutPages)
    await axe(signedOut, path, heading, '390 px, signed out');
  await signedOut.context().close();
  await page.setViewportSize({ width: 1280, height: 800 });

  // the experiments list fits 1280 px: every column, Created included, without scrolling
  await page.goto('/experiments');
  const table = page.getByRole('table');
  await expect(table.getByRole('row')).toHaveCount(2);
  const scroll = await table.evaluate((t) => {
    const box = t.parentElement!;
    return { scrollWidth: box.scrollWidth, clientWidth: box.clientWidth };
  });
  expect(scroll.scrollWidth).toBeLessThanOrEqual(scroll.clientWidth);
  await expect(table.getByRole('columnheader', { name: 'Created' })).toBeInViewport();
  await page.screenshot({ path: `${SHOTS}/a11y-01-experiments-1280.png` });

  // the spinner and the pulse the app draws move only for a visitor who did not ask for less
  // motion (prefers-reduced-motion; the components use them only as motion-safe: classes)
  const animations = () =>
    page.evaluate(() =>
      ['motion-safe:animate-spin', 'motion-safe:animate-pulse'].map((c) => {
        const el = document.body.appendChild(document.createElement('div'));
        el.className = c;
        const name = getComputedStyle(el).animationName;
        el.remove();
        return name;
      }),
    );
  expect(await animations()).toEqual(['spin', 'pulse']);
  await page.emulateMedia({ reducedMotion: 'reduce' });
  expect(await animations()).toEqual(['none', 'none']);
  await page.emulateMedia({ reducedMotion: null });
  expect(found, found.join('\n')).toEqual([]);
});
