import { expect, test, type Page } from '@playwright/test';
import { nav, PASSWORD, signUpApi, SHOTS, trpcOk } from './helpers';

// Who is signed in, or which team is active, changes only with a new document: nothing the tab
// held for the previous identity or team (router cache, query cache, any script state) survives,
// and the next page is rendered once, on the server, with the new session.

/** Leaves a mark in the tab's script state; a new document does not have it. */
const mark = (page: Page) =>
  page.evaluate(() => ((window as unknown as { __pbMark?: number }).__pbMark = 1));
const marked = (page: Page) =>
  page.evaluate(() => (window as unknown as { __pbMark?: number }).__pbMark === 1);

test('a team switch, sign-out and sign-in each open a new document with the new session', async ({
  page,
  baseURL,
}) => {
  const email = await signUpApi(page.request, baseURL!, 'Session Change');
  const call = trpcOk(page.request, baseURL!);
  const first = (await call('team.me', undefined, 'query')) as unknown as {
    active: { id: string; name: string };
  };
  await call('target.create', {
    kind: 'managed',
    name: 'only-in-the-first-team',
    requestDefaults: { method: 'GET', path: '/health' },
  });
  // creating a team makes it the active one
  await call('team.create', { name: 'Second team' });

  await page.goto('/targets');
  await expect(page.getByRole('heading', { level: 1, name: 'Targets' })).toBeVisible();
  await expect(page.getByText('only-in-the-first-team')).toHaveCount(0);
  await mark(page);
  await page.locator('#team-switcher').selectOption(first.active.id);
  await expect(page).toHaveURL(/\/runs$/);
  await expect(page.locator('#team-switcher')).toHaveValue(first.active.id);
  expect(await marked(page)).toBe(false);
  await nav(page, 'Targets');
  await expect(page.getByText('only-in-the-first-team')).toBeVisible();

  await mark(page);
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/sign-in$/);
  expect(await marked(page)).toBe(false);
  // the server agrees: a signed-in page sends the tab back to sign-in
  await page.goto('/targets');
  await expect(page).toHaveURL(/\/sign-in/);

  await page.goto('/sign-in');
  await mark(page);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/runs$/);
  expect(await marked(page)).toBe(false);
  // a click right after signing in is not queued behind a second render of the page
  await nav(page, 'Targets');
  await expect(page.getByText('only-in-the-first-team')).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/session-change-signed-in-again.png`, fullPage: true });
});
