import { createDb, installationId } from '@poolbench/db';
import {
  createRunQueue,
  createStateLog,
  producerConnection,
  RunControlSchema,
  watchConnections,
  workerConnection,
} from '@poolbench/queue';
import { startLifecycleSweeper } from '@poolbench/runs';
import { sweepRunUsers } from './targets/sweep-run-users';
import { sweepLabShapes } from './targets/lab-shapes';
import { RUN_CONTROL_CHANNEL } from '@poolbench/contracts';
import pino from 'pino';
import { runtimeBinsOf, type WorkerEnv } from './env';
import { startHeartbeat } from './heartbeat';
import { createWorkerMetrics, startOpsServer } from './ops/ops-server';
import { deliverDueNotifications } from './notify/deliver-notifications';
import { createRunWorker } from './runs/run-worker';
import { ScheduleService } from './schedules';
import { ProcessRegistry } from './targets/process-registry';

export const POOLBENCH_VERSION = '0.1.0';
const IDEMPOTENCY_KEY_TTL_MS = 7 * 24 * 3600 * 1000;

/** Wires the worker's parts together; returns a handle whose close() is the graceful shutdown. */
export async function startWorkerApp(env: WorkerEnv) {
  const log = pino({ level: env.LOG_LEVEL, base: { worker: env.WORKER_ID } });
  const db = createDb({
    url: env.DATABASE_URL,
    applicationName: 'poolbench-worker',
    max: 5 + env.WORKER_CONCURRENCY * 2,
  });
  const state = createStateLog(log);
  // One dependency, "redis", for all five connections: lost once on the first error, regained
  // once when every connection is ready again (not a stack trace per retry per connection).
  const redisConns = watchConnections(state, 'redis');
  const watched = redisConns.add;
  const workerConn = watched(workerConnection(env.REDIS_URL));
  const scheduleConn = watched(workerConnection(env.REDIS_URL));
  const subConn = watched(workerConnection(env.REDIS_URL));
  const pubConn = watched(producerConnection(env.REDIS_URL));
  const queueConn = watched(workerConnection(env.REDIS_URL));
  const onQueueError = (err: Error) => state.failed('redis', err);
  const metrics = createWorkerMetrics();
  const registry = new ProcessRegistry(env.POOLBENCH_RUNTIME_DIR);

  // Anything a dead worker on this host left running goes first.
  registry.sweepOrphans((msg, rec) =>
    log.warn({ pid: rec.pid, kind: rec.kind, runId: rec.runId }, msg),
  );

  const heartbeat = await startHeartbeat(db, {
    id: env.WORKER_ID,
    version: POOLBENCH_VERSION,
    concurrency: env.WORKER_CONCURRENCY,
    intervalMs: env.WORKER_HEARTBEAT_MS,
    queueConnected: async () =>
      redisConns.allReady() &&
      (await pubConn.ping().then(
        (r) => r === 'PONG',
        () => false,
      )),
    onError: (err) => state.failed('postgres (worker heartbeat)', err),
  });

  const runQueue = createRunQueue(queueConn, env.QUEUE_PREFIX);
  runQueue.on('error', onQueueError);
  const active = new Set<string>();
  const deps = {
    db,
    redis: pubConn,
    workerId: env.WORKER_ID,
    log,
    registry,
    metrics,
    active,
    runQueue,
    config: {
      k6Bin: env.POOLBENCH_K6_BIN,
      labTargetBin: env.LAB_TARGET_BIN,
      labDatabaseUrl: env.LAB_DATABASE_URL,
      labMariadbUrl: env.LAB_MARIADB_URL,
      runtimeBins: runtimeBinsOf(env),
      ownDatabaseUrl: env.DATABASE_URL,
      readyTimeoutMs: env.RUN_READY_TIMEOUT_MS,
      heartbeatMs: env.RUN_HEARTBEAT_MS,
      timeoutMarginMs: env.RUN_TIMEOUT_MARGIN_MS,
      poolbenchVersion: POOLBENCH_VERSION,
      distributed: {
        advertiseHost: env.WORKER_ADVERTISE_HOST,
        joinTimeoutMs: env.SEGMENT_JOIN_TIMEOUT_MS,
        startLeadMs: env.SEGMENT_START_LEAD_MS,
        staleAfterMs: env.SEGMENT_STALE_AFTER_MS,
      },
    },
  };
  const runWorker = createRunWorker(workerConn, deps, {
    concurrency: env.WORKER_CONCURRENCY,
    prefix: env.QUEUE_PREFIX,
    lockMs: env.RUN_JOB_LOCK_MS,
  });
  runWorker.on('error', onQueueError);
  const schedules = new ScheduleService(
    db,
    scheduleConn,
    runQueue,
    log,
    env.QUEUE_PREFIX,
    onQueueError,
  );

  // Cancel requests reach the job running the run (jobId = runId); the database flag covers missed messages.
  subConn.on('message', (channel, message) => {
    if (channel !== RUN_CONTROL_CHANNEL) return;
    try {
      const ctl = RunControlSchema.parse(JSON.parse(message));
      if (runWorker.cancelJob(ctl.runId, 'cancel'))
        log.info({ runId: ctl.runId }, 'cancel requested');
    } catch {
      // not ours
    }
  });
  await subConn.subscribe(RUN_CONTROL_CHANNEL);

  const sweeper = startLifecycleSweeper(
    { db, queue: runQueue, log },
    { staleAfterMs: env.RUN_STALE_AFTER_MS, intervalMs: env.SWEEP_INTERVAL_MS },
  );
  const housekeeping = async () => {
    await schedules.sync().then(
      () => state.ok('redis (schedule sync)'),
      (err) => state.failed('redis (schedule sync)', err),
    );
    // Idempotency keys only need to outlive a CI job's retries.
    await db.idempotencyKey
      .deleteMany({ where: { createdAt: { lt: new Date(Date.now() - IDEMPOTENCY_KEY_TTL_MS) } } })
      .catch((err) => state.failed('postgres (key cleanup)', err));
    const counts = await runQueue
      .getJobCounts('waiting', 'prioritized', 'active', 'completed', 'failed', 'delayed')
      .catch(() => null);
    if (counts) for (const [s, n] of Object.entries(counts)) metrics.jobs.set({ state: s }, n);
    // per-run database users of runs that ended (a worker killed with -9 never dropped them)
    await sweepRunUsers({
      db,
      labDatabaseUrl: env.LAB_DATABASE_URL,
      labMariadbUrl: env.LAB_MARIADB_URL,
    }).then(
      (swept) => {
        state.ok('lab databases (run users)');
        if (swept.postgres.length + swept.mariadb.length)
          log.info(swept, 'dropped database users of ended runs');
      },
      (err) => state.failed('lab databases (run users)', err),
    );
    await sweepShapes();
  };
  // Shape databases nothing of this installation used for LAB_SHAPE_RETENTION_DAYS: hourly is
  // plenty for a retention counted in days.
  let shapesSweptAt = 0;
  const sweepShapes = async () => {
    if (Date.now() - shapesSweptAt < 3_600_000) return;
    shapesSweptAt = Date.now();
    const installation = await installationId(db).catch((err: unknown) => {
      state.failed('postgres (installation id)', err);
      return null;
    });
    if (!installation) return;
    const servers = [
      { server: 'postgres' as const, baseUrl: env.LAB_DATABASE_URL },
      { server: 'mariadb' as const, baseUrl: env.LAB_MARIADB_URL },
    ];
    for (const s of servers)
      await sweepLabShapes({
        db,
        ...s,
        installation,
        retentionDays: env.LAB_SHAPE_RETENTION_DAYS,
      }).then(
        (swept) => {
          state.ok(`lab databases (${s.server} shapes)`);
          if (swept.dropped.length + swept.released.length + swept.skipped.length)
            log.info({ server: s.server, ...swept }, 'lab shape databases swept');
        },
        (err) => state.failed(`lab databases (${s.server} shapes)`, err),
      );
  };
  await sweeper.sweepNow();
  await housekeeping();
  const housekeeper = setInterval(() => void housekeeping(), env.SWEEP_INTERVAL_MS);
  housekeeper.unref();
  // Schedule webhooks: sent by whichever worker claims them first (docs/notifications.md).
  let notifying: Promise<unknown> | null = null;
  const notify = () => {
    notifying ??= deliverDueNotifications(db, log, {
      appUrl: env.POOLBENCH_URL ?? env.BETTER_AUTH_URL,
    })
      .then(
        () => state.ok('postgres (webhook delivery)'),
        (err) => state.failed('postgres (webhook delivery)', err),
      )
      .finally(() => (notifying = null));
  };
  const notifier = setInterval(notify, env.NOTIFY_INTERVAL_MS);
  notifier.unref();

  const ops = env.WORKER_HEALTH_PORT
    ? startOpsServer(env.WORKER_HEALTH_PORT, metrics, async () => {
        await db.$queryRaw`SELECT 1`;
        const redisOk = (await pubConn.ping().catch(() => 'down')) === 'PONG';
        return {
          ok: redisOk && runWorker.isRunning(),
          worker: env.WORKER_ID,
          activeRuns: [...active],
          redis: redisOk,
        };
      })
    : null;

  schedules.startWorker(scheduleConn);
  void runWorker.run();
  await runWorker.waitUntilReady().catch(() => {});
  await heartbeat.beatNow(); // the first heartbeat ran before the connections were up
  log.info({ concurrency: env.WORKER_CONCURRENCY }, 'worker started');

  let closing: Promise<void> | null = null;
  return {
    log,
    db,
    runQueue,
    close(graceMs = env.WORKER_SHUTDOWN_GRACE_MS): Promise<void> {
      closing ??= (async () => {
        log.info({ graceMs, active: active.size }, 'shutting down: no new jobs');
        clearInterval(housekeeper);
        clearInterval(notifier);
        await notifying;
        await sweeper.stop();
        const closed = runWorker.close();
        // Runs still going after the grace period are stopped (partial data kept, aborted_system).
        const timer = setTimeout(() => runWorker.cancelAllJobs('shutdown'), graceMs);
        await closed;
        clearTimeout(timer);
        await schedules.close().catch(() => {});
        await runQueue.close().catch(() => {});
        await heartbeat.stop();
        ops?.close();
        for (const c of redisConns.connections()) c.disconnect();
        await db.$disconnect();
        log.info('worker stopped');
      })();
      return closing;
    },
  };
}
