import { createServer, type Server } from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import { generateScenario } from './generate-scenario';
import { k6Run } from './testing/k6-binary';
import { k6BlacklistFor, k6HostsFor } from '@poolbench/contracts/net';

// Real k6 against capture servers on two loopback addresses: 127.0.0.1 is the checked target,
// 127.0.0.2 is where a redirect or a second resolution would lead.
interface Capture {
  server: Server;
  hits: Array<{ path: string; headers: Record<string, string | string[] | undefined> }>;
}
const captures: Capture[] = [];
async function capture(
  host: string,
  port: number,
  redirectTo?: string,
): Promise<Capture & { port: number }> {
  const hits: Capture['hits'] = [];
  const server = createServer((req, res) => {
    hits.push({ path: req.url ?? '', headers: req.headers });
    if (redirectTo && req.url !== '/ready') {
      res.writeHead(302, { location: `${redirectTo}${req.url}` });
      res.end();
      return;
    }
    res.end('ok');
  });
  await new Promise<void>((r) => server.listen(port, host, r));
  const c = { server, hits, port: (server.address() as { port: number }).port };
  captures.push(c);
  return c;
}
afterAll(() => {
  for (const c of captures) c.server.close();
});

const fixed = {
  template: 'fixed-requests',
  params: { requests: 4, concurrency: 1 },
  requests: [{ path: '/work' }],
  readyPath: '/ready',
};

describe('k6 network options (real k6)', () => {
  it('does not follow a redirect to another address and keeps the secret header at its origin', async () => {
    const elsewhere = await capture('127.0.0.2', 0);
    const origin = await capture('127.0.0.1', 0, `http://127.0.0.2:${elsewhere.port}`);
    const g = generateScenario(fixed);
    const r = await k6Run(g.script, [`http://127.0.0.1:${origin.port}`], {
      env: { POOLBENCH_SECRET_HEADERS: JSON.stringify({ 'X-Api-Key': 'secret-1' }) },
    });
    expect(origin.hits.filter((h) => h.path === '/work')).toHaveLength(4);
    expect(elsewhere.hits).toEqual([]);
    expect(r.summary?.metrics.http_req_failed?.passes).toBe(4);
  });

  it('connects a name to the pinned address only, whatever DNS says, and sends the target headers', async () => {
    const origin = await capture('127.0.0.1', 0);
    const other = await capture('127.0.0.2', origin.port);
    const pins = [{ host: 'pinned.test', port: origin.port, address: '127.0.0.1' }];
    const g = generateScenario(fixed, {
      hosts: k6HostsFor(pins),
      targetHeaders: { 'X-Plain': 'p1' },
    });
    const r = await k6Run(g.script, [`http://pinned.test:${origin.port}`], {
      extraArgs: () => ['--blacklist-ip', k6BlacklistFor(['127.0.0.1']).join(',')],
    });
    expect(r.code, r.stderr.slice(-2000)).toBe(0);
    expect(origin.hits.filter((h) => h.path === '/work').map((h) => h.headers['x-plain'])).toEqual([
      'p1',
      'p1',
      'p1',
      'p1',
    ]);
    expect(other.hits).toEqual([]);
  });

  it('refuses any name it was not given and any address but the pinned one', async () => {
    const origin = await capture('127.0.0.1', 0);
    const other = await capture('127.0.0.2', origin.port);
    const pins = [{ host: '127.0.0.1', port: origin.port, address: '127.0.0.1' }];
    const g = generateScenario(fixed, { hosts: k6HostsFor(pins) });
    const blacklist = ['--blacklist-ip', k6BlacklistFor(['127.0.0.1']).join(',')];
    // localhost would resolve to 127.0.0.1 through DNS: not a checked name, so not reached.
    const byName = await k6Run(g.script, [`http://localhost:${origin.port}`], {
      extraArgs: () => blacklist,
    });
    expect(byName.code).not.toBe(0);
    expect(byName.stderr + byName.stdout).toMatch(/blacklist|does not answer/i);
    const neighbour = await k6Run(g.script, [`http://127.0.0.2:${origin.port}`], {
      extraArgs: () => blacklist,
    });
    expect(neighbour.code).not.toBe(0);
    expect(origin.hits).toEqual([]);
    expect(other.hits).toEqual([]);
  });
});
