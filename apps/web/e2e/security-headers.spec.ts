import { randomBytes } from 'node:crypto';
import { expect, test, type APIResponse, type Page, type Response } from '@playwright/test';
import { PASSWORD, SHOTS, signUpApi, signUpUi } from './helpers';

/**
 * Security headers on every kind of route of the real server (src/proxy.ts), and the app still
 * works under its CSP: the pages hydrate, forms submit, and Chromium reports no CSP violation.
 */

type Headers = Record<string, string>;
const headersOf = (r: Response | APIResponse | null): Headers => {
  expect(r, 'a response').not.toBeNull();
  return r!.headers();
};

function expectBaseline(h: Headers, where: string) {
  expect(h['x-content-type-options'], where).toBe('nosniff');
  expect(h['permissions-policy'], where).toContain('camera=()');
  expect(h['content-security-policy'], where).toContain("frame-ancestors 'none'");
  expect(h['x-frame-options'], where).toBe('DENY');
  // served over http here: no HSTS
  expect(h['strict-transport-security'], where).toBeUndefined();
}

/** App pages: the nonce CSP, and every script of the document carries that nonce. */
async function expectAppPage(page: Page, res: Response | null, where: string) {
  const h = headersOf(res);
  expectBaseline(h, where);
  expect(h['referrer-policy'], where).toBe('strict-origin-when-cross-origin');
  const csp = h['content-security-policy']!;
  const nonce = /'nonce-([A-Za-z0-9+/=]+)'/.exec(csp)?.[1];
  expect(nonce, `${where}: ${csp}`).toBeTruthy();
  expect(csp).toContain("'strict-dynamic'");
  expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);
  // every script the server rendered carries this response's nonce (chunks the runtime adds
  // later have none and need none: 'strict-dynamic' trusts scripts loaded by trusted ones)
  const tags = (await res!.text()).match(/<script\b[^>]*>/g) ?? [];
  expect(tags.length, where).toBeGreaterThan(0);
  for (const tag of tags) expect(tag, where).toContain(`nonce="${nonce}"`);
  // and the browser ran them: the nonce attribute is hidden from getAttribute, the property keeps it
  const nonces = await page.evaluate(() =>
    [...document.scripts].map((s) => s.nonce).filter(Boolean),
  );
  expect(new Set(nonces), where).toEqual(new Set([nonce]));
  return nonce!;
}

test('security headers on /, /sign-in, an app page, a share page and /api/*; the app works under its CSP', async ({
  page,
  baseURL,
}) => {
  const violations: string[] = [];
  page.on('console', (m) => {
    if (/Content Security Policy|Refused to (execute|load|apply|connect|frame)/i.test(m.text()))
      violations.push(m.text());
  });

  const home = await page.goto('/');
  const n1 = await expectAppPage(page, home, '/');
  const signIn = await page.goto('/sign-in');
  const n2 = await expectAppPage(page, signIn, '/sign-in');
  expect(n2, 'a fresh nonce per response').not.toBe(n1);

  // hydration, client-side forms, tRPC and the charts' inline styles work under the CSP
  await signUpUi(page, 'Csp Check');
  const runs = await page.reload();
  await expectAppPage(page, runs, '/runs');
  const settings = await page.goto('/settings');
  await expectAppPage(page, settings, '/settings');
  await expect(page.getByRole('heading', { name: /settings/i }).first()).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/security-headers-settings.png` });

  // a share page (an unknown token: the share route's own headers, no scripts, no referrer)
  const share = await page.goto(`/share/${randomBytes(32).toString('base64url')}`);
  expect(share!.status()).toBe(404);
  const sh = headersOf(share);
  expectBaseline(sh, '/share');
  expect(sh['referrer-policy']).toBe('no-referrer');
  expect(sh['content-security-policy']).toContain("default-src 'none'");
  expect(sh['x-robots-tag']).toContain('noindex');
  expect(sh['cache-control']).toBe('private, no-store');

  // API routes: JSON, problem+json and exports get the same baseline
  for (const path of [
    '/api/health',
    '/api/openapi.json',
    '/api/v1/experiments/x',
    `/api/share/${randomBytes(32).toString('base64url')}/export?format=csv`,
  ]) {
    const res = await page.request.get(path);
    const h = headersOf(res);
    expectBaseline(h, path);
    expect(h['referrer-policy'], path).toMatch(/^(strict-origin-when-cross-origin|no-referrer)$/);
  }

  // HSTS only when the request came over https (here: as a TLS-terminating proxy reports it)
  const viaTls = await page.request.get('/api/health', {
    headers: { 'x-forwarded-proto': 'https' },
  });
  expect(viaTls.headers()['strict-transport-security']).toMatch(/^max-age=\d+/);

  expect(violations, violations.join('\n')).toEqual([]);
  expect(baseURL).toBeTruthy();
});

test('sign-in ?next= cannot send the browser to another host', async ({ page, baseURL }) => {
  const email = await signUpApi(page.request, baseURL!, 'Next Check');
  await page.context().clearCookies();
  const origin = new URL(baseURL!).origin;
  for (const next of [
    '/\\evil.example/x',
    '/.//evil.example/x',
    'https:evil.example',
    '/%5Cevil.example',
  ]) {
    await page.goto(`/sign-in?next=${encodeURIComponent(next)}`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((u) => !u.pathname.startsWith('/sign-in'), { timeout: 30_000 });
    expect(new URL(page.url()).origin, next).toBe(origin);
    expect(page.url()).not.toContain('evil.example/x');
    await page.context().clearCookies();
  }
});
