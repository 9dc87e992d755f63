import { expect, test, type Browser } from '@playwright/test';
import { SHOTS, signUpApi, trpcCall } from './helpers';

async function newUser(browser: Browser, baseURL: string, name: string) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signUpApi(context.request, baseURL, name);
  return { context, page, request: context.request };
}

test("viewers cannot start runs; another team's target is not found (URL and API)", async ({
  browser,
  baseURL,
}) => {
  const base = baseURL!;
  // Team A: owner with a target, a pool config and a scenario
  const owner = await newUser(browser, base, 'Owner A');
  const target = await trpcCall(
    owner.request,
    base,
    'target.create',
    { kind: 'managed', name: 'Lab A', requestDefaults: { method: 'GET', path: '/health' } },
    'mutation',
  );
  expect(target.status, target.message).toBe(200);
  const targetA = target.data!.id as string;
  const pc = await trpcCall(
    owner.request,
    base,
    'poolConfig.create',
    { targetId: targetA, name: 'lazy', config: { strategy: 'lazy', params: {} } },
    'mutation',
  );
  const sc = await trpcCall(
    owner.request,
    base,
    'scenario.create',
    {
      name: 'burst',
      scenario: {
        template: 'sustained',
        params: { vus: 2, durationMs: 2000 },
        requests: [{ path: '/health' }],
      },
    },
    'mutation',
  );
  expect([pc.status, sc.status]).toEqual([200, 200]);

  // A viewer and a member join team A through invitation links
  const join = async (name: string, role: 'viewer' | 'member') => {
    const inv = await trpcCall(owner.request, base, 'team.invite', { role }, 'mutation');
    const u = await newUser(browser, base, name);
    await u.page.goto(`/invite/${inv.data!.token as string}`);
    await expect(u.page.getByText(`You are invited as ${role}.`)).toBeVisible();
    await u.page.getByRole('button', { name: 'Accept and join' }).click();
    await expect(u.page).toHaveURL(/\/runs$/, { timeout: 60_000 });
    return u;
  };
  const viewer = await join('Viewer A', 'viewer');
  const member = await join('Member A', 'member');

  // The viewer sees the form but no button to start, and the API refuses
  await viewer.page.goto(
    `/experiments/new?targetId=${targetA}&poolConfigIds=${pc.data!.id as string}&scenarioIds=${sc.data!.id as string}&repeats=1`,
  );
  await expect(viewer.page.getByText('Viewers cannot start runs')).toBeVisible();
  await expect(viewer.page.getByRole('button', { name: 'Run experiment' })).toHaveCount(0);
  await viewer.page.screenshot({ path: `${SHOTS}/20-viewer-experiment-form.png`, fullPage: true });
  // Before any form: member-only actions are shown disabled, with the reason on hover (title) and
  // for assistive technology (accessible description), and they lead nowhere
  const gated = async (path: string, name: string | RegExp, reason: RegExp) => {
    await viewer.page.goto(path);
    // the first of them: an empty page may offer the same action in its header and its body
    const b = viewer.page.getByRole('button', { name }).first();
    await expect(b).toHaveAttribute('aria-disabled', 'true');
    await expect(b).toHaveAccessibleDescription(reason);
    await expect(b).toHaveAttribute('title', reason);
    await expect(viewer.page.getByRole('link', { name })).toHaveCount(0);
    return b;
  };
  await gated('/runs', 'New experiment', /^Viewers cannot start experiments/);
  const newExperiment = await gated(
    '/experiments',
    'New experiment',
    /^Viewers cannot start experiments/,
  );
  // disabled, yet focusable, so keyboard users reach the reason; Enter leads nowhere
  await expect(newExperiment).toBeDisabled();
  await newExperiment.focus();
  await expect(newExperiment).toBeFocused();
  await viewer.page.keyboard.press('Enter');
  await expect(viewer.page).toHaveURL(/\/experiments$/);
  await viewer.page.screenshot({ path: `${SHOTS}/22-viewer-gated-action.png` });
  await gated('/targets', 'New target', /^Viewers cannot create targets/);
  await gated(`/targets/${targetA}`, 'Add pool config', /^Viewers cannot create pool configs/);
  await gated('/scenarios', 'New scenario', /^Viewers cannot create scenarios/);
  await gated('/schedules', 'Schedule an experiment', /^Viewers cannot schedule experiments/);
  await gated('/seeds', 'Reproduce', /^Viewers cannot start runs/);

  const launch = await trpcCall(
    viewer.request,
    base,
    'experiment.launch',
    {
      name: 'x',
      targetId: targetA,
      poolConfigIds: [pc.data!.id],
      scenarioIds: [sc.data!.id],
      repeats: 1,
    },
    'mutation',
  );
  expect(launch.status).toBe(403);
  expect(launch.code).toBe('FORBIDDEN');

  // Team B's target by id: not found for a member of team A, in the browser and over the API
  const ownerB = await newUser(browser, base, 'Owner B');
  const targetB = await trpcCall(
    ownerB.request,
    base,
    'target.create',
    { kind: 'managed', name: 'Lab B', requestDefaults: { method: 'GET', path: '/health' } },
    'mutation',
  );
  const targetBId = targetB.data!.id as string;
  const res = await member.page.goto(`/targets/${targetBId}`);
  expect(res?.status()).toBe(404);
  await expect(member.page.getByRole('heading', { name: 'Not found' })).toBeVisible();
  await expect(member.page.getByText('Lab B')).toHaveCount(0);
  await member.page.screenshot({ path: `${SHOTS}/21-cross-team-not-found.png`, fullPage: true });
  const api = await trpcCall(member.request, base, 'target.get', { id: targetBId }, 'query');
  expect(api.status).toBe(404);
  expect(api.code).toBe('NOT_FOUND');
  // and the member's own target still works
  expect(
    (await trpcCall(member.request, base, 'target.get', { id: targetA }, 'query')).status,
  ).toBe(200);

  for (const u of [owner, viewer, member, ownerB]) await u.context.close();
});
