import { parseRun } from '@poolbench/db';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startLifecycleSweeper } from '@poolbench/runs';
import pino from 'pino';
import { TERMINAL_RUN_STATUSES } from '@poolbench/contracts';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  createWorld,
  pidsAlive,
  recordedChildren,
  settle,
  stopChild,
  sustained,
  tcpProxy,
  waitFor,
  type World,
} from './harness';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

describe('lifecycle: kill -9 of the only worker, nothing else alive but the web app', () => {
  let w: World;
  beforeAll(async () => {
    w = await createWorld('kill9alone');
  });
  afterEach(async () => w?.killWorkers());
  afterAll(async () => w?.dispose(), 120_000);

  it('the run ends aborted_system (worker_lost) within 30 s, its k6 and targets die within 10 s, data and the experiment end state kept', async () => {
    const worker = w.startWorker();
    const pc = await w.poolConfig('lazy kill alone', 'lazy', { maxConns: 2 }, 2);
    const sc = await w.scenario('40 s kill alone', sustained(2, 40_000));
    const { runIds, experimentId } = await w.launch([pc.id], [sc.id]);
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
    expect(children.map((c) => c.kind).sort()).toEqual([
      'blobstore',
      'k6',
      'lab-target',
      'lab-target',
    ]);

    // The web app's sweeper, exactly as the web process runs it (the only process left).
    const sweeper = startLifecycleSweeper(
      { db: w.db, queue: w.queue, log: pino({ level: 'silent' }) },
      { staleAfterMs: 6000, intervalMs: 1000 },
    );
    try {
      await stopChild(worker, 'SIGKILL');
      const killedAt = Date.now();
      // no worker is left to sweep the registry: the kernel's parent-death signal must do it
      await waitFor(
        'k6 and targets gone',
        async () => pidsAlive(children.map((c) => c.pid)).length === 0,
        10_000,
      );
      expect(Date.now() - killedAt).toBeLessThan(10_000);

      const run = await w.waitForStatus(runId, [...TERMINAL_RUN_STATUSES], 30_000);
      expect(Date.now() - killedAt).toBeLessThan(30_000);
      expect(run).toMatchObject({ status: 'aborted_system', errorCode: 'worker_lost' });
      expect(parseRun(run).summary!.requests).toBeGreaterThan(0);
      expect(run.durationHist?.length).toBeGreaterThan(0);
      const rows = await w.db.runSecond.count({ where: { runId } });
      expect(rows).toBeGreaterThanOrEqual(2);
      const exp = await w.db.experiment.findUniqueOrThrow({ where: { id: experimentId } });
      expect(exp.status).toBe('failed');
      expect(exp.finishedAt).not.toBeNull();
      // never re-run: the job stays with the dead worker (no live worker checks stalls), not waiting
      expect(await w.queue.getJobState(runId)).toBe('active');
      await new Promise((r) => setTimeout(r, 2000));
      expect(await w.db.runSecond.count({ where: { runId } })).toBe(rows);
    } finally {
      await sweeper.stop();
    }
  });
});

describe('lifecycle: `make down` (scripts/stack.sh stop) while a run is running', () => {
  let w: World;
  let data: string;
  beforeAll(async () => {
    w = await createWorld('makedown');
    data = mkdtempSync(join(tmpdir(), 'pb-makedown-'));
    const dbName = (await w.db.$queryRaw<{ name: string }[]>`SELECT current_database() AS name`)[0]!
      .name;
    const base = new URL(
      process.env.DATABASE_URL ?? 'postgresql://poolbench:poolbench@127.0.0.1:54329/poolbench',
    );
    base.pathname = `/${dbName}`;
    // the installation's env file, as `make up` writes it, pointing at this test's world
    writeFileSync(
      join(data, 'poolbench.env'),
      [
        `DATABASE_URL=${base.toString()}`,
        `REDIS_URL=${process.env.REDIS_URL ?? 'redis://127.0.0.1:63799'}`,
        `QUEUE_PREFIX=${w.prefix}`,
        'WORKER_ID=makedown-worker',
        'WORKER_HEALTH_PORT=0',
        'RUN_HEARTBEAT_MS=500',
        'WORKER_SHUTDOWN_GRACE_MS=2000',
        'LOG_LEVEL=info',
        '',
      ].join('\n'),
      { mode: 0o600 },
    );
  });
  afterAll(async () => {
    await settle('make down', [
      [
        'stack.sh stop worker',
        async () => {
          if (!data) return;
          try {
            execFileSync('bash', [join(REPO, 'scripts/stack.sh'), 'stop', 'worker'], {
              env: { ...process.env, POOLBENCH_DATA_DIR: data },
              stdio: 'ignore',
              timeout: 30_000,
            });
          } catch {
            // already stopped
          }
        },
        35_000,
      ],
      ['world', async () => w?.dispose(), 60_000],
      ['data dir', async () => data && rmSync(data, { recursive: true, force: true })],
    ]);
  }, 120_000);

  it('the worker gets its SIGTERM grace: the run ends aborted_system (worker_shutdown) with its data, and no k6 or target is left', async () => {
    const env = { ...process.env, POOLBENCH_DATA_DIR: data };
    execFileSync('bash', [join(REPO, 'scripts/stack.sh'), 'start', 'worker'], {
      env,
      stdio: 'ignore',
    });
    const workerPid = Number(readFileSync(join(data, 'run/worker.pid'), 'utf8'));
    const pc = await w.poolConfig('lazy makedown', 'lazy', { maxConns: 2 });
    const sc = await w.scenario('60 s makedown', sustained(2, 60_000));
    const { runIds, experimentId } = await w.launch([pc.id], [sc.id]);
    const runId = runIds[0]!;
    await w.waitForStatus(runId, ['running'], 60_000);
    await waitFor(
      '3 stored seconds',
      async () => (await w.db.runSecond.count({ where: { runId } })) >= 3,
    );
    const runtime = join(data, 'worker-runtime'); // the default runtime dir, under the installation's data
    const children = await waitFor('k6 recorded', async () => {
      const r = recordedChildren(runtime).filter((x) => x.runId === runId);
      return r.some((x) => x.kind === 'k6') ? r : null;
    });

    const out = execFileSync('bash', [join(REPO, 'scripts/stack.sh'), 'stop'], {
      env,
      encoding: 'utf8',
    });
    expect(out).not.toMatch(/did not stop/); // it exited by itself, within its grace
    expect(pidsAlive([workerPid])).toEqual([]);
    expect(pidsAlive(children.map((c) => c.pid))).toEqual([]);
    const run = await w.db.run.findUniqueOrThrow({ where: { id: runId } });
    expect(run).toMatchObject({ status: 'aborted_system', errorCode: 'worker_shutdown' });
    expect(parseRun(run).summary!.requests).toBeGreaterThan(0);
    expect(await w.db.runSecond.count({ where: { runId } })).toBeGreaterThanOrEqual(3);
    const exp = await w.db.experiment.findUniqueOrThrow({ where: { id: experimentId } });
    expect(exp.status).toBe('failed');
    expect(exp.finishedAt).not.toBeNull();
  });
});

const viaProxy = (url: string, port: number) => {
  const u = new URL(url);
  u.hostname = '127.0.0.1';
  u.port = String(port);
  return u.toString();
};

describe('lifecycle: only the worker loses Redis for 10 s mid-run', () => {
  let w: World;
  let proxy: Awaited<ReturnType<typeof tcpProxy>>;
  beforeAll(async () => {
    proxy = await tcpProxy(
      Number(new URL(process.env.REDIS_URL ?? 'redis://127.0.0.1:63799').port),
    );
    w = await createWorld('redisoutage');
  });
  afterEach(async () => w?.killWorkers());
  afterAll(async () => {
    await settle('redis outage', [
      ['world', async () => w?.dispose(), 90_000],
      ['proxy', async () => proxy?.close()],
    ]);
  }, 120_000);

  it('the run completes, the heartbeat reports the queue lost and regained, the worker logs it once each and takes the next run', async () => {
    w.startWorker({
      // the same user and password, through the proxy
      REDIS_URL: viaProxy(process.env.REDIS_URL ?? 'redis://127.0.0.1:63799', proxy.port),
      WORKER_HEARTBEAT_MS: '1000',
    });
    const beat = () =>
      w.db.worker.findFirst({
        where: { id: { startsWith: 'test-redisoutage' } },
        select: { queueConnected: true, lastSeenAt: true },
      });
    const pc = await w.poolConfig('lazy outage', 'lazy', { maxConns: 2 });
    const sc = await w.scenario('20 s outage', sustained(2, 20_000));
    const { runIds, experimentId } = await w.launch([pc.id], [sc.id]);
    await w.waitForStatus(runIds[0]!, ['running'], 60_000);
    await waitFor(
      'heartbeat says the queue is up',
      async () => (await beat())?.queueConnected === true,
      15_000,
    );

    await proxy.cut();
    const cutAt = Date.now();
    // reported while Redis is still cut (10 s below), with room for a loaded machine's heartbeat
    await waitFor(
      'heartbeat says the queue is lost',
      async () => (await beat())?.queueConnected === false,
      8000,
    );
    await new Promise((r) => setTimeout(r, 10_000 - (Date.now() - cutAt)));
    await proxy.restore();
    await waitFor(
      'heartbeat says the queue is back',
      async () => (await beat())?.queueConnected === true,
      15_000,
    );

    const run = await w.waitForStatus(runIds[0]!, [...TERMINAL_RUN_STATUSES], 60_000);
    expect(run.status).toBe('succeeded');
    expect((await w.db.experiment.findUniqueOrThrow({ where: { id: experimentId } })).status).toBe(
      'completed',
    );
    // Postgres stayed up: every second of the 20 s load is stored, and nothing of the run is left running
    expect(
      await w.db.runSecond.count({ where: { runId: runIds[0]!, requests: { gt: 0 } } }),
    ).toBeGreaterThanOrEqual(19);
    expect(recordedChildren(w.runtimeDir).filter((c) => c.runId === runIds[0])).toEqual([]);

    const sc2 = await w.scenario('2 s after outage', sustained(1, 2000));
    const second = await w.launch([pc.id], [sc2.id]);
    expect(
      (await w.waitForStatus(second.runIds[0]!, [...TERMINAL_RUN_STATUSES], 60_000)).status,
    ).toBe('succeeded');

    const lost = w.logs.filter(
      (l) => l.includes('"state":"lost"') && l.includes('"dependency":"redis"'),
    );
    const regained = w.logs.filter(
      (l) => l.includes('"state":"regained"') && l.includes('"dependency":"redis"'),
    );
    expect(lost).toHaveLength(1);
    expect(regained).toHaveLength(1);
    const stackLines = w.logs.filter(
      (l) => /^\s+at /.test(l) || (l.includes('ECONNREFUSED') && !l.startsWith('{')),
    );
    expect(stackLines).toEqual([]);
  });
});
