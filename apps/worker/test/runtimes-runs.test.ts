import { parseRun, toJson } from '@poolbench/db';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import mysql from 'mysql2/promise';
import { hostTag, mysqlOptions } from '../src/targets/mariadb-user';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  createWorld,
  pidsAlive,
  recordedChildren,
  stopChild,
  sustained,
  waitFor,
  type World,
} from './harness';

const MARIADB_URL =
  process.env.LAB_MARIADB_URL ?? 'mysql://poolbench:poolbench@127.0.0.1:33069/poolbench_lab';

/** A process and every descendant, from /proc (PHP-FPM's children are in a session of their own). */
/** A process's command line, or null once it is gone (a process tree changes while it is read). */
function cmdlineOf(pid: number): string | null {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
  } catch {
    return null;
  }
}

function tree(pid: number): number[] {
  const out = [pid];
  try {
    for (const t of readdirSync(`/proc/${pid}/task`)) {
      for (const c of readFileSync(`/proc/${pid}/task/${t}/children`, 'utf8')
        .split(' ')
        .filter(Boolean))
        out.push(...tree(Number(c)));
    }
  } catch {
    // gone
  }
  return out;
}

// One short run per runtime through the queue and the worker, as a user launches it: the pool
// config names the runtime and database, the worker starts that program, and the run's samples
// show its pool gauges and the connections the database saw move.
describe('worker: one run per runtime (real Postgres, MariaDB, Redis, k6, JVM, Bun, PHP-FPM, nginx)', () => {
  let w: World;
  beforeAll(async () => {
    w = await createWorld('runtimes');
  });
  afterEach(async () => w?.killWorkers());
  afterAll(async () => w?.dispose(), 120_000);

  const CONFIGS = [
    {
      // its own role with a password (pb_limited_<run>), like every MariaDB run's own user
      name: 'go fixed 4 (postgres)',
      strategy: 'fixed',
      environment: { runtime: 'go', roleConnectionLimit: 10 },
    },
    {
      name: 'java-hikari fixed 4 (postgres)',
      strategy: 'fixed',
      environment: { runtime: 'java-hikari' },
    },
    {
      name: 'bun fixed 4 (mariadb)',
      strategy: 'fixed',
      environment: { runtime: 'bun', database: 'mariadb' },
    },
    {
      name: 'php-fpm fixed 4 (mariadb)',
      strategy: 'fixed',
      environment: { runtime: 'php-fpm', database: 'mariadb' },
    },
    {
      name: 'go lazy 4 (mariadb)',
      strategy: 'lazy',
      environment: { runtime: 'go', database: 'mariadb' },
    },
  ];

  it('every runtime serves its run, and its pool and the database connections move', async () => {
    w.startWorker();
    const configs = [];
    for (const c of CONFIGS) {
      configs.push(
        await w.db.poolConfig.create({
          data: {
            teamId: w.ids.teamId,
            targetId: w.ids.targetId,
            name: c.name,
            strategy: c.strategy,
            params: { maxConns: 4 },
            instanceCount: 1,
            environment: toJson.poolEnvironment(c.environment),
          },
        }),
      );
    }
    // 8 VUs holding a connection 50 ms each: a pool of 4 is full and has waiters.
    const sc = await w.scenario('3 s at 8 VUs on /work', {
      template: 'sustained',
      params: { vus: 8, durationMs: 3000 },
      requests: [{ path: '/work', query: { ms: 50 } }],
      readyPath: '/ready',
    });
    const { runIds } = await w.launch(
      configs.map((c) => c.id),
      [sc.id],
      1,
    );
    // While the runs go, every process of each run (target, FPM children, nginx, JVM) is read from
    // /proc: a database URL with a password in a command line is readable by every local user.
    const leaks: string[] = [];
    const seen = new Set<string>();
    let scanning = true;
    const scan = (async () => {
      while (scanning) {
        for (const child of recordedChildren(w.runtimeDir)) {
          for (const pid of tree(child.pid)) {
            const cmdline = cmdlineOf(pid);
            if (cmdline === null) continue;
            if (child.kind === 'lab-target') seen.add(child.runId);
            if (/\/\/[^/\s:@]+:[^@\s/]+@/.test(cmdline) || /--database-url/.test(cmdline))
              leaks.push(`${child.kind} ${pid}: ${cmdline}`);
          }
        }
        await new Promise((r) => setTimeout(r, 100));
      }
    })();
    for (const id of runIds) {
      const run = parseRun(
        await w.waitForStatus(
          id,
          ['succeeded', 'failed', 'canceled', 'timed_out', 'aborted_system'],
          180_000,
        ),
      );
      const name = run.poolConfigSnapshot.name;
      expect(run.status, `${name}: ${run.errorCode}: ${run.errorMessage}`).toBe('succeeded');
      // provenance: what served the load, asked of the programs themselves
      const c = run.environment?.components;
      const runtime = CONFIGS.find((x) => x.name === name)!.environment;
      expect(c?.runtime, name).toBe(runtime.runtime);
      expect(run.environment?.labTargetVersion, name).toMatch(
        {
          go: /^lab-target .*\(go/,
          'java-hikari':
            /^lab-target-hikari .*\(java \d.*; HikariCP \d+\.\d+\.\d+; MariaDB Connector\/J \d/,
          bun: /\(bun \d/,
          'php-fpm': /^PHP 8\./,
        }[runtime.runtime]!,
      );
      expect(c?.database, name).toMatch(
        'database' in runtime && runtime.database === 'mariadb' ? /^MariaDB \d/ : /^PostgreSQL \d/,
      );
      if (runtime.runtime === 'php-fpm') expect(c?.nginx, name).toMatch(/nginx\/\d/);
      // what else used the CPU meanwhile, measured over the load phase
      const d = run.environment?.disturbance;
      expect(d?.seconds, name).toBeGreaterThan(2);
      expect(d?.machineCpuPercent, name).toBeGreaterThanOrEqual(d?.outsideCpuPercent ?? Infinity);
      expect(run.summary?.failed, name).toBe(0);
      // 8 VUs over a pool of 4 at 50 ms a request: ~80 req/s whatever the runtime
      expect(run.summary!.requests, name).toBeGreaterThan(150);
      const samples = await w.db.resourceSample.findMany({
        where: { runId: id, instance: 0 },
        orderBy: { second: 'asc' },
      });
      // the database side is on the run's total row (instance -1)
      const totals = await w.db.resourceSample.findMany({
        where: { runId: id, instance: -1 },
        orderBy: { second: 'asc' },
      });
      const max = (k: 'poolInUse' | 'poolTotal' | 'poolMax') =>
        Math.max(...samples.map((s) => s[k] ?? 0));
      expect(max('poolMax'), name).toBe(4);
      expect(max('poolInUse'), name).toBeGreaterThanOrEqual(3);
      expect(max('poolTotal'), name).toBe(4);
      // what the database saw, counted by application_name (Postgres) or the run's own user (MariaDB)
      expect(Math.max(...totals.map((t) => t.dbTotal ?? 0)), name).toBe(4);
      expect(
        samples.some((s) => (s.cpuPercent ?? 0) > 0),
        name,
      ).toBe(true);
      expect(
        samples.some((s) => Number(s.rssBytes ?? 0) > 1e6),
        name,
      ).toBe(true);
    }
    scanning = false;
    await scan;
    expect(leaks).toEqual([]);
    // the scan saw every run's target while it ran (not a scan that found nothing to read)
    expect([...seen].sort()).toEqual([...runIds].sort());
  }, 400_000);
});

describe('worker: a runtime dies with the worker (kill -9)', () => {
  let w: World;
  beforeAll(async () => {
    w = await createWorld('runtimeskill');
  });
  afterEach(async () => w?.killWorkers());
  afterAll(async () => w?.dispose(), 120_000);

  it('PHP-FPM masters, their children, nginx in front and in each instance are all gone', async () => {
    const worker = w.startWorker();
    const pc = await w.db.poolConfig.create({
      data: {
        teamId: w.ids.teamId,
        targetId: w.ids.targetId,
        name: 'php x2 behind nginx',
        strategy: 'fixed',
        params: { maxConns: 3 },
        instanceCount: 2,
        environment: toJson.poolEnvironment({
          runtime: 'php-fpm',
          database: 'mariadb',
          balancing: 'nginx',
        }),
      },
    });
    const sc = await w.scenario('30 s', sustained(2, 30_000));
    const { runIds } = await w.launch([pc.id], [sc.id]);
    await w.waitForStatus(runIds[0]!, ['running']);
    const pids = await waitFor('instances and nginx recorded', async () => {
      const r = recordedChildren(w.runtimeDir).filter((x) => x.runId === runIds[0]);
      return r.filter((x) => x.kind === 'lab-target').length === 2 &&
        r.some((x) => x.kind === 'nginx')
        ? r.flatMap((x) => tree(x.pid))
        : null;
    });
    // two launchers, each with FPM (master + 3 app children + 1 ops child), its nginx and watchdog
    expect(pids.length).toBeGreaterThanOrEqual(2 * 7 + 2);
    // what each launcher would remove on a clean stop: its folder, shared memory and semaphore
    // the worker's TMPDIR is the world's (harness.ts)
    const dirs = readdirSync(w.tmpDir)
      .filter((d) => d.startsWith('pb-php-'))
      .map((d) => join(w.tmpDir, d))
      .filter((d) => pids.some((p) => cmdlineOf(p)?.includes(`${d}/`)));
    expect(dirs).toHaveLength(2);
    const shm = () =>
      execFileSync('ipcs', ['-m']).toString() + execFileSync('ipcs', ['-s']).toString();
    const keys = dirs.map(
      (d) =>
        `0x${(JSON.parse(readFileSync(`${d}/config.json`, 'utf8')) as { shmKey: number }).shmKey.toString(16).padStart(8, '0')}`,
    );
    // a segment and a semaphore each, made by PHP on the first request that touches the counters
    await waitFor(
      'shared memory and semaphores made',
      async () => keys.every((k) => shm().split(k).length - 1 === 2),
      30_000,
    ).catch(() => {
      for (const k of keys) expect(shm().split(k).length - 1, k).toBe(2);
    });
    await stopChild(worker, 'SIGKILL');
    await waitFor(
      'every process of the runtime gone',
      async () => pidsAlive(pids).length === 0,
      15_000,
    );
    // nothing was alive to clean up but the launchers' watchdogs
    await waitFor(
      'folders, shared memory and semaphores removed',
      async () => dirs.every((d) => !existsSync(d)) && keys.every((k) => !shm().includes(k)),
      15_000,
    );

    // The run's own MariaDB user (a password with write access to the lab data) outlived the
    // killed worker. A new worker's sweep drops it once the run is marked ended, judged by the
    // run's state, not the pid in the name: a user named after a live pid goes too.
    const suffix = runIds[0]!.slice(-10);
    const maria = await mysql.createConnection(mysqlOptions(MARIADB_URL));
    try {
      const runUsers = async () =>
        (
          await maria.query<mysql.RowDataPacket[]>(
            'SELECT User FROM mysql.user WHERE User LIKE ?',
            [`pb\\_%\\_${suffix}`],
          )
        )[0].map((r) => String(r.User));
      // At most the one user: the lab server is shared with the other integration files, whose
      // workers drop a user named after a dead pid of this host (this killed worker's) as soon as
      // they sweep. The user named after a live pid below stays for every sweeper but this
      // world's, which drops it because its run has ended.
      expect((await runUsers()).length).toBeLessThanOrEqual(1);
      const host = hostTag();
      const reused = `pb_${host}_${process.pid}_${suffix}`;
      await maria.query('CREATE USER ?@? IDENTIFIED BY ?', [reused, '127.0.0.1', 'x-Pw-123456']);
      // users of runs this database does not have: an orphan of a dead worker goes, one of a live
      // worker (another installation on the same lab server) stays
      const orphan = `pb_${host}_999999_zzorphan01`;
      const foreign = `pb_${host}_${process.pid}_zzforeign1`;
      for (const u of [orphan, foreign])
        await maria.query('CREATE USER ?@? IDENTIFIED BY ?', [u, '127.0.0.1', 'x-Pw-123456']);
      const exists = async (u: string) =>
        (
          await maria.query<mysql.RowDataPacket[]>('SELECT 1 FROM mysql.user WHERE User = ?', [u])
        )[0].length > 0;
      w.startWorker();
      await w.waitForStatus(runIds[0]!, ['aborted_system'], 30_000);
      await waitFor('the run users dropped', async () => (await runUsers()).length === 0, 15_000);
      await waitFor('the orphan dropped', async () => !(await exists(orphan)), 15_000);
      expect(await exists(foreign)).toBe(true);
      await maria.query('DROP USER ?@?', [foreign, '127.0.0.1']);
    } finally {
      await maria.end();
    }
  }, 150_000);
});
