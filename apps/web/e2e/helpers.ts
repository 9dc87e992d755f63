import { randomBytes } from 'node:crypto';
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { createEmailVerificationToken } from 'better-auth/api';

export const SHOTS = '../../test-results/screenshots';
export const PASSWORD = 'correct-horse-battery';

export function uniqueEmail(label: string) {
  return `${label}-${randomBytes(4).toString('hex')}@example.test`;
}

/**
 * Opens the verification link of an address in this browser context, as its owner does from the
 * mail: the link carries a token Better Auth signs with the installation's secret (the suite's
 * environment has it), so this is the product's own route without waiting for the mail.
 * `e2e/email-verification.spec.ts` follows the mailed link itself.
 */
export async function verifyEmail(request: APIRequestContext, email: string) {
  const secret = process.env.BETTER_AUTH_SECRET;
  if (!secret)
    throw new Error('BETTER_AUTH_SECRET is not set: run the browser tests as make test does');
  const token = await createEmailVerificationToken(secret, email);
  const res = await request.get(`/api/auth/verify-email?token=${encodeURIComponent(token)}`);
  expect(res.status(), await res.text()).toBe(200);
}

/**
 * Signs up through the real form; lands on the runs page of the user's new team, with the address
 * verified unless `verified` is false (an unverified account cannot launch or save targets).
 */
export async function signUpUi(
  page: Page,
  name: string,
  email = uniqueEmail(name.toLowerCase().replace(/\W+/g, '-')),
  { verified = true }: { verified?: boolean } = {},
) {
  await page.goto('/sign-up');
  await page.getByLabel('Name').fill(name);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page).toHaveURL(/\/runs$/);
  if (verified) await verifyEmail(page.request, email);
  return email;
}

/**
 * Signs up over HTTP (cookies stay in the request context, which shares them with its page), the
 * address verified unless `verified` is false.
 */
export async function signUpApi(
  request: APIRequestContext,
  baseURL: string,
  name: string,
  { verified = true }: { verified?: boolean } = {},
) {
  const email = uniqueEmail(name.toLowerCase().replace(/\W+/g, '-'));
  const res = await request.post('/api/auth/sign-up/email', {
    data: { name, email, password: PASSWORD },
    headers: { origin: baseURL },
  });
  expect(res.status(), await res.text()).toBe(200);
  if (verified) await verifyEmail(request, email);
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

/**
 * Tables whose headings a browser cannot pair with their cells by itself say it: in a table with a
 * heading over several columns or rows, or more than one heading row, every heading has a `scope`,
 * and a heading over several columns (`scope="colgroup"`) starts a `<colgroup>` of exactly its
 * width. (In a simple table, one heading row over one column each, the browser infers the columns;
 * scope is left to the markup there.) Fails naming each heading that does not.
 */
export async function expectScopedHeadings(page: Page) {
  const problems = await page.locator('table').evaluateAll((tables) =>
    tables.flatMap((table, t) => {
      const out: string[] = [];
      const name = (th: Element) => `table ${t}, heading "${th.textContent?.trim() ?? ''}"`;
      const heads = [...table.querySelectorAll('th')] as HTMLTableCellElement[];
      const complex =
        table.querySelectorAll('thead tr').length > 1 ||
        heads.some((th) => th.colSpan > 1 || th.rowSpan > 1);
      if (!complex) return out;
      // where each colgroup starts, and its width
      const groups = new Map<number, number>();
      let at = 0;
      for (const g of table.querySelectorAll(':scope > colgroup')) {
        const span = Number(g.getAttribute('span') ?? 1);
        groups.set(at, span);
        at += span;
      }
      for (const th of heads) {
        const scope = th.getAttribute('scope');
        if (!scope) out.push(`${name(th)} has no scope`);
        if (scope !== 'colgroup') continue;
        let start = 0;
        for (let c = th.previousElementSibling; c; c = c.previousElementSibling)
          start += (c as HTMLTableCellElement).colSpan;
        if (groups.get(start) !== th.colSpan)
          out.push(
            `${name(th)} heads columns ${start}..${start + th.colSpan - 1}, no colgroup of them`,
          );
      }
      return out;
    }),
  );
  expect(problems, problems.join('\n')).toEqual([]);
}
