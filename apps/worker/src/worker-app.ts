import { createDb } from '@poolbench/db';
import { createRunQueue, producerConnection, RunControlSchema, workerConnection } from '@poolbench/queue';
import { RUN_CONTROL_CHANNEL } from '@poolbench/scenarios';
import pino from 'pino';
import type { WorkerEnv } from './env';
import { startHeartbeat } from './heartbeat';
import { createWorkerMetrics, startOpsServer } from './ops/ops-server';
import { activeRuns } from './runs/process-run';
import { requeueOrphanedRuns, sweepStaleRuns } from './runs/reconciler';
import { createRunWorker } from './runs/run-worker';
import { ScheduleService } from './schedules';
import { ProcessRegistry } from './targets/process-registry';

export const POOLBENCH_VERSION = '0.1.0';
const IDEMPOTENCY_KEY_TTL_MS = 7 * 24 * 3600 * 1000;

/** Wires the worker's parts together; returns a handle whose close() is the graceful shutdown. */
export async function startWorkerApp(env: WorkerEnv) {
  const log = pino({ level: env.LOG_LEVEL, base: { worker: env.WORKER_ID } });
  const db = createDb({ url: env.DATABASE_URL, applicationName: 'poolbench-worker', max: 5 + env.WORKER_CONCURRENCY * 2 });
  const workerConn = workerConnection(env.REDIS_URL);
  const scheduleConn = workerConnection(env.REDIS_URL);
  const subConn = workerConnection(env.REDIS_URL);
  const pubConn = producerConnection(env.REDIS_URL);
  const queueConn = workerConnection(env.REDIS_URL);
  for (const c of [workerConn, scheduleConn, subConn, pubConn, queueConn]) c.on('error', (err) => log.debug({ err: err.message }, 'redis connection error'));
  const metrics = createWorkerMetrics();
  const registry = new ProcessRegistry(env.POOLBENCH_RUNTIME_DIR);

  // Anything a dead worker on this host left running goes first.
  registry.sweepOrphans((msg, rec) => log.warn({ pid: rec.pid, kind: rec.kind, runId: rec.runId }, msg));

  const heartbeat = await startHeartbeat(db, {
    id: env.WORKER_ID,
    version: POOLBENCH_VERSION,
    concurrency: env.WORKER_CONCURRENCY,
    intervalMs: env.WORKER_HEARTBEAT_MS,
    onError: (err) => log.warn({ err: String(err) }, 'worker heartbeat failed'),
  });

  const runQueue = createRunQueue(queueConn, env.QUEUE_PREFIX);
  const shutdown = new AbortController();
  const deps = {
    db,
    redis: pubConn,
    workerId: env.WORKER_ID,
    log,
    registry,
    metrics,
    config: {
      k6Bin: env.POOLBENCH_K6_BIN,
      labTargetBin: env.LAB_TARGET_BIN,
      labDatabaseUrl: env.LAB_DATABASE_URL,
      readyTimeoutMs: env.RUN_READY_TIMEOUT_MS,
      heartbeatMs: env.RUN_HEARTBEAT_MS,
      timeoutMarginMs: env.RUN_TIMEOUT_MARGIN_MS,
      poolbenchVersion: POOLBENCH_VERSION,
    },
  };
  const runWorker = createRunWorker(workerConn, deps, { concurrency: env.WORKER_CONCURRENCY, prefix: env.QUEUE_PREFIX, shutdownSignal: shutdown.signal });
  const schedules = new ScheduleService(db, scheduleConn, runQueue, log, env.QUEUE_PREFIX);

  // Cancel requests reach the worker that runs the run; the database flag covers missed messages.
  subConn.on('message', (channel, message) => {
    if (channel !== RUN_CONTROL_CHANNEL) return;
    try {
      const ctl = RunControlSchema.parse(JSON.parse(message));
      const c = activeRuns.get(ctl.runId);
      if (c && !c.signal.aborted) {
        log.info({ runId: ctl.runId }, 'cancel requested');
        c.abort('cancel');
      }
    } catch {
      // not ours
    }
  });
  await subConn.subscribe(RUN_CONTROL_CHANNEL);

  const sweep = async () => {
    await sweepStaleRuns(db, { staleAfterMs: env.RUN_STALE_AFTER_MS, log }).catch((err) => log.warn({ err: String(err) }, 'stale-run sweep failed'));
    await requeueOrphanedRuns(db, runQueue, { olderThanMs: 10_000, log }).catch((err) => log.warn({ err: String(err) }, 'requeue sweep failed'));
    await schedules.sync().catch((err) => log.warn({ err: String(err) }, 'schedule sync failed'));
    // Idempotency keys only need to outlive a CI job's retries.
    await db.idempotencyKey
      .deleteMany({ where: { createdAt: { lt: new Date(Date.now() - IDEMPOTENCY_KEY_TTL_MS) } } })
      .catch((err) => log.warn({ err: String(err) }, 'idempotency key cleanup failed'));
    const counts = await runQueue.getJobCounts('waiting', 'prioritized', 'active', 'completed', 'failed', 'delayed').catch(() => null);
    if (counts) for (const [state, n] of Object.entries(counts)) metrics.jobs.set({ state }, n);
  };
  await sweep();
  const sweeper = setInterval(() => void sweep(), env.SWEEP_INTERVAL_MS);
  sweeper.unref();

  const ops = env.WORKER_HEALTH_PORT
    ? startOpsServer(env.WORKER_HEALTH_PORT, metrics, async () => {
        await db.$queryRaw`SELECT 1`;
        const redisOk = (await pubConn.ping().catch(() => 'down')) === 'PONG';
        return { ok: redisOk && runWorker.isRunning(), worker: env.WORKER_ID, activeRuns: [...activeRuns.keys()], redis: redisOk };
      })
    : null;

  schedules.startWorker(scheduleConn);
  void runWorker.run();
  log.info({ concurrency: env.WORKER_CONCURRENCY }, 'worker started');

  let closing: Promise<void> | null = null;
  return {
    log,
    db,
    runQueue,
    close(graceMs = env.WORKER_SHUTDOWN_GRACE_MS): Promise<void> {
      closing ??= (async () => {
        log.info({ graceMs, active: activeRuns.size }, 'shutting down: no new jobs');
        clearInterval(sweeper);
        const closed = runWorker.close();
        // Runs still going after the grace period are stopped (partial data kept, aborted_system).
        const timer = setTimeout(() => shutdown.abort('shutdown'), graceMs);
        await closed;
        clearTimeout(timer);
        await schedules.close().catch(() => {});
        await runQueue.close().catch(() => {});
        await heartbeat.stop();
        ops?.close();
        for (const c of [workerConn, scheduleConn, subConn, pubConn, queueConn]) c.disconnect();
        await db.$disconnect();
        log.info('worker stopped');
      })();
      return closing;
    },
  };
}
