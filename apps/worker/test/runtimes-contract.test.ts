import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PoolConfigSchema, runtimeArgs, type PoolConfigInput } from '@poolbench/scenarios';
import { type LabEnvironment, type Runtime } from '@poolbench/contracts';
import { loadEnv, runtimeBinsOf } from '../src/env';
import { spawnManaged, type ManagedChild } from '../src/targets/child';
import { freePort } from '../src/targets/free-port';
import { ensureLabData, labDataUrl } from '../src/targets/managed-target';
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
// connections the runtime says it holds. The login pair (POST /login, GET /me) answers exactly as
// Go's, and its tokens are accepted across runtimes.
const env = loadEnv();
const bins = runtimeBinsOf(env);
const registryDir = mkdtempSync(join(tmpdir(), 'pb-contract-'));
const registry = new ProcessRegistry(registryDir);
const SETUP = { rows: 1000, fields: 10, roles: 10, permissions: 20, shards: 4 };
// the shape's own databases, as a run of a target with this shape gets them
const PG_URL = labDataUrl(env.LAB_DATABASE_URL, SETUP, 'postgres');
const MARIA_URL = labDataUrl(env.LAB_MARIADB_URL, SETUP, 'mariadb');
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

/** Sum of a runtime's `labtarget_http_request_duration_seconds_count` for one route and status code (Go and Java name the route `login`, Bun and PHP `/login`). */
function httpCount(text: string, route: string, code: number): number {
  let sum = 0;
  for (const line of text.split('\n')) {
    const m = /^labtarget_http_request_duration_seconds_count\{(.*)\} (\S+)$/.exec(line);
    if (!m) continue;
    const labels = Object.fromEntries(
      [...m[1]!.matchAll(/(\w+)="([^"]*)"/g)].map((l) => [l[1]!, l[2]!]),
    );
    if (labels.route?.replace(/^\//, '') === route && labels.code === String(code))
      sum += Number(m[2]);
  }
  return sum;
}

/** A lab token as the contract defines it, computed here: `<id>.<hex HMAC-SHA256("poolbench-lab", "<id>")>`. */
const signed = (id: number | string) =>
  `${id}.${createHmac('sha256', 'poolbench-lab').update(String(id)).digest('hex')}`;

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

const reference = new Map<string, { roles: unknown; rows: unknown; go: Started }>();

const loginAt = (base: string, body: string) =>
  fetch(`${base}/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body,
  });
const meAt = (base: string, authorization?: string) =>
  fetch(`${base}/me`, authorization === undefined ? {} : { headers: { authorization } });
const creds = (username: string, password: string) => JSON.stringify({ username, password });

describe.each(CASES)('$runtime on $database', ({ runtime, database, config }) => {
  let s: Started;
  beforeAll(async () => {
    if (!reference.has(database)) {
      const go = await start('go', database, { strategy: 'fixed', params: { maxConns: 2 } });
      // kept running (stopped with the others) to answer the login pair beside each runtime
      reference.set(database, {
        roles: await json(await fetch(`${go.baseUrl}/roles`)),
        rows: normalize(await json(await fetch(`${go.baseUrl}/query?rows=25&fields=7`))),
        go,
      });
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

  it('logs in and answers /me with the token, exactly as Go, and accepts Go tokens both ways', async () => {
    const go = reference.get(database)!.go;
    const metrics = async () => (await fetch(`${s.baseUrl}/metrics`)).text();
    const before = await metrics();

    const login = await loginAt(s.baseUrl, creds('user0007', 'pw-user0007'));
    expect(login.status).toBe(200);
    expect(login.headers.get('x-pool')).toBe('main');
    const body = await json(login);
    expect(body).toEqual({ token: signed(7), userId: 7 });
    expect(body).toEqual(await json(await loginAt(go.baseUrl, creds('user0007', 'pw-user0007'))));

    const me = await meAt(s.baseUrl, `Bearer ${signed(7)}`);
    expect(me.status).toBe(200);
    expect(me.headers.get('x-pool')).toBe('main');
    expect(await json(me)).toEqual({ id: 7, username: 'user0007' });
    // Stateless tokens: the runtime's is accepted by the Go reference and Go's by the runtime.
    const goLogin = (await json(await loginAt(go.baseUrl, creds('user1000', 'pw-user1000')))) as {
      token: string;
    };
    const cross = await meAt(s.baseUrl, `Bearer ${goLogin.token}`);
    expect(cross.status).toBe(200);
    expect(await json(cross)).toEqual({ id: 1000, username: 'user1000' });
    const back = await meAt(go.baseUrl, `Bearer ${(body as { token: string }).token}`);
    expect(back.status).toBe(200);
    expect(await json(back)).toEqual({ id: 7, username: 'user0007' });

    // Each took one pool connection; nothing else ran on this instance meanwhile.
    const afterGood = await metrics();
    expect(
      gauge(afterGood, 'labtarget_pool_acquire_total') -
        gauge(before, 'labtarget_pool_acquire_total'),
    ).toBe(3);

    // Refusals: the same status and JSON (code and message) as the Go reference.
    const same = async (
      what: string,
      status: number,
      req: (base: string) => Promise<Response>,
    ): Promise<void> => {
      const [mine, ref] = await Promise.all([req(s.baseUrl), req(go.baseUrl)]);
      expect({ what, status: mine.status }).toEqual({ what, status });
      expect({ what, status: ref.status }).toEqual({ what, status });
      expect({ what, body: await json(mine) }).toEqual({ what, body: await json(ref) });
    };
    for (const [what, username, password] of [
      ['wrong password', 'user0007', 'pw-user0008'],
      ['unknown user', 'nobody', 'pw-user0007'],
      ['username in another case', 'USER0007', 'pw-user0007'],
      ['username with a trailing space', 'user0007 ', 'pw-user0007'],
    ] as const)
      await same(what, 401, (base) => loginAt(base, creds(username, password)));
    const afterCredentials = await metrics();
    expect(
      gauge(afterCredentials, 'labtarget_pool_acquire_total') -
        gauge(afterGood, 'labtarget_pool_acquire_total'),
    ).toBe(4);

    for (const [what, raw] of [
      ['empty body', ''],
      ['not JSON', 'user0007:pw-user0007'],
      ['an array', '[]'],
      ['no password', '{"username":"user0007"}'],
      ['username not a string', '{"username":7,"password":"pw-user0007"}'],
      ['a body over 64 KiB', creds('user0007', 'x'.repeat(70 << 10))],
    ] as const)
      await same(what, 400, (base) => loginAt(base, raw));
    const tok = signed(7);
    for (const [what, header] of [
      ['no Authorization header', undefined],
      ['another scheme', `Basic ${tok}`],
      ['a tampered HMAC', `Bearer ${tok.slice(0, -1)}${tok.endsWith('0') ? '1' : '0'}`],
      ['another id with the HMAC of 7', `Bearer 8${tok.slice(1)}`],
      ['upper-case hex', `Bearer ${tok.toUpperCase()}`],
      ['an id with a leading zero', `Bearer ${signed('07')}`],
      ['an id beyond int32', `Bearer ${signed('2147483648')}`],
    ] as const)
      await same(what, 401, (base) => meAt(base, header));
    const afterRefused = await metrics();
    // refused before the pool: no connection taken
    expect(
      gauge(afterRefused, 'labtarget_pool_acquire_total') -
        gauge(afterCredentials, 'labtarget_pool_acquire_total'),
    ).toBe(0);
    await same('a signed id with no user', 404, (base) => meAt(base, `Bearer ${signed(5000)}`));

    // Both count in the runtime's request metrics like the other endpoints.
    const after = await metrics();
    const delta = (route: string, code: number) =>
      httpCount(after, route, code) - httpCount(before, route, code);
    expect({
      login200: delta('login', 200),
      login401: delta('login', 401),
      login400: delta('login', 400),
      me200: delta('me', 200),
      me401: delta('me', 401),
      me404: delta('me', 404),
    }).toEqual({ login200: 1, login401: 4, login400: 6, me200: 2, me401: 7, me404: 1 });
  });

  it('counts a request before its answer arrives', async () => {
    // A client that reads an answer and then scrapes /metrics must find it counted: the run's
    // pool-behaviour figures and this contract's own deltas read the metrics right after requests.
    const late: string[] = [];
    let prev = await (await fetch(`${s.baseUrl}/metrics`)).text();
    for (let i = 0; i < 60; i++) {
      const [path, route, code] =
        i % 3 === 0
          ? (['/health', 'health', 200] as const)
          : i % 3 === 1
            ? (['/query?rows=2&fields=2', 'query', 200] as const)
            : (['/me', 'me', 401] as const);
      const res = await fetch(`${s.baseUrl}${path}`);
      await res.text(); // the whole answer, not only its headers
      expect(res.status).toBe(code);
      const now = await (await fetch(`${s.baseUrl}/metrics`)).text();
      if (httpCount(now, route, code) - httpCount(prev, route, code) !== 1)
        late.push(`${i} ${path}`);
      prev = now;
    }
    expect(late).toEqual([]);
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
