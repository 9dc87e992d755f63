import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  PoolConfigSchema,
  runtimeArgs,
  type LabEnvironment,
  type PoolConfigInput,
  type Runtime,
} from '@poolbench/scenarios';
import { loadEnv, runtimeBinsOf } from '../src/env';
import { spawnManaged, type ManagedChild } from '../src/targets/child';
import { freePort } from '../src/targets/free-port';
import { ensureLabData } from '../src/targets/managed-target';
import {
  createMariaDbRunUser,
  mysqlOptions,
  type MariaDbRunUser,
} from '../src/targets/mariadb-user';
import { ProcessRegistry } from '../src/targets/process-registry';
import { runtimeLauncher } from '../src/targets/runtimes';
import { waitReady } from '../src/targets/wait-ready';
import { pidsAlive, settle } from './harness';

// One contract, every runtime (docs/runtimes.md): each program is started exactly as the worker
// starts it, on the real Postgres and MariaDB, and answers are compared with the Go lab target's,
// the reference. Pool gauges must move under a held request, and the database must see the
// connections the runtime says it holds.
const env = loadEnv();
const bins = runtimeBinsOf(env);
const registryDir = mkdtempSync(join(tmpdir(), 'pb-contract-'));
const registry = new ProcessRegistry(registryDir);
const SETUP = { rows: 1000, fields: 10, roles: 10, permissions: 20, shards: 4 };
const PG_URL = env.LAB_DATABASE_URL;
const MARIA_URL = env.LAB_MARIADB_URL;
const signal = new AbortController().signal;
const children: ManagedChild[] = [];
const users: MariaDbRunUser[] = [];
let seq = 0;

/** A strategy each runtime implements on both databases, with a pool of 3. */
const CASES: Array<{
  runtime: Runtime;
  database: 'postgres' | 'mariadb';
  config: PoolConfigInput;
}> = [
  { runtime: 'go', database: 'postgres', config: { strategy: 'fixed', params: { maxConns: 3 } } },
  { runtime: 'go', database: 'mariadb', config: { strategy: 'fixed', params: { maxConns: 3 } } },
  {
    runtime: 'java-hikari',
    database: 'postgres',
    config: { strategy: 'fixed', params: { maxConns: 3 } },
  },
  {
    runtime: 'java-hikari',
    database: 'mariadb',
    config: { strategy: 'fixed', params: { maxConns: 3 } },
  },
  { runtime: 'bun', database: 'postgres', config: { strategy: 'fixed', params: { maxConns: 3 } } },
  { runtime: 'bun', database: 'mariadb', config: { strategy: 'fixed', params: { maxConns: 3 } } },
  {
    runtime: 'php-fpm',
    database: 'postgres',
    config: { strategy: 'fixed', params: { maxConns: 3 } },
  },
  {
    runtime: 'php-fpm',
    database: 'mariadb',
    config: { strategy: 'fixed', params: { maxConns: 3 } },
  },
];

interface Started {
  baseUrl: string;
  appName: string;
  user: string | null;
  child: ManagedChild;
}

async function start(
  runtime: Runtime,
  database: 'postgres' | 'mariadb',
  input: PoolConfigInput,
  extraArgs: string[] = [],
): Promise<Started> {
  const environment: LabEnvironment = { runtime, database };
  const config = PoolConfigSchema.parse(input);
  let url = database === 'mariadb' ? MARIA_URL : PG_URL;
  let user: string | null = null;
  const id = `contract${process.pid}x${seq++}`;
  if (database === 'mariadb') {
    const u = await createMariaDbRunUser(MARIA_URL, id);
    users.push(u);
    url = u.databaseUrl;
    user = u.user;
  }
  const launcher = runtimeLauncher(runtime, environment, bins);
  const port = await freePort();
  const appName = `pbc-${id.slice(-10)}`;
  const child = spawnManaged(
    launcher.cmd,
    [
      ...launcher.prefix,
      ...runtimeArgs(config, environment),
      `--listen=127.0.0.1:${port}`,
      `--database-url=${url}`,
      '--instance-id=7',
      `--application-name=${appName}`,
      ...extraArgs,
    ],
    {
      registry,
      runId: id,
      kind: runtime,
    },
  );
  children.push(child);
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitReady(`${baseUrl}/ready`, {
    timeoutMs: 60_000,
    signal,
    child,
    what: `${runtime} on ${database}`,
  });
  return { baseUrl, appName, user, child };
}

/** Connections the database sees for this instance: application_name on Postgres, the run user on MariaDB. */
async function dbConnections(database: 'postgres' | 'mariadb', s: Started): Promise<number> {
  if (database === 'postgres') {
    const c = new pg.Client({ connectionString: PG_URL });
    await c.connect();
    try {
      const { rows } = await c.query<{ n: string }>(
        `SELECT count(*)::text AS n FROM pg_stat_activity WHERE application_name LIKE $1 || ':%' AND application_name NOT LIKE '%:probe'`,
        [s.appName],
      );
      return Number(rows[0]!.n);
    } finally {
      await c.end();
    }
  }
  const c = await mysql.createConnection(mysqlOptions(MARIA_URL));
  try {
    const [rows] = await c.query<mysql.RowDataPacket[]>(
      'SELECT COUNT(*) AS n FROM information_schema.PROCESSLIST WHERE USER = ?',
      [s.user],
    );
    return Number(rows[0]!.n);
  } finally {
    await c.end();
  }
}

/** Total hits of the lab counters, read straight from the database the runtime writes to. */
async function counterHits(database: 'postgres' | 'mariadb'): Promise<number> {
  if (database === 'postgres') {
    const c = new pg.Client({ connectionString: PG_URL });
    await c.connect();
    try {
      return Number(
        (await c.query<{ n: string }>('SELECT sum(hits)::text AS n FROM lab.counters')).rows[0]!.n,
      );
    } finally {
      await c.end();
    }
  }
  const c = await mysql.createConnection(mysqlOptions(MARIA_URL));
  try {
    const [rows] = await c.query<mysql.RowDataPacket[]>('SELECT SUM(hits) AS n FROM counters');
    return Number(rows[0]!.n);
  } finally {
    await c.end();
  }
}

function gauge(text: string, name: string): number {
  let sum = 0;
  for (const line of text.split('\n'))
    if (line.startsWith(`${name}{`) || line.startsWith(`${name} `))
      sum += Number(line.slice(line.lastIndexOf(' ') + 1));
  return sum;
}

const json = async (res: Response) => JSON.parse(await res.text()) as unknown;
/** Bun returns Postgres bigints as strings (its default, as the seed's service did): compare values, not JS types. */
const normalize = (rows: unknown) =>
  JSON.parse(JSON.stringify(rows), (_k, v: unknown) =>
    typeof v === 'string' && /^-?\d+$/.test(v) && v.length < 16 ? Number(v) : v,
  ) as unknown;

beforeAll(async () => {
  await ensureLabData(bins.labTargetBin, PG_URL, SETUP);
  await ensureLabData(bins.labTargetBin, MARIA_URL, SETUP);
}, 300_000);

afterAll(async () => {
  await settle('runtimes contract', [
    ['stop runtimes', () => Promise.all(children.map((c) => c.stop())), 30_000],
    // a runtime that did not stop is killed with its process group
    [
      'kill what is left',
      async () => {
        for (const c of children)
          if (pidsAlive([c.pid]).length)
            try {
              process.kill(-c.pid, 'SIGKILL');
            } catch {
              // gone meanwhile
            }
      },
    ],
    [
      'drop run users',
      async () => {
        for (const u of users) await u.drop();
      },
    ],
    ['registry dir', async () => rmSync(registryDir, { recursive: true, force: true })],
  ]);
}, 90_000);

const reference = new Map<string, { roles: unknown; rows: unknown }>();

describe.each(CASES)('$runtime on $database', ({ runtime, database, config }) => {
  let s: Started;
  beforeAll(async () => {
    if (!reference.has(database)) {
      const go = await start('go', database, { strategy: 'fixed', params: { maxConns: 2 } });
      reference.set(database, {
        roles: await json(await fetch(`${go.baseUrl}/roles`)),
        rows: normalize(await json(await fetch(`${go.baseUrl}/query?rows=25&fields=7`))),
      });
      await go.child.stop();
    }
    s = await start(runtime, database, config);
  }, 120_000);

  it('answers /ready and /health with the instance and pool headers', async () => {
    const ready = await fetch(`${s.baseUrl}/ready`);
    expect(ready.status).toBe(200);
    expect(await json(ready)).toMatchObject({ ready: true });
    const health = await fetch(`${s.baseUrl}/health`);
    expect(health.status).toBe(200);
    expect(health.headers.get('x-instance-id')).toBe('7');
    expect(health.headers.get('x-pool')).toBe('main');
    expect(await json(health)).toMatchObject({ status: 'ok', pool: 'main' });
  });

  it('returns the same roles and rows as the Go reference', async () => {
    const ref = reference.get(database)!;
    expect(await json(await fetch(`${s.baseUrl}/roles`))).toEqual(ref.roles);
    const res = await fetch(`${s.baseUrl}/query?rows=25&fields=7`);
    expect(res.status).toBe(200);
    const rows = normalize(await json(res)) as Array<Record<string, unknown>>;
    expect(rows).toHaveLength(25);
    expect(Object.keys(rows[0]!).sort()).toEqual(['f1', 'f2', 'f3', 'f4', 'f5', 'f6', 'f7', 'id']);
    expect(rows).toEqual(ref.rows);
  });

  it('refuses bad input with the contract error codes', async () => {
    const code = async (path: string) => ({
      status: (await fetch(`${s.baseUrl}${path}`)).status,
      body: await json(await fetch(`${s.baseUrl}${path}`)),
    });
    expect(await code('/query?rows=abc')).toMatchObject({
      status: 400,
      body: { error: 'bad_rows' },
    });
    expect(await code('/query?rows=1&fields=5000')).toMatchObject({
      status: 400,
      body: { error: 'bad_fields' },
    });
    expect(await code('/query?rows=1&fields=50')).toMatchObject({
      status: 400,
      body: { error: 'too_many_fields' },
    });
    expect(await code('/work?ms=-1')).toMatchObject({ status: 400, body: { error: 'bad_ms' } });
  });

  it('writes on POST /work (and only then), committed when it answers', async () => {
    const before = await counterHits(database);
    expect((await fetch(`${s.baseUrl}/work?ms=5`, { method: 'POST' })).status).toBe(200);
    expect((await fetch(`${s.baseUrl}/work?ms=5&write=1`)).status).toBe(200);
    expect((await fetch(`${s.baseUrl}/work?ms=5`)).status).toBe(200);
    expect(await counterHits(database)).toBe(before + 2);
  });

  it('shows a held connection in its pool gauges and in the database', async () => {
    const held = Array.from({ length: 5 }, () =>
      fetch(`${s.baseUrl}/work?ms=800`).then((r) => r.status),
    );
    // Three take the pool's connections; two wait behind them (800 ms, inside the 1 s acquire timeout).
    let text = '';
    for (let i = 0; i < 40; i++) {
      await new Promise((r) => setTimeout(r, 100));
      text = await (await fetch(`${s.baseUrl}/metrics`)).text();
      if (
        gauge(text, 'labtarget_pool_acquired_conns') >= 3 &&
        gauge(text, 'labtarget_pool_waiting_requests') >= 2
      )
        break;
    }
    expect(gauge(text, 'labtarget_pool_acquired_conns')).toBe(3);
    expect(gauge(text, 'labtarget_pool_waiting_requests')).toBeGreaterThanOrEqual(2);
    expect(gauge(text, 'labtarget_pool_max_conns')).toBe(3);
    expect(gauge(text, 'labtarget_pool_total_conns')).toBe(3);
    expect(await dbConnections(database, s)).toBe(3);
    expect(await Promise.all(held)).toEqual([200, 200, 200, 200, 200]);
    const after = await (await fetch(`${s.baseUrl}/metrics`)).text();
    expect(gauge(after, 'labtarget_pool_acquired_conns')).toBe(0);
    // a fixed pool keeps its connections
    expect(gauge(after, 'labtarget_pool_total_conns')).toBe(3);
    expect(gauge(after, 'labtarget_pool_acquire_total')).toBeGreaterThanOrEqual(5);
    expect(gauge(after, 'labtarget_pool_acquire_wait_seconds_count')).toBeGreaterThanOrEqual(5);
    expect(gauge(after, 'labtarget_pool_acquire_wait_seconds_sum')).toBeGreaterThan(1);
    expect(gauge(after, 'process_resident_memory_bytes') > 0 || runtime === 'php-fpm').toBe(true);
  }, 30_000);
});

describe('a strategy the runtime does not implement', () => {
  it.each([
    ['bun', 'adaptive'],
    ['php-fpm', 'lazy'],
    ['java-hikari', 'lazy'],
  ] as const)(
    '%s refuses %s with exit code 2, naming it',
    async (runtime, strategy) => {
      const launcher = runtimeLauncher(runtime, { runtime }, bins);
      const child = spawnManaged(
        launcher.cmd,
        [
          ...launcher.prefix,
          `--strategy=${strategy}`,
          '--listen=127.0.0.1:0',
          `--database-url=${PG_URL}`,
        ],
        { registry, runId: `contract-bad-${runtime}`, kind: runtime },
      );
      children.push(child);
      const exit = await child.exited;
      expect(exit.code).toBe(2);
      expect(child.tail()).toContain(strategy);
    },
    30_000,
  );
});
