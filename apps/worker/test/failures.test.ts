import { parseRun } from '@poolbench/db';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { publishCancel } from '@poolbench/queue';
import { TERMINAL_RUN_STATUSES } from '@poolbench/contracts';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  createWorld,
  pidsAlive,
  stopChild,
  recordedChildren,
  settle,
  sustained,
  waitFor,
  type World,
} from './harness';

/** k6 start-ups for a run, from the worker's structured log ('k6 started' lines). */
function world_k6Starts(w: World, runId: string): number {
  return w.logs.filter((l) => l.includes('"msg":"k6 started"') && l.includes(runId)).length;
}

describe('worker: whatever fails, runs end truthfully', () => {
  let w: World;
  beforeAll(async () => {
    w = await createWorld('failures');
  });
  afterEach(async () => w?.killWorkers());
  afterAll(async () => w?.dispose(), 120_000);

  it('cancel mid-run: status canceled long before the load would end, with k6 and the target already gone and partial data kept', async () => {
    w.startWorker();
    const pc = await w.poolConfig('lazy cancel', 'lazy', { maxConns: 2 });
    // 120 s of load: a cancel that is ignored cannot end before the 30 s bound below
    const sc = await w.scenario('120 s cancel', sustained(2, 120_000));
    const { runIds } = await w.launch([pc.id], [sc.id]);
    const runId = runIds[0]!;
    await w.waitForStatus(runId, ['running']);
    await waitFor(
      '3 stored seconds',
      async () => (await w.db.runSecond.count({ where: { runId } })) >= 3,
    );
    const children = await waitFor('k6 and the target recorded', async () => {
      const r = recordedChildren(w.runtimeDir).filter((x) => x.runId === runId);
      return ['k6', 'lab-target'].every((k) => r.some((x) => x.kind === k)) ? r : null;
    });
    const asked = Date.now();
    await w.db.run.update({ where: { id: runId }, data: { cancelRequestedAt: new Date() } });
    await publishCancel(w.redis, runId);
    const run = await w.waitForStatus(runId, [...TERMINAL_RUN_STATUSES], 30_000);
    // read at once: a terminal status is written only after the run's processes are gone
    const left = recordedChildren(w.runtimeDir).filter((r) => r.runId === runId);
    const alive = pidsAlive(children.map((c) => c.pid));
    expect(run.status).toBe('canceled');
    expect(run.finishedAt!.getTime() - asked).toBeLessThan(30_000);
    expect(left, 'recorded children of the run when it read canceled').toEqual([]);
    expect(
      children.filter((c) => alive.includes(c.pid)).map((c) => `${c.kind} ${c.pid}`),
      'processes of the run alive when it read canceled',
    ).toEqual([]);
    expect(await w.db.runSecond.count({ where: { runId } })).toBeGreaterThanOrEqual(3);
    expect(parseRun(run).summary!.requests).toBeGreaterThan(0);
  });

  it('kill -9 of the worker mid-run: aborted_system with partial data, target and k6 gone, never re-run', async () => {
    // a shorter job lock than the default 30 s: the dead worker's job is failed sooner
    const lock = { RUN_JOB_LOCK_MS: '6000' };
    const worker = w.startWorker(lock);
    const pc = await w.poolConfig('lazy kill', 'lazy', { maxConns: 2 }, 2);
    const sc = await w.scenario('40 s kill', sustained(2, 40_000));
    const { runIds } = await w.launch([pc.id], [sc.id]);
    const runId = runIds[0]!;
    await w.waitForStatus(runId, ['running']);
    await waitFor(
      '2 stored seconds',
      async () => (await w.db.runSecond.count({ where: { runId } })) >= 2,
    );
    const children = await waitFor('k6 recorded', async () => {
      const r = recordedChildren(w.runtimeDir).filter((x) => x.runId === runId);
      return r.some((x) => x.kind === 'k6') ? r : null;
    });
    expect(children.filter((c) => c.kind === 'lab-target')).toHaveLength(2);
    await stopChild(worker, 'SIGKILL');
    const startedAt = (await w.db.run.findUniqueOrThrow({ where: { id: runId } })).startedAt;

    // A fresh worker sweeps what the dead one left behind. The bound is the fresh worker's start
    // and its stale-run sweep (RUN_STALE_AFTER_MS 6 s) on a loaded machine, far below the 40 s load.
    w.startWorker(lock);
    const run = await w.waitForStatus(runId, [...TERMINAL_RUN_STATUSES], 60_000);
    expect(run.status).toBe('aborted_system');
    expect(run.errorCode).toBe('worker_lost');
    expect(run.startedAt).toEqual(startedAt);
    expect(run.durationHist?.length).toBeGreaterThan(0);
    expect(parseRun(run).summary!.requests).toBeGreaterThan(0);
    await waitFor(
      'orphans killed',
      async () => pidsAlive(children.map((c) => c.pid)).length === 0,
      30_000,
    );
    const rowsAfter = await w.db.runSecond.count({ where: { runId } });
    // The dead worker's job is never waiting again: the live worker's stall check fails it
    // (maxStalledCount 0) once its lock has expired, and the run is terminal, so no claim could succeed anyway.
    await waitFor(
      'the stalled job failed, not re-queued',
      async () => (await w.queue.getJobState(runId)) === 'failed',
      90_000,
    );
    // nothing ran it again while the job went from active to failed: no new row, one k6 start
    expect(await w.db.runSecond.count({ where: { runId } })).toBe(rowsAfter);
    expect(world_k6Starts(w, runId)).toBe(1);
  });

  it('the same run delivered twice starts one k6', async () => {
    w.startWorker({ WORKER_CONCURRENCY: '2' });
    const pc = await w.poolConfig('lazy dup', 'lazy', { maxConns: 2 });
    const sc = await w.scenario('3 s dup', sustained(2, 3000));
    const { runIds } = await w.launch([pc.id], [sc.id]);
    const runId = runIds[0]!;
    // A second job carrying the same run, as an at-least-once redelivery would.
    const dup = await w.queue.add('run', { runId }, { jobId: `${runId}-redelivered`, attempts: 1 });
    const run = await w.waitForStatus(runId, [...TERMINAL_RUN_STATUSES]);
    expect(run.status).toBe('succeeded');
    await waitFor('duplicate job done', async () =>
      ['completed', 'failed'].includes(await w.queue.getJobState(dup.id!)),
    );
    await waitFor('original job done', async () =>
      ['completed', 'failed'].includes(await w.queue.getJobState(runId)),
    );
    const outcomes = [
      (await w.queue.getJob(dup.id!))?.returnvalue?.status,
      (await w.queue.getJob(runId))?.returnvalue?.status,
    ].sort();
    expect(outcomes).toEqual(['skipped', 'succeeded']);
    expect(world_k6Starts(w, runId)).toBe(1);
  });

  it('an invalid job payload fails with a validation error and the worker keeps serving', async () => {
    w.startWorker();
    const bad = await w.queue.add(
      'run',
      { runId: 'not an id!' },
      { jobId: 'bad-payload', attempts: 1 },
    );
    await waitFor('bad job failed', async () => (await w.queue.getJobState(bad.id!)) === 'failed');
    const job = await w.queue.getJob(bad.id!);
    expect(job?.failedReason).toMatch(/invalid run job payload: runId: must be an id/);
    const pc = await w.poolConfig('lazy after bad', 'lazy', { maxConns: 2 });
    const sc = await w.scenario('2 s after bad', sustained(1, 2000));
    const { runIds } = await w.launch([pc.id], [sc.id]);
    expect((await w.waitForStatus(runIds[0]!, [...TERMINAL_RUN_STATUSES])).status).toBe(
      'succeeded',
    );
  });

  it('a target resolving to a disallowed address is refused before any load', async () => {
    let hits = 0;
    const server = createServer((_req, res) => {
      hits++;
      res.end('ok');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const port = (server.address() as { port: number }).port;
      const target = await w.db.target.create({
        data: {
          teamId: w.ids.teamId,
          name: 'internal service',
          kind: 'url',
          baseUrls: [`http://localhost:${port}`],
          requestDefaults: {},
          secretHeaderNames: [],
          readinessPath: '/',
        },
      });
      const pc = await w.db.poolConfig.create({
        data: {
          teamId: w.ids.teamId,
          targetId: target.id,
          name: 'as deployed',
          strategy: 'lazy',
          params: { maxConns: 2 },
        },
      });
      const sc = await w.scenario('2 s url', { ...sustained(1, 2000), readyPath: '/' });
      w.startWorker();
      const { runIds } = await w.launch([pc.id], [sc.id], 1, target.id);
      const run = await w.waitForStatus(runIds[0]!, [...TERMINAL_RUN_STATUSES]);
      expect(run.status).toBe('failed');
      expect(run.errorCode).toBe('target_not_allowed');
      expect(run.errorMessage).toMatch(/load to localhost \((?:127\.0\.0\.1|::1)\) is not allowed/);
      expect(hits).toBe(0);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});

describe('worker: Postgres unavailable for a few seconds mid-run', () => {
  let w: World;
  beforeAll(async () => {
    w = await createWorld('pgoutage');
  });
  afterEach(async () => w?.killWorkers());
  afterAll(async () => w?.dispose(), 120_000);

  it('loses no per-second row', async () => {
    w.startWorker();
    const pc = await w.poolConfig('lazy outage', 'lazy', { maxConns: 2 });
    const sc = await w.scenario('12 s outage', sustained(2, 12_000));
    const { runIds } = await w.launch([pc.id], [sc.id]);
    const runId = runIds[0]!;
    await w.waitForStatus(runId, ['running']);
    await waitFor(
      '2 stored seconds',
      async () => (await w.db.runSecond.count({ where: { runId } })) >= 2,
    );
    // Refuse new connections to the test database and drop the worker's, for 4 s.
    const dbName = (await w.db.$queryRaw<{ d: string }[]>`SELECT current_database() AS d`)[0]!.d;
    const psql = (sql: string) =>
      execFileSync(
        'psql',
        ['-h', '127.0.0.1', '-p', '54329', '-U', 'poolbench', '-d', 'postgres', '-tAc', sql],
        { env: { ...process.env, PGPASSWORD: 'poolbench' }, timeout: 15_000 },
      );
    psql(`ALTER DATABASE "${dbName}" ALLOW_CONNECTIONS false`);
    try {
      psql(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${dbName}' AND application_name = 'poolbench-worker'`,
      );
      await new Promise((r) => setTimeout(r, 4000));
    } finally {
      psql(`ALTER DATABASE "${dbName}" ALLOW_CONNECTIONS true`);
    }
    const run = await w.waitForStatus(runId, [...TERMINAL_RUN_STATUSES], 60_000);
    expect(run.status).toBe('succeeded');
    const seconds = await w.db.runSecond.findMany({
      where: { runId },
      orderBy: { second: 'asc' },
      select: { second: true, requests: true },
    });
    const first = seconds[0]!.second;
    expect(seconds.map((s) => s.second)).toEqual(seconds.map((_, i) => first + i)); // no gap
    expect(parseRun(run).summary!.requests).toBe(seconds.reduce((n, s) => n + s.requests, 0));
    expect(seconds.length).toBeGreaterThanOrEqual(12);
    expect(w.logs.some((l) => l.includes('per-second write failed'))).toBe(true); // the outage was real
  });
});

describe('worker: Redis restarted mid-run', () => {
  let w: World;
  let redis: ChildProcess | undefined;
  const port = 16000 + Math.floor(Math.random() * 2000);
  const dir = mkdtempSync(join(tmpdir(), 'pb-redis-'));
  /** A redis-server keeping its append-only file in `dir`; resolves once it answers. */
  const startRedis = async () => {
    const child = spawn(
      'redis-server',
      [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--save',
        '',
        '--appendonly',
        'yes',
        '--dir',
        dir,
        '--maxmemory-policy',
        'noeviction',
      ],
      { stdio: 'ignore' },
    );
    await waitFor(
      `redis-server on ${port}`,
      () =>
        new Promise<boolean>((resolve) => {
          const s = connect(port, '127.0.0.1', () => {
            s.destroy();
            resolve(alive(child));
          }).on('error', () => resolve(false));
        }),
      20_000,
    );
    return child;
  };
  const alive = (c: ChildProcess) => c.exitCode === null && c.signalCode === null;
  beforeAll(async () => {
    redis = await startRedis();
    w = await createWorld('redisrestart', { redisUrl: `redis://127.0.0.1:${port}` });
  });
  afterEach(async () => w?.killWorkers());
  afterAll(async () => {
    await settle('redis restart', [
      ['world', async () => w?.dispose(), 90_000],
      ['redis-server', async () => redis && stopChild(redis, 'SIGKILL')],
      ['redis dir', async () => rmSync(dir, { recursive: true, force: true })],
    ]);
  }, 120_000);

  it('the run completes, the worker reconnects and takes the next job', async () => {
    w.startWorker();
    const pc = await w.poolConfig('lazy redis', 'lazy', { maxConns: 2 });
    const sc = await w.scenario('10 s redis', sustained(2, 10_000));
    const { runIds } = await w.launch([pc.id], [sc.id]);
    await w.waitForStatus(runIds[0]!, ['running']);
    await stopChild(redis!, 'SIGKILL');
    await new Promise((r) => setTimeout(r, 2000));
    redis = await startRedis();
    const first = await w.waitForStatus(runIds[0]!, [...TERMINAL_RUN_STATUSES], 60_000);
    expect(first.status).toBe('succeeded');
    w.reconnectRedis();
    const sc2 = await w.scenario('2 s after restart', sustained(1, 2000));
    const second = await w.launch([pc.id], [sc2.id]);
    expect(
      (await w.waitForStatus(second.runIds[0]!, [...TERMINAL_RUN_STATUSES], 60_000)).status,
    ).toBe('succeeded');
  });
});
