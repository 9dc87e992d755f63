import { parseRun } from '@poolbench/db';
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import { sealSecret } from '@poolbench/db';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createWorld, settle, stopChild, sustained, type World } from './harness';

const KEY = randomBytes(32);
const SECRET = 'k-netsec-secret-42';

interface Capture {
  port: number;
  hits: Array<{ method: string; url: string; key: string }>;
  server: Server;
}
const servers: Server[] = [];
/** A stub third-party HTTP service on a loopback address that records what reaches it. */
async function capture(
  host: string,
  port: number,
  handle: (req: IncomingMessage, res: ServerResponse) => void = (_q, r) => r.end('ok'),
): Promise<Capture> {
  const hits: Capture['hits'] = [];
  const server = createServer((req, res) => {
    hits.push({
      method: req.method ?? '',
      url: req.url ?? '',
      key: String(req.headers['x-api-key'] ?? ''),
    });
    req.resume();
    req.on('end', () => handle(req, res));
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((r) => server.listen(port, host, r));
  servers.push(server);
  return { port: (server.address() as { port: number }).port, hits, server };
}

describe('worker: where load and probes may go', () => {
  let w: World;
  let plainWorker: ChildProcess;
  beforeAll(async () => {
    w = await createWorld('netsec');
    await w.db.allowedHost.create({
      data: { teamId: w.ids.teamId, pattern: '127.0.0.1', createdById: w.ids.userId },
    });
  });
  beforeEach(() => {
    plainWorker = w.startWorker({ POOLBENCH_SECRET_KEY: KEY.toString('base64') });
  });
  afterEach(async () => {
    await settle('network policy test', [
      ['workers', () => w.killWorkers()],
      [
        'stub servers',
        async () => {
          for (const s of servers.splice(0)) {
            s.closeAllConnections();
            s.close();
          }
        },
      ],
    ]);
  });
  afterAll(async () => w?.dispose(), 120_000);

  async function urlTarget(
    name: string,
    data: {
      baseUrls: string[];
      readinessPath?: string;
      applyHookUrl?: string;
      secrets?: { headers?: Record<string, string>; monitorDsn?: string };
    },
  ) {
    const t = await w.db.target.create({
      data: {
        teamId: w.ids.teamId,
        name,
        kind: 'url',
        baseUrls: data.baseUrls,
        requestDefaults: {},
        readinessPath: data.readinessPath ?? null,
        applyHookUrl: data.applyHookUrl ?? null,
        secretHeaderNames: Object.keys(data.secrets?.headers ?? {}),
        secretsEncrypted: data.secrets ? sealSecret(data.secrets, KEY) : null,
        hasMonitorDsn: Boolean(data.secrets?.monitorDsn),
      },
    });
    const pc = await w.db.poolConfig.create({
      data: {
        teamId: w.ids.teamId,
        targetId: t.id,
        name: `${name} pc`,
        strategy: 'lazy',
        params: { maxConns: 4 },
      },
    });
    const sc = await w.scenario(`${name} 2 s`, {
      ...sustained(1, 2000),
      readyPath: data.readinessPath ?? '/ready',
    });
    const { runIds } = await w.launch([pc.id], [sc.id], 1, t.id);
    return w.waitForStatus(runIds[0]!, ['succeeded', 'failed']);
  }

  it('neither the readiness probe nor k6 follows a redirect off the checked address, so the secret header stays at its origin', async () => {
    const elsewhere = await capture('127.0.0.2', 0);
    const away = `http://127.0.0.2:${elsewhere.port}`;
    const readyRedirects = await capture('127.0.0.1', 0, (req, res) => {
      res.writeHead(302, { location: `${away}${req.url}` }).end();
    });
    const loadRedirects = await capture('127.0.0.1', 0, (req, res) => {
      if (req.url === '/ready') return void res.end('ok');
      res
        .writeHead(302, {
          location: req.url?.includes('x')
            ? `http://localhost:${elsewhere.port}/`
            : `${away}${req.url}`,
        })
        .end();
    });
    const probe = await urlTarget('ready-redirect', {
      baseUrls: [`http://127.0.0.1:${readyRedirects.port}`],
      readinessPath: '/ready',
      secrets: { headers: { 'X-Api-Key': SECRET } },
    });
    expect(probe.status).toBe('failed');
    expect(probe.errorCode).toBe('target_not_ready');
    expect(probe.errorMessage).toMatch(
      /HTTP 302 redirecting to http:\/\/127\.0\.0\.2:\d+\/ready; PoolBench does not follow redirects/,
    );

    const load = await urlTarget('load-redirect', {
      baseUrls: [`http://127.0.0.1:${loadRedirects.port}`],
      readinessPath: '/ready',
      secrets: { headers: { 'X-Api-Key': SECRET } },
    });
    expect(load.status, `${load.errorCode}: ${load.errorMessage}`).toBe('succeeded');
    expect(loadRedirects.hits.filter((h) => h.url === '/health').length).toBeGreaterThan(5);
    expect(parseRun(load).summary?.errorRate ?? 1).toBeGreaterThan(0.99);
    expect(elsewhere.hits).toEqual([]);
  });

  it('an allowlist entry saved before the installation opened its range reaches nothing until an installation admin opens it', async () => {
    const target = await capture('127.0.0.1', 0);
    const opened = await w.db.installationRange.findMany();
    await w.db.installationRange.deleteMany();
    try {
      // the team's entry for 127.0.0.1 is still there (saved in beforeAll, as before the change)
      const run = await urlTarget('not-opened', {
        baseUrls: [`http://127.0.0.1:${target.port}`],
        readinessPath: '/ready',
      });
      expect(run.status).toBe('failed');
      expect(run.errorCode).toBe('target_not_allowed');
      expect(run.errorMessage).toMatch(
        /^load to 127\.0\.0\.1 \(127\.0\.0\.1\) is not allowed: 127\.0\.0\.1 is a loopback address outside every range this installation opened to teams; an installation admin can open one/,
      );
      expect(target.hits).toEqual([]);
    } finally {
      await w.db.installationRange.createMany({ data: opened });
    }
    // opened again: the same entry works
    const run = await urlTarget('opened-again', {
      baseUrls: [`http://127.0.0.1:${target.port}`],
      readinessPath: '/ready',
    });
    expect(run.status, run.errorMessage ?? '').toBe('succeeded');
  });

  it("refuses a monitor DSN that points at PoolBench's own database before any request", async () => {
    const target = await capture('127.0.0.1', 0);
    const own = new URL(
      process.env.DATABASE_URL ?? 'postgresql://poolbench:poolbench@127.0.0.1:54329/poolbench',
    );
    own.hostname = 'localhost';
    const run = await urlTarget('own-db', {
      baseUrls: [`http://127.0.0.1:${target.port}`],
      readinessPath: '/ready',
      secrets: { monitorDsn: own.toString() },
    });
    expect(run.status).toBe('failed');
    expect(run.errorCode).toBe('target_not_allowed');
    expect(run.errorMessage).toMatch(
      /monitorDsn points at PoolBench's own database server \(localhost:\d+\)/,
    );
    expect(run.errorMessage).not.toContain(own.password || 'poolbench:');
    expect(target.hits).toEqual([]);
  });

  it('refuses credentials in an old row’s base URL, naming the field and never echoing them', async () => {
    const target = await capture('127.0.0.1', 0);
    const run = await urlTarget('creds', {
      baseUrls: [`http://bob:hunter2@127.0.0.1:${target.port}/`],
      readinessPath: '/ready',
    });
    expect(run.status).toBe('failed');
    expect(run.errorMessage).toMatch(
      /^baseUrls\.0: credentials in URLs are not allowed; use a secret header such as Authorization/,
    );
    expect(JSON.stringify(run)).not.toContain('hunter2');
    expect(target.hits).toEqual([]);
  });
  it('pins the address checked at the start: a name rebound to another address afterwards receives nothing (issue 19)', async () => {
    const first = await capture('127.0.0.1', 0, (req, res) => {
      // The apply hook is the first call after the check: rebind the name now.
      if (req.url === '/apply') writeFileSync(hostsFile, `${baseHosts}\n127.0.0.2 rebind.test\n`);
      res.end('ok');
    });
    const second = await capture('127.0.0.2', first.port);
    // Only the worker that sees the test's hosts file may take this run.
    await stopChild(plainWorker);
    const hostsFile = join(w.runtimeDir, 'hosts');
    const baseHosts = readFileSync('/etc/hosts', 'utf8');
    writeFileSync(hostsFile, `${baseHosts}\n127.0.0.1 rebind.test\n`);
    w.startWorker({ POOLBENCH_SECRET_KEY: KEY.toString('base64') }, { hostsFile });
    const base = `http://rebind.test:${first.port}`;
    const run = await urlTarget('rebind', {
      baseUrls: [base],
      readinessPath: '/ready',
      applyHookUrl: `${base}/apply`,
      secrets: { headers: { 'X-Api-Key': SECRET } },
    });
    expect(run.status, `${run.errorCode}: ${run.errorMessage}`).toBe('succeeded');
    expect(readFileSync(hostsFile, 'utf8')).toContain('127.0.0.2 rebind.test');
    expect(second.hits).toEqual([]);
    expect(first.hits.filter((h) => h.url === '/health').length).toBeGreaterThan(5);
    expect(first.hits.map((h) => h.url)).toContain('/ready');
    expect(parseRun(run).environment?.network).toEqual({
      pins: [{ host: 'rebind.test', port: first.port, address: '127.0.0.1' }],
    });
  });

  it("never sends anything to the installation's own services, whatever the allowlist says", async () => {
    // rows saved before the rule, on an address the team allowed; the worker's own environment
    // names the services (its REDIS_URL and DATABASE_URL are this test's)
    const redis = new URL(process.env.REDIS_URL ?? 'redis://127.0.0.1:63799');
    const pg = new URL(
      process.env.DATABASE_URL ?? 'postgresql://poolbench:poolbench@127.0.0.1:54329/poolbench',
    );
    const seen = await capture('127.0.0.1', 0);
    for (const [url, service, field] of [
      [`http://127.0.0.1:${redis.port || 6379}`, 'Redis \\(REDIS_URL\\)', 'baseUrls\\.0'],
      [`http://localhost:${pg.port || 5432}`, 'Postgres \\(DATABASE_URL\\)', 'baseUrls\\.0'],
    ] as const) {
      const run = await urlTarget(`own-${service.slice(0, 5)}`, {
        baseUrls: [url],
        readinessPath: '/ready',
        applyHookUrl: `http://127.0.0.1:${seen.port}/apply`,
      });
      expect(run.status, url).toBe('failed');
      expect(run.errorCode, url).toBe('target_not_allowed');
      expect(run.errorMessage, url).toMatch(
        new RegExp(`^${field}: .* is the installation's own ${service}`),
      );
    }
    expect(seen.hits).toEqual([]);
  });
});
