import { connect } from 'node:net';
import { expect, test } from '@playwright/test';

/**
 * Methods Next.js cannot route, against the real server (server.mjs in front of Next.js): TRACE
 * used to be 500 on every route (undici refuses to build a Request for it), other unknown
 * methods 400. Now 405 with Allow, the REST API's own problem+json under /api/v1. (A method
 * Node's HTTP parser does not know, such as TRACK, is 400 from the parser before any code runs.)
 */
for (const method of ['TRACE', 'PROPFIND', 'PURGE']) {
  test(`${method} is 405 with Allow on REST routes and elsewhere`, async ({ request, baseURL }) => {
    const rest = await request.fetch(`${baseURL}/api/v1/experiments/abc`, { method });
    expect(rest.status()).toBe(405);
    expect(rest.headers()['allow']).toBe('GET, OPTIONS');
    expect(rest.headers()['content-type']).toBe('application/problem+json');
    expect((await rest.json()).code).toBe('method_not_allowed');
    const other = await request.fetch(`${baseURL}/runs`, { method });
    expect(other.status()).toBe(405);
    expect(other.headers()['allow']).toContain('GET');
  });
}

// A malformed percent-escape in the path answered 500 (URIError in the route's decoding) without
// authentication; server.mjs answers it 400 before any route decodes it.
test('a malformed percent-escape is 400 on every route, signed out', async ({
  request,
  baseURL,
}) => {
  for (const path of ['/api/v1/experiments/%E0%A4%A', '/api/runs/%/data', '/api/trpc/run.get%zz'])
    expect((await request.get(`${baseURL}${path}`)).status(), path).toBe(400);
  for (const path of ['/share/%zz', '/runs/%E0%A4%A']) {
    const res = await request.get(`${baseURL}${path}`, { maxRedirects: 0 });
    expect(res.status(), path).toBe(400);
  }
});

// Node's default closed an idle keep-alive connection after 5 s, so a client (a proxy, a CI
// script, the browser) reusing one idle that long could send its request as the server closed
// it: ECONNRESET. The server keeps idle connections 65 s, past a proxy's usual 60 s.
test('a keep-alive connection idle for 6 s still serves the next request', async ({ baseURL }) => {
  test.setTimeout(30_000);
  const url = new URL(baseURL!);
  const socket = connect(Number(url.port), url.hostname);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  let received = '';
  let closed = false;
  socket.on('data', (d: Buffer) => (received += d.toString('latin1')));
  socket.on('close', () => (closed = true));
  const ask = () =>
    socket.write(`GET /api/health HTTP/1.1\r\nHost: ${url.host}\r\nConnection: keep-alive\r\n\r\n`);
  const answers = () => received.match(/^HTTP\/1\.1 \d{3}/gm)?.length ?? 0;
  try {
    ask();
    await expect.poll(answers).toBe(1);
    await new Promise((r) => setTimeout(r, 6_000));
    expect(closed).toBe(false);
    ask();
    await expect.poll(answers).toBe(2);
  } finally {
    socket.destroy();
  }
});
