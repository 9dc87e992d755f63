import { expect, test, type APIRequestContext, type APIResponse } from '@playwright/test';
import { FAST_PATH_TIMING } from '../src/server/services/cache/page-bytes-response';
import { SHOTS, signUpApi, trpcOk } from './helpers';
import { closeE2eDb, e2eDb, twoFinishedRuns } from './synthetic';

/**
 * server.mjs's fast path: once a web process has decided a request for a finished run's page
 * data, a comparison or a share page (the session, the team, the page), the same request within
 * the authorization bound (2 s) is answered from memory without Next.js. Its answers must be
 * Next.js's own (status, bytes, ETag, security headers), it must never answer what Next.js would
 * refuse, and every revocation must reach it: at once in the process that made it, and over Redis
 * in the others.
 */
test.afterAll(closeE2eDb);

const BOUND_MS = 2000;
const fromMemory = (r: APIResponse) => r.headers()['server-timing'] === FAST_PATH_TIMING;

/** Requests `url` until an answer comes from memory (each web process warms within a few). */
async function untilFromMemory(request: APIRequestContext, url: string, headers = {}) {
  for (let i = 0; i < 40; i++) {
    const r = await request.get(url, { headers });
    if (fromMemory(r)) return r;
  }
  throw new Error(`${url}: never answered from memory`);
}

/** Requests `url` until `refused` holds; returns how long that took after `since`. */
async function refusedAfter(
  request: APIRequestContext,
  url: string,
  refused: (r: APIResponse) => boolean,
  since: number,
) {
  for (;;) {
    const r = await request.get(url);
    if (refused(r)) return Date.now() - since;
    if (Date.now() - since > BOUND_MS * 5) throw new Error(`${url}: still answered ${r.status()}`);
  }
}

const SAME_HEADERS = [
  'content-type',
  'content-encoding',
  'cache-control',
  'etag',
  'referrer-policy',
  'x-content-type-options',
  'x-frame-options',
  'x-robots-tag',
  'permissions-policy',
  'cross-origin-opener-policy',
  'strict-transport-security',
];
const csp = (r: APIResponse) =>
  (r.headers()['content-security-policy'] ?? '').replace(/'nonce-[^']+'/, "'nonce-?'");

test('repeated requests are answered from memory as Next.js answers them, and revocation reaches them', async ({
  page,
  browser,
  baseURL,
  playwright,
}) => {
  const owner = page.request;
  const email = await signUpApi(owner, baseURL!, 'Fast Path Owner');
  const call = trpcOk(owner, baseURL!);
  const [run, run2] = await twoFinishedRuns(call, email, 'Fast path', 10);
  const link = (await call('shareLink.create', {
    target: { kind: 'run', runId: run },
    title: 'fast path',
  })) as unknown as { id: string; token: string };
  const runUrl = `/api/runs/${run}/data`;
  const compareUrl = `/api/compare/data?items=r.${run},r.${run2}`;
  const shareUrl = `/share/${link.token}`;

  await test.step('the answer from memory is the one Next.js gives', async () => {
    for (const url of [runUrl, compareUrl, shareUrl]) {
      const gzip = { 'Accept-Encoding': 'gzip' };
      const first = await owner.get(url, { headers: gzip });
      expect(first.status(), url).toBe(200);
      expect(fromMemory(first), `${url}: the first request is Next.js's`).toBe(false);
      // kept by the browser only to revalidate it: every view asks again, with the ETag
      expect(first.headers()['cache-control'], url).toMatch(/^private, no-cache(, no-transform)?$/);
      const fast = await untilFromMemory(owner, url, gzip);
      expect(fast.status()).toBe(200);
      expect(await fast.body()).toEqual(await first.body());
      for (const h of SAME_HEADERS)
        expect(fast.headers()[h], `${url}: ${h}`).toBe(first.headers()[h]);
      expect(csp(fast)).toBe(csp(first));
      expect(fast.headers()['content-encoding']).toBe('gzip');
      // revalidation: 304 without the body, from memory too
      const again = await untilFromMemory(owner, url, {
        'If-None-Match': first.headers()['etag']!,
      });
      expect(again.status()).toBe(304);
      expect(await again.body()).toHaveLength(0);
      // a client that does not take gzip gets the same JSON or HTML uncompressed
      const plain = await untilFromMemory(owner, url, { 'Accept-Encoding': 'identity' });
      expect(plain.headers()['content-encoding']).toBeUndefined();
      expect(await plain.body()).toEqual(await first.body());
    }
  });

  await test.step('what Next.js would refuse is never answered from memory', async () => {
    await untilFromMemory(owner, runUrl);
    const outsider = await browser.newContext({ baseURL });
    // signed out, then signed in to another team: 401, then 404 as for an unknown id
    for (const url of [runUrl, compareUrl]) {
      const r = await outsider.request.get(url);
      expect([r.status(), fromMemory(r)]).toEqual([401, false]);
    }
    await signUpApi(outsider.request, baseURL!, 'Fast Path Outsider');
    for (const url of [runUrl, compareUrl]) {
      const r = await outsider.request.get(url);
      expect([r.status(), fromMemory(r)]).toEqual([404, false]);
    }
    // a cookie that is no session
    const forged = await owner.get(runUrl, {
      headers: { cookie: 'better-auth.session_token=forged.value' },
    });
    expect([forged.status(), fromMemory(forged)]).toEqual([401, false]);
    await outsider.close();
    // other methods, another spelling of the path, a bad parameter: Next.js decides
    const head = await owner.head(runUrl);
    expect([head.status(), fromMemory(head)]).toEqual([200, false]);
    const slash = await owner.get(`${runUrl}/`, { maxRedirects: 0 });
    expect(fromMemory(slash)).toBe(false);
    const bad = await owner.get(`${runUrl}?maxPoints=5`);
    expect([bad.status(), fromMemory(bad)]).toEqual([400, false]);
    const wrongToken = await owner.get(`${shareUrl}x`);
    expect([wrongToken.status(), fromMemory(wrongToken)]).toEqual([404, false]);
  });

  await test.step('a change made through the product shows at once', async () => {
    const before = await untilFromMemory(owner, runUrl);
    await call('run.updateNotes', { id: run, notes: 'warmed by hand' });
    // every request after it, not only one sent to renew the kept page
    for (let i = 0; i < 5; i++) {
      const after = await owner.get(runUrl);
      expect(after.headers()['etag']).not.toBe(before.headers()['etag']);
      expect(await after.text()).toContain('warmed by hand');
    }
  });

  await test.step('a removed member and a revoked share link are refused within the bound', async () => {
    const inv = (await call('team.invite', { role: 'viewer' })) as unknown as { token: string };
    const viewer = await browser.newContext({ baseURL });
    await signUpApi(viewer.request, baseURL!, 'Fast Path Viewer');
    await trpcOk(viewer.request, baseURL!)('team.acceptInvitation', { token: inv.token });
    await untilFromMemory(viewer.request, runUrl);
    const members = (await call('team.members', {}, 'query')) as unknown as {
      membershipId: string;
      email: string;
      role: string;
    }[];
    const them = members.find((m) => m.role === 'viewer')!;
    const removedAt = Date.now();
    await call('team.removeMember', { membershipId: them.membershipId });
    const removal = await refusedAfter(
      viewer.request,
      runUrl,
      (r) => r.status() === 404,
      removedAt,
    );
    expect(removal).toBeLessThanOrEqual(BOUND_MS);

    await untilFromMemory(owner, shareUrl);
    const revokedAt = Date.now();
    await call('shareLink.revoke', { id: link.id });
    const revocation = await refusedAfter(owner, shareUrl, (r) => r.status() === 404, revokedAt);
    expect(revocation).toBeLessThanOrEqual(BOUND_MS);

    await viewer.close();
  });

  await test.step('signing out ends the session behind its cookie at once', async () => {
    const cookie = (await page.context().cookies()).map((c) => `${c.name}=${c.value}`).join('; ');
    const bare = await playwright.request.newContext({ baseURL });
    await untilFromMemory(bare, runUrl, { cookie });
    const signedOutAt = Date.now();
    const out = await owner.post('/api/auth/sign-out', { headers: { origin: baseURL! }, data: {} });
    expect(out.ok()).toBe(true);
    const after = await bare.get(runUrl, { headers: { cookie } });
    expect([after.status(), fromMemory(after)]).toEqual([401, false]);
    expect(Date.now() - signedOutAt).toBeLessThanOrEqual(BOUND_MS);
    await bare.dispose();
  });
});

const nonceOf = (r: APIResponse) =>
  /'nonce-([^']+)'/.exec(r.headers()['content-security-policy'] ?? '')?.[1] ?? '';
const noncesIn = (html: string) => new Set([...html.matchAll(/nonce="([^"]+)"/g)].map((m) => m[1]));

test('the run, experiment and compare pages a session just got are answered from memory, each with its own nonce', async ({
  page,
  browser,
  baseURL,
}) => {
  const owner = page.request;
  const email = await signUpApi(owner, baseURL!, 'Shell Owner');
  const call = trpcOk(owner, baseURL!);
  const [run, run2] = await twoFinishedRuns(call, email, 'Shell pages', 10);
  const { experimentId } = await e2eDb().run.findUniqueOrThrow({
    where: { id: run },
    select: { experimentId: true },
  });
  const pages = [
    { url: `/runs/${run}`, shows: () => page.getByTestId('run-status').first() },
    { url: `/experiments/${experimentId}`, shows: () => page.getByTestId('matrix-run').first() },
    {
      url: `/compare?items=r.${run},r.${run2}`,
      shows: () => page.getByTestId('comparison-table'),
    },
  ];

  await test.step('the same HTML with a fresh nonce in its policy and in every script', async () => {
    for (const { url } of pages) {
      const first = await owner.get(url);
      expect(first.status(), url).toBe(200);
      expect(fromMemory(first), `${url}: the first request is Next.js's`).toBe(false);
      const fast = await untilFromMemory(owner, url);
      expect(fast.status()).toBe(200);
      expect(fast.headers()['content-type']).toBe(first.headers()['content-type']);
      for (const h of SAME_HEADERS.filter((x) => x !== 'content-encoding' && x !== 'etag'))
        expect(fast.headers()[h], `${url}: ${h}`).toBe(first.headers()[h]);
      expect(csp(fast)).toBe(csp(first));
      // Two answers of one kept render differ in their nonce alone. A request in the bound's last
      // quarter renews the kept page with a new render, whose streamed parts may come in another
      // order, so a pair that straddled a renewal (a slow, busy machine) is taken again.
      let same = false;
      for (let i = 0; i < 5 && !same; i++) {
        const [a, b] = [await untilFromMemory(owner, url), await untilFromMemory(owner, url)];
        const [html, again] = [await a.text(), await b.text()];
        expect(noncesIn(html), url).toEqual(new Set([nonceOf(a)]));
        expect(noncesIn(again), url).toEqual(new Set([nonceOf(b)]));
        expect(nonceOf(b)).not.toBe(nonceOf(a));
        same = again === html.split(nonceOf(a)).join(nonceOf(b));
      }
      expect(same, `${url}: two answers of one render differ in their nonce alone`).toBe(true);
      // a crowd on this page alone renews what its answers rest on: still answered from memory
      // past the bound, with no other request of the session to decide its team meanwhile
      const end = Date.now() + 2 * BOUND_MS;
      let late = 0;
      while (Date.now() < end) {
        const r = await owner.get(url);
        if (Date.now() > end - BOUND_MS / 2 && fromMemory(r)) late++;
      }
      expect(late, `${url}: answered from memory past the bound`).toBeGreaterThan(0);
    }
  });

  await test.step('Chromium runs the page from memory: its scripts load its data', async () => {
    const refused: string[] = [];
    page.on('console', (m) => {
      if (/Content Security Policy|Refused to/i.test(m.text())) refused.push(m.text());
    });
    for (const { url, shows } of pages) {
      let doc = await page.goto(url);
      for (let i = 0; i < 40 && doc && doc.headers()['server-timing'] !== FAST_PATH_TIMING; i++)
        doc = await page.goto(url);
      expect(doc?.headers()['server-timing'], `${url}: the document from memory`).toBe(
        FAST_PATH_TIMING,
      );
      await expect(shows()).toBeVisible({ timeout: 30_000 });
    }
    expect(refused).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/fast-path-compare-from-memory.png`, fullPage: true });
  });

  await test.step('what Next.js would answer otherwise is never answered from memory', async () => {
    const url = pages[0]!.url;
    await untilFromMemory(owner, url);
    // a client-side navigation's Server Component payload depends on the router's state
    const rsc = await owner.get(url, { headers: { rsc: '1' } });
    expect(fromMemory(rsc)).toBe(false);
    const outsider = await browser.newContext({ baseURL });
    const signedOut = await outsider.request.get(url, { maxRedirects: 0 });
    expect([signedOut.status(), fromMemory(signedOut)]).toEqual([307, false]);
    await signUpApi(outsider.request, baseURL!, 'Shell Outsider');
    for (const { url: u } of pages.slice(0, 2)) {
      const r = await outsider.request.get(u);
      expect([r.status(), fromMemory(r)], u).toEqual([404, false]);
    }
    await outsider.close();
  });

  await test.step('a removed member is refused within the bound', async () => {
    const inv = (await call('team.invite', { role: 'viewer' })) as unknown as { token: string };
    const viewer = await browser.newContext({ baseURL });
    await signUpApi(viewer.request, baseURL!, 'Shell Viewer');
    await trpcOk(viewer.request, baseURL!)('team.acceptInvitation', { token: inv.token });
    const url = pages[1]!.url;
    await untilFromMemory(viewer.request, url);
    const members = (await call('team.members', {}, 'query')) as unknown as {
      membershipId: string;
      role: string;
    }[];
    const removedAt = Date.now();
    await call('team.removeMember', {
      membershipId: members.find((m) => m.role === 'viewer')!.membershipId,
    });
    const removal = await refusedAfter(viewer.request, url, (r) => r.status() === 404, removedAt);
    expect(removal).toBeLessThanOrEqual(BOUND_MS);
    const after = await viewer.request.get(url);
    expect([after.status(), fromMemory(after)]).toEqual([404, false]);
    await viewer.close();
  });
});
