import { randomBytes } from 'node:crypto';
import { expect, type APIRequestContext, type Page } from '@playwright/test';

export const SHOTS = '../../test-results/screenshots';
export const PASSWORD = 'correct-horse-battery';

export function uniqueEmail(label: string) {
  return `${label}-${randomBytes(4).toString('hex')}@example.test`;
}

/** Signs up through the real form; lands on the runs page of the user's new team. */
export async function signUpUi(
  page: Page,
  name: string,
  email = uniqueEmail(name.toLowerCase().replace(/\W+/g, '-')),
) {
  await page.goto('/sign-up');
  await page.getByLabel('Name').fill(name);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page).toHaveURL(/\/runs$/);
  return email;
}

/** Signs up over HTTP (cookies stay in the request context, which shares them with its page). */
export async function signUpApi(request: APIRequestContext, baseURL: string, name: string) {
  const email = uniqueEmail(name.toLowerCase().replace(/\W+/g, '-'));
  const res = await request.post('/api/auth/sign-up/email', {
    data: { name, email, password: PASSWORD },
    headers: { origin: baseURL },
  });
  expect(res.status(), await res.text()).toBe(200);
  return email;
}

/** Calls a tRPC procedure over HTTP the way the browser client does (superjson envelope). */
export async function trpcCall(
  request: APIRequestContext,
  baseURL: string,
  path: string,
  input: unknown,
  kind: 'query' | 'mutation',
) {
  const res =
    kind === 'query'
      ? await request.get(
          `/api/trpc/${path}?input=${encodeURIComponent(JSON.stringify({ json: input }))}`,
        )
      : await request.post(`/api/trpc/${path}`, {
          data: { json: input },
          headers: { origin: baseURL },
        });
  const body = (await res.json()) as {
    result?: { data?: { json?: unknown } };
    error?: { json?: { data?: { code?: string }; message?: string } };
  };
  return {
    status: res.status(),
    data: body.result?.data?.json as Record<string, unknown> | undefined,
    code: body.error?.json?.data?.code,
    message: body.error?.json?.message,
  };
}

/** A tRPC caller that expects success (status 200) and returns the procedure's data. */
export function trpcOk(request: APIRequestContext, baseURL: string) {
  return async (path: string, input: unknown, kind: 'query' | 'mutation' = 'mutation') => {
    const r = await trpcCall(request, baseURL, path, input, kind);
    expect(r.status, `${path}: ${r.message ?? ''}`).toBe(200);
    return r.data as Record<string, unknown> & { id: string };
  };
}

/** Clicks an entry of the sidebar (not a breadcrumb or an in-page link of the same name). */
export async function nav(page: Page, label: string) {
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: label, exact: true })
    .click();
  await expect(page).toHaveURL(new RegExp(`/${label.toLowerCase()}$`));
}
