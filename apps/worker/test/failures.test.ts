import { parseRun } from '@poolbench/db';
import { execFileSync, spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { publishCancel } from '@poolbench/queue';
import { TERMINAL_RUN_STATUSES } from '@poolbench/scenarios';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createWorld,
  pidsAlive,
  recordedChildren,
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
  afterAll(async () => w?.dispose());

  it('cancel mid-run: k6 stops within 5 s, partial data kept, status canceled', async () => {
    const worker = w.startWorker();
    const pc = await w.poolConfig('lazy cancel', 'lazy', { maxConns: 2 });
    const sc = await w.scenario('30 s cancel', sustained(2, 30_000));
    const { runIds } = await w.launch([pc.id], [sc.id]);
    const runId = runIds[0]!;
    await w.waitForStatus(runId, ['running']);
    await waitFor(
      '3 stored seconds',
      async () => (await w.db.runSecond.count({ where: { runId } })) >= 3,
    );
    const asked = Date.now();
    await w.db.run.update({ where: { id: runId }, data: { cancelRequestedAt: new Date() } });
    await publishCancel(w.redis, runId);
    const run = await w.waitForStatus(runId, [...TERMINAL_RUN_STATUSES], 20_000);
    expect(run.status).toBe('canceled');
    expect(run.finishedAt!.getTime() - asked).toBeLessThan(8000);
    const k6 = recordedChildren(w.runtimeDir).filter((r) => r.runId === runId);
    expect(k6).toEqual([]);
    expect(await w.db.runSecond.count({ where: { runId } })).toBeGreaterThanOrEqual(3);
    expect(parseRun(run).summary!.requests).toBeGreaterThan(0);
    worker.kill('SIGTERM');
    await new Promise((r) => worker.once('exit', r));
  });

  it('kill -9 of the worker mid-run: aborted_system with partial data, target and k6 gone, never re-run', async () => {
    const worker = w.startWorker();
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
    worker.kill('SIGKILL');
    await new Promise((r) => worker.once('exit', r));
    const killedAt = Date.now();
    const startedAt = (await w.db.run.findUniqueOrThrow({ where: { id: runId } })).startedAt;

    // A fresh worker sweeps what the dead one left behind.
    const next = w.startWorker();
    const run = await w.waitForStatus(runId, [...TERMINAL_RUN_STATUSES], 45_000);
    expect(run.status).toBe('aborted_system');
    expect(run.errorCode).toBe('worker_lost');
    expect(Date.now() - killedAt).toBeLessThan(30_000);
    expect(run.startedAt).toEqual(startedAt);
    expect(run.durationHist?.length).toBeGreaterThan(0);
    expect(parseRun(run).summary!.requests).toBeGreaterThan(0);
    await waitFor(
      'orphans killed',
      async () => pidsAlive(children.map((c) => c.pid)).length === 0,
      10_000,
    );
    const rowsAfter = await w.db.runSecond.count({ where: { runId } });
    await new Promise((r) => setTimeout(r, 3000));
    expect(await w.db.runSecond.count({ where: { runId } })).toBe(rowsAfter); // nothing is running it again
    // The dead worker's job is never waiting again: the live worker's stall check fails it
    // (maxStalledCount 0) once its lock has expired, and the run is terminal, so no claim could succeed anyway.
    await waitFor(
      'the stalled job failed, not re-queued',
      async () => (await w.queue.getJobState(runId)) === 'failed',
      60_000,
    );
    next.kill('SIGTERM');
    await new Promise((r) => next.once('exit', r));
  });

  it('the same run delivered twice starts one k6', async () => {
    const worker = w.startWorker({ WORKER_CONCURRENCY: '2' });
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
    worker.kill('SIGTERM');
    await new Promise((r) => worker.once('exit', r));
  });

  it('an invalid job payload fails with a validation error and the worker keeps serving', async () => {
    const worker = w.startWorker();
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
    worker.kill('SIGTERM');
    await new Promise((r) => worker.once('exit', r));
  });

  it('a target resolving to a disallowed address is refused before any load', async () => {
    let hits = 0;
    const server = createServer((_req, res) => {
      hits++;
      res.end('ok');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
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
    const worker = w.startWorker();
    const { runIds } = await w.launch([pc.id], [sc.id], 1, target.id);
    const run = await w.waitForStatus(runIds[0]!, [...TERMINAL_RUN_STATUSES]);
    expect(run.status).toBe('failed');
    expect(run.errorCode).toBe('target_not_allowed');
    expect(run.errorMessage).toMatch(/load to localhost \((?:127\.0\.0\.1|::1)\) is not allowed/);
    expect(hits).toBe(0);
    server.close();
    worker.kill('SIGTERM');
    await new Promise((r) => worker.once('exit', r));
  });
});

describe('worker: Postgres unavailable for a few seconds mid-run', () => {
  let w: World;
  beforeAll(async () => {
    w = await createWorld('pgoutage');
  });
  afterAll(async () => w?.dispose());

  it('loses no per-second row', async () => {
    const worker = w.startWorker();
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
        { env: { ...process.env, PGPASSWORD: 'poolbench' } },
      );
    psql(`ALTER DATABASE "${dbName}" ALLOW_CONNECTIONS false`);
    psql(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${dbName}' AND application_name = 'poolbench-worker'`,
    );
    await new Promise((r) => setTimeout(r, 4000));
    psql(`ALTER DATABASE "${dbName}" ALLOW_CONNECTIONS true`);
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
    worker.kill('SIGTERM');
    await new Promise((r) => worker.once('exit', r));
  });
});

describe('worker: Redis restarted mid-run', () => {
  let w: World;
  let redis: ReturnType<typeof spawn>;
  const port = 16000 + Math.floor(Math.random() * 2000);
  const startRedis = () =>
    spawn(
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
        '/tmp',
        '--appendfilename',
        `pb-test-${port}.aof`,
        '--maxmemory-policy',
        'noeviction',
      ],
      { stdio: 'ignore' },
    );
  beforeAll(async () => {
    redis = startRedis();
    await new Promise((r) => setTimeout(r, 300));
    w = await createWorld('redisrestart', { redisUrl: `redis://127.0.0.1:${port}` });
  });
  afterAll(async () => {
    await w?.dispose();
    redis?.kill('SIGKILL');
  });

  it('the run completes, the worker reconnects and takes the next job', async () => {
    const worker = w.startWorker();
    const pc = await w.poolConfig('lazy redis', 'lazy', { maxConns: 2 });
    const sc = await w.scenario('10 s redis', sustained(2, 10_000));
    const { runIds } = await w.launch([pc.id], [sc.id]);
    await w.waitForStatus(runIds[0]!, ['running']);
    redis.kill('SIGKILL');
    await new Promise((r) => setTimeout(r, 2000));
    redis = startRedis();
    await new Promise((r) => setTimeout(r, 500));
    const first = await w.waitForStatus(runIds[0]!, [...TERMINAL_RUN_STATUSES], 60_000);
    expect(first.status).toBe('succeeded');
    w.reconnectRedis();
    const sc2 = await w.scenario('2 s after restart', sustained(1, 2000));
    const second = await w.launch([pc.id], [sc2.id]);
    expect(
      (await w.waitForStatus(second.runIds[0]!, [...TERMINAL_RUN_STATUSES], 60_000)).status,
    ).toBe('succeeded');
    worker.kill('SIGTERM');
    await new Promise((r) => worker.once('exit', r));
  });
});
