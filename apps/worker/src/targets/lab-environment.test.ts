import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { PoolConfigSchema, type PoolConfigInput } from '@poolbench/scenarios';
import { afterAll, describe, expect, it } from 'vitest';
import { ensureLabData, labDataUrl } from './managed-target';
import { BALANCER_HEADER } from './nginx-balancer';
import { ProcessRegistry } from './process-registry';
import { runEnvironment, startLabTarget } from './start-lab-target';
import { loadEnv, runtimeBinsOf } from '../env';

// every temporary folder this file makes is removed when it ends, pass or fail
const tempDirs: string[] = [];
const tempDir = (prefix: string) => {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  tempDirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of tempDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

// Real lab target, Postgres, link proxy, blob store and nginx: each environment setting is
// measured where it takes effect, not read back from a config.
const REPO = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..');
const BIN = join(REPO, 'apps/lab-targets/go/bin/lab-target');
const SETUP = { rows: 1000, fields: 10, roles: 10, permissions: 20, shards: 4 };
const workerEnv = loadEnv();
// the shape's own database, as a run of a target with this shape gets it
const LAB_DB = labDataUrl(workerEnv.LAB_DATABASE_URL, SETUP, 'postgres');
const registry = new ProcessRegistry(tempDir('pb-labenv-'));
const deps = {
  labTargetBin: BIN,
  labDatabaseUrl: LAB_DB,
  labMariadbUrl: workerEnv.LAB_MARIADB_URL,
  runtimeBins: runtimeBinsOf(workerEnv),
  readyTimeoutMs: 30_000,
  registry,
};
const signal = new AbortController().signal;
const stops: Array<() => Promise<void>> = [];
afterAll(async () => {
  await Promise.all(stops.map((s) => s()));
});

let n = 0;
async function start(config: PoolConfigInput, targetEnvironment: unknown = {}) {
  await ensureLabData(BIN, LAB_DB, SETUP);
  const parsed = PoolConfigSchema.parse(config);
  const t = await startLabTarget(
    { id: `labenvtest${process.pid}x${n++}` },
    runEnvironment(targetEnvironment, parsed),
    parsed,
    deps,
    signal,
  );
  stops.push(t.stop);
  return t;
}

async function timeMs(url: string, init?: RequestInit): Promise<{ ms: number; res: Response }> {
  const t0 = performance.now();
  const res = await fetch(url, init);
  await res.arrayBuffer();
  return { ms: performance.now() - t0, res };
}

const metric = async (baseUrl: string, name: string) => {
  const text = await (await fetch(`${baseUrl}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  return line ? Number(line.split(' ')[1]) : NaN;
};

describe('managed target environment (real lab target, Postgres, nginx)', () => {
  it('database link RTT: every query pays the added round trip (target default, overridden per pool config)', async () => {
    // per-request opens a connection per /health: several round trips (TCP, TLS-less startup, auth, ping)
    const plain = await start({ strategy: 'lazy', params: { maxConns: 2 } });
    const slow = await start(
      { strategy: 'lazy', params: { maxConns: 2 }, environment: { dbLinkRttMs: 80 } },
      { dbLinkRttMs: 0 },
    );
    const url = (t: typeof plain) => `${t.loadUrls[0]}/health`;
    await timeMs(url(plain));
    await timeMs(url(slow)); // connection set-up paid once
    // The added round trip is a floor under every request, so both sides are judged by their
    // fastest request: a busy machine can slow any one request, never take the floor away.
    const fastest = async (t: typeof plain) => {
      const ms = [];
      for (let i = 0; i < 5; i++) ms.push((await timeMs(url(t))).ms);
      return Math.min(...ms);
    };
    expect(await fastest(slow)).toBeGreaterThanOrEqual(75); // one ping = one round trip
    expect(await fastest(plain)).toBeLessThan(60);
  });

  it('role connection limit: the target meets SQLSTATE 53300, and the role is gone after the run', async () => {
    const t = await start({ strategy: 'per-request' }, { roleConnectionLimit: 2 });
    const results = await Promise.all(
      Array.from({ length: 30 }, () => fetch(`${t.loadUrls[0]}/health`).then((r) => r.status)),
    );
    expect(results.filter((s) => s !== 200).length).toBeGreaterThan(0);
    expect(await metric(t.loadUrls[0]!, 'labtarget_db_too_many_clients_total')).toBeGreaterThan(0);
    const c = new pg.Client({ connectionString: LAB_DB });
    await c.connect();
    const roles = async () =>
      (
        await c.query(
          `SELECT rolname, rolconnlimit FROM pg_roles WHERE rolname LIKE 'pb_limited_labenvtest${process.pid}%'`,
        )
      ).rows;
    expect(await roles()).toEqual([expect.objectContaining({ rolconnlimit: 2 })]);
    await t.stop();
    expect(await roles()).toEqual([]);
    await c.end();
  });

  it('CPU limit: each instance reports GOMAXPROCS from the runtime', async () => {
    const t = await start({ strategy: 'lazy', instanceCount: 2, environment: { cpuLimit: 1 } });
    for (const i of t.instances)
      expect(await metric(i.baseUrl, 'go_sched_gomaxprocs_threads')).toBe(1);
    const free = await start({ strategy: 'lazy' });
    expect(await metric(free.instances[0]!.baseUrl, 'go_sched_gomaxprocs_threads')).toBeGreaterThan(
      1,
    );
  });

  it('nginx balancing: one load URL, nginx in the path (header and access log), both instances served', async () => {
    const t = await start({ strategy: 'lazy', instanceCount: 2 }, { balancing: 'nginx' });
    expect(t.loadUrls).toHaveLength(1);
    expect(t.loadUrls[0]).not.toBe(t.instances[0]!.baseUrl);
    const seen = new Set<string>();
    for (let i = 0; i < 10; i++) {
      const res = await fetch(`${t.loadUrls[0]}/health`);
      expect(res.headers.get(BALANCER_HEADER)).toBe('nginx');
      seen.add(res.headers.get('x-instance-id') ?? '?');
      await res.arrayBuffer();
    }
    expect([...seen].sort()).toEqual(['0', '1']);
    // nginx writes a request's log line after it has sent the response, so the last line can
    // land a moment after the client has read its body
    const logged = () =>
      readFileSync(t.balancer!.accessLog, 'utf8')
        .split('\n')
        .filter((l) => l.includes('GET /health')).length;
    await expect.poll(logged, { timeout: 10_000 }).toBe(10);
    const pids = [t.instances[0]!.child.pid];
    await t.stop();
    const rr = await start({ strategy: 'lazy', instanceCount: 2 });
    expect(rr.loadUrls).toEqual(rr.instances.map((i) => i.baseUrl));
    for (const p of pids) expect(() => process.kill(p, 0)).toThrow();
  });

  it('blob store delay: a new upstream connection pays it, a kept-alive one does not', async () => {
    const t = await start({
      strategy: 'lazy',
      params: { upstreamConns: 1 },
      environment: { blobstoreDelayMs: 1000 },
    });
    const body = new Uint8Array(1024);
    const first = await timeMs(`${t.loadUrls[0]}/upload`, { method: 'POST', body });
    const second = await timeMs(`${t.loadUrls[0]}/upload`, { method: 'POST', body });
    expect(first.res.status).toBe(201);
    expect(second.res.status).toBe(201);
    expect(first.ms).toBeGreaterThanOrEqual(990);
    // a delay long enough that a busy machine's own slowness cannot pass for it
    expect(second.ms).toBeLessThan(500);
  });

  it('refuses a stored environment that does not validate, naming the field', async () => {
    await expect(start({ strategy: 'lazy' }, { cpuLimit: 0 })).rejects.toThrow(
      /environment\.cpuLimit: must be at least 1/,
    );
  });
});
