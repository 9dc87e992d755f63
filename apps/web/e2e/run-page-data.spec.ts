import { get as httpGet } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { expect, test } from '@playwright/test';
import superjson from 'superjson';
import { SHOTS, signUpApi, trpcOk } from './helpers';
import { closeE2eDb, twoFinishedRuns } from './synthetic';

/**
 * The page-data routes: /api/runs/[id]/data (the run and its chart series) and /api/compare/data
 * (the compare view), finished results as the same bytes under a strong ETag (304 on
 * revalidation), authorized like every procedure; and the run page itself, which draws a
 * finished run from it without opening a live event stream.
 */
test.afterAll(closeE2eDb);

test('a finished run page and a comparison load in one request each, revalidate to 304, and open no live stream', async ({
  page,
  browser,
  baseURL,
}) => {
  const email = await signUpApi(page.request, baseURL!, 'Run Page Data');
  const call = trpcOk(page.request, baseURL!);
  const [run, run2] = await twoFinishedRuns(call, email, 'Run page data', 12);
  const url = `/api/runs/${run}/data`;

  const first = await page.request.get(url, { headers: { 'Accept-Encoding': 'gzip' } });
  expect(first.status()).toBe(200);
  const etag = first.headers()['etag']!;
  expect(etag).toMatch(/^"[\w-]+"$/);
  expect(first.headers()['cache-control']).toBe('private, no-cache, no-transform');
  // on the wire: one layer of gzip over the JSON (Next.js must not compress it a second time)
  const cookie = (await page.context().cookies()).map((c) => `${c.name}=${c.value}`).join('; ');
  const raw = await new Promise<{ encoding?: string; body: Buffer }>((resolve, reject) =>
    httpGet(new URL(url, baseURL), { headers: { cookie, 'accept-encoding': 'gzip' } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ encoding: res.headers['content-encoding'], body: Buffer.concat(chunks) }),
      );
    }).on('error', reject),
  );
  expect(raw.encoding).toBe('gzip');
  expect(JSON.parse(gunzipSync(raw.body).toString('utf8'))).toHaveProperty('json.run.id', run);
  const body = superjson.deserialize<{
    run: { id: string; status: string };
    series: { points: unknown[] };
  }>(await first.json());
  expect(body.run).toMatchObject({ id: run, status: 'succeeded' });
  expect(body.series.points).toHaveLength(12);

  const again = await page.request.get(url, { headers: { 'If-None-Match': etag } });
  expect(again.status()).toBe(304);
  expect(await again.body()).toHaveLength(0);

  const bad = await page.request.get(`${url}?maxPoints=5`);
  expect(bad.status()).toBe(400);
  expect(await bad.json()).toMatchObject({ detail: expect.stringMatching(/^maxPoints: /) });

  // the compare view's data, by the compare page's own query string
  const compare = `/api/compare/data?items=r.${run},r.${run2}`;
  const cmp = await page.request.get(compare);
  expect(cmp.status()).toBe(200);
  const cmpTag = cmp.headers()['etag']!;
  expect(superjson.deserialize<{ groups: unknown[] }>(await cmp.json()).groups).toHaveLength(2);
  expect((await page.request.get(compare, { headers: { 'If-None-Match': cmpTag } })).status()).toBe(
    304,
  );
  const one = await page.request.get(`/api/compare/data?items=r.${run}`);
  expect(one.status()).toBe(400);
  expect(await one.json()).toMatchObject({ detail: 'items: pick at least 2 runs or cells' });

  // signed out: 401; another team's member: 404, the same as an id that does not exist
  const outsider = await browser.newContext({ baseURL });
  expect((await outsider.request.get(url)).status()).toBe(401);
  await signUpApi(outsider.request, baseURL!, 'Other Team');
  expect((await outsider.request.get(url)).status()).toBe(404);
  expect((await outsider.request.get('/api/runs/nosuchrun/data')).status()).toBe(404);
  expect((await outsider.request.get(compare)).status()).toBe(404);
  await outsider.close();

  const streams: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/events')) streams.push(r.url());
  });
  const loaded = page.waitForResponse((r) => r.url().endsWith(url));
  await page.goto(`/runs/${run}`);
  await loaded;
  await expect(page.getByTestId('run-summary')).toBeVisible();
  const throughput = page.getByTestId('chart-throughput');
  await expect(throughput.locator('.recharts-line')).toHaveCount(2, { timeout: 30_000 });
  expect(streams).toEqual([]);
  await page.screenshot({ path: `${SHOTS}/run-page-data-finished.png`, fullPage: true });
});
