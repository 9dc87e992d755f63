import { UnrecoverableError } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { LAB_SETUP, openSecret, scenarioFromColumns, type Db, type Prisma } from '@poolbench/db';
import { publishRunEvent } from '@poolbench/queue';
import {
  evaluateThresholds,
  generateScenario,
  PoolConfigSchema,
  RunJobSchema,
  ScenarioSchema,
  type PoolConfig,
  type Scenario,
} from '@poolbench/scenarios';
import { runK6, thresholdContextFromSummary } from '@poolbench/k6';
import { claimRun, finishRun, heartbeatRun, markRunning, refreshExperimentStatus, type TerminalStatus } from './transitions';
import { RunError } from './run-error';
import { environmentFingerprint } from './environment';
import { toSeriesPoint } from './series-point';
import { b64ToBytes, bucketToRow, buildSummary } from './summary';
import { redactUrlsIn } from '@poolbench/scenarios/net';
import { pinsForRecord, resolveAndPin, type RunNetworkPlan } from '../targets/resolve-and-pin';
import { checkMonitorDsn } from '../targets/monitor-dsn';
import { targetHeadersOf } from '../targets/target-headers';
import { loadEnv } from '../env';
import { ensureLabData, startManagedTarget, type LabSetup } from '../targets/managed-target';
import { prepareUrlTarget } from '../targets/url-target';
import type { ProcessRegistry } from '../targets/process-registry';
import { DbActivityMonitor } from '../sampling/db-activity';
import { ResourceSampler, type ResourceRow, type SampleSource } from '../sampling/resource-sampler';
import { MetricsWriter } from '../metrics/metrics-writer';
import type { WorkerMetrics } from '../ops/ops-server';

export interface RunDeps {
  db: Db;
  /** publisher connection for live events */
  redis: Redis;
  workerId: string;
  log: Logger;
  registry: ProcessRegistry;
  metrics: WorkerMetrics;
  config: {
    k6Bin: string;
    labTargetBin: string;
    labDatabaseUrl: string;
    readyTimeoutMs: number;
    heartbeatMs: number;
    timeoutMarginMs: number;
    poolbenchVersion: string;
  };
}

export type AbortReason = 'cancel' | 'shutdown' | 'lost';

export interface RunOutcome {
  runId: string;
  status: TerminalStatus | 'skipped';
  reason?: string;
}

/** Active runs on this worker, so a cancel message or SIGTERM can reach them. */
export const activeRuns = new Map<string, AbortController>();

/**
 * Executes one run end to end: claim -> start/prepare the target -> k6 with the per-second
 * output -> samplers -> batched writes -> summary + thresholds -> truthful final status.
 * Any failure ends the run with a stable error code; nothing here re-runs a load test.
 */
export async function processRun(jobData: unknown, deps: RunDeps, signal: AbortSignal): Promise<RunOutcome> {
  const parsed = RunJobSchema.safeParse(jobData);
  if (!parsed.success) {
    const why = parsed.error.issues.map((i) => `${i.path.join('.') || 'payload'}: ${i.message}`).join('; ');
    throw new UnrecoverableError(`invalid run job payload: ${why}`);
  }
  const { runId } = parsed.data;
  const { db, log: baseLog, workerId } = deps;
  const log = baseLog.child({ runId });

  if (!(await claimRun(db, runId, workerId))) {
    log.info('run not claimable (already taken, finished or canceled): skipping');
    return { runId, status: 'skipped', reason: 'not claimable' };
  }
  const claimedAt = Date.now();
  deps.metrics.runsActive.inc();
  const controller = new AbortController();
  const onOuterAbort = () => controller.abort(signal.reason ?? 'shutdown');
  signal.addEventListener('abort', onOuterAbort);
  activeRuns.set(runId, controller);
  const publish = (e: Parameters<typeof publishRunEvent>[1]) => publishRunEvent(deps.redis, e).catch(() => {});

  // Heartbeat: proves liveness to the sweeper and picks up cancel requests made in the database.
  const hb = setInterval(() => {
    heartbeatRun(db, runId, workerId)
      .then(({ alive, cancelRequested }) => {
        if (!alive) controller.abort('lost');
        else if (cancelRequested) controller.abort('cancel');
      })
      .catch((err) => log.warn({ err: String(err) }, 'run heartbeat failed'));
    void publish({ type: 'heartbeat', runId, atMs: Date.now() });
  }, deps.config.heartbeatMs);

  let stopTarget: (() => Promise<void>) | null = null;
  let sampler: ResourceSampler | null = null;
  const writer = new MetricsWriter(db, {
    onError: (err, pending) => {
      deps.metrics.pendingRows.set(pending);
      log.warn({ err: String(err), pending }, 'per-second write failed; buffered for retry');
    },
  });
  let finalStatus: TerminalStatus = 'failed';
  let experimentId: string | null = null;
  try {
    void publish({ type: 'status', runId, status: 'preparing', atMs: Date.now() });
    const run = await db.run.findUniqueOrThrow({
      where: { id: runId },
      include: { target: true, team: { select: { allowedHosts: { select: { pattern: true } } } } },
    });
    experimentId = run.experimentId;

    // Snapshots are re-validated: a run must never execute something the contracts reject.
    const snap = run.poolConfigSnapshot as { strategy: string; params: unknown; instanceCount: number };
    const pc = PoolConfigSchema.safeParse({ strategy: snap.strategy, params: snap.params, instanceCount: snap.instanceCount });
    if (!pc.success) throw new RunError('invalid_snapshot', `pool config is invalid: ${pc.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
    const poolConfig: PoolConfig = pc.data;
    const sc = ScenarioSchema.safeParse(scenarioFromColumns(run.scenarioSnapshot as { templateId: string; params: unknown; thresholds: unknown }));
    if (!sc.success) throw new RunError('invalid_snapshot', `scenario is invalid: ${sc.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
    const scenario: Scenario = sc.data;
    let generated = generateScenario(scenario);

    // Target: started by us (managed) or prepared through its hook (URL); either way the
    // addresses are checked against the team's allowlist before any load.
    let baseUrls: string[];
    let plan: RunNetworkPlan;
    let sources: SampleSource[];
    let monitor: DbActivityMonitor | null = null;
    let secretHeaders: Record<string, string> = {};
    if (run.target.kind === 'managed') {
      const managed = (run.target.managed ?? {}) as { setup?: Partial<LabSetup> };
      const setup: LabSetup = { ...LAB_SETUP, ...managed.setup };
      await ensureLabData(deps.config.labTargetBin, deps.config.labDatabaseUrl, setup, controller.signal);
      const started = await startManagedTarget({
        bin: deps.config.labTargetBin,
        runId,
        databaseUrl: deps.config.labDatabaseUrl,
        poolConfig,
        instanceCount: poolConfig.instanceCount ?? 1,
        registry: deps.registry,
        readyTimeoutMs: deps.config.readyTimeoutMs,
        signal: controller.signal,
      });
      stopTarget = started.stop;
      baseUrls = started.instances.map((i) => i.baseUrl);
      sources = started.instances.map((i) => ({ index: i.index, pid: i.child.pid, metricsUrl: `${i.baseUrl}/metrics` }));
      monitor = new DbActivityMonitor(deps.config.labDatabaseUrl, `pb-${runId.slice(-10)}-`);
      plan = await resolveAndPin({ loadUrls: baseUrls.map((u, i) => [`baseUrls.${i}`, u]), probeUrls: [], patterns: [], allowLoopback: true });
    } else {
      baseUrls = run.target.baseUrls;
      // The apply hook and the metrics endpoint are called by the worker too: same allowlist, same pins.
      const sideUrls = (['applyHookUrl', 'metricsUrl'] as const).flatMap((f) => (run.target[f] ? [[f, run.target[f]] as [string, string]] : []));
      plan = await resolveAndPin({ loadUrls: baseUrls.map((u, i) => [`baseUrls.${i}`, u]), probeUrls: sideUrls, patterns: run.team.allowedHosts.map((h) => h.pattern) });
      let secrets: { headers?: Record<string, string>; monitorDsn?: string } = {};
      if (run.target.secretsEncrypted) {
        try {
          secrets = openSecret(run.target.secretsEncrypted);
        } catch (err) {
          throw new RunError('secret_unavailable', `the target's secrets cannot be opened on this worker (${(err as Error).message}); check POOLBENCH_SECRET_KEY`);
        }
      }
      if (secrets.monitorDsn) {
        const checked = await checkMonitorDsn(secrets.monitorDsn, { patterns: run.team.allowedHosts.map((h) => h.pattern), ownDatabaseUrl: loadEnv().DATABASE_URL });
        plan.pins.push(checked.pin);
        monitor = new DbActivityMonitor(checked.config, null);
      }
      await prepareUrlTarget({
        baseUrls,
        applyHookUrl: run.target.applyHookUrl,
        readinessPath: run.target.readinessPath,
        poolConfig,
        headers: secrets.headers ?? {},
        pins: plan.pins,
        readyTimeoutMs: deps.config.readyTimeoutMs,
        signal: controller.signal,
      });
      sources = run.target.metricsUrl ? [{ index: 0, metricsUrl: run.target.metricsUrl, pins: plan.pins }] : [];
      secretHeaders = secrets.headers ?? {};
    }

    generated = generateScenario(scenario, { hosts: plan.k6Hosts, targetHeaders: run.target.kind === 'url' ? targetHeadersOf(run.target.requestDefaults) : {} });
    const environment = await environmentFingerprint({
      k6Bin: deps.config.k6Bin,
      labTargetBin: run.target.kind === 'managed' ? deps.config.labTargetBin : undefined,
      workerId,
      poolbenchVersion: deps.config.poolbenchVersion,
    });
    if (!(await markRunning(db, runId, workerId, { script: generated.script, environment: { ...environment, network: { pins: pinsForRecord(plan) } } as Prisma.InputJsonValue }))) {
      throw new RunError('canceled', 'the run was ended by someone else before load started');
    }
    void publish({ type: 'status', runId, status: 'running', atMs: Date.now() });

    // Seconds are counted from the unix second k6 starts in; resource rows use the same clock.
    const t0 = Math.floor(Date.now() / 1000);
    const resourceByUnix = new Map<number, ResourceRow>();
    const allTotals: ResourceRow[] = [];
    sampler = new ResourceSampler(sources, monitor, (rows) => {
      writer.addSamples(
        rows.map((r) => ({
          runId, second: r.unixSecond - t0, instance: r.instance, ts: new Date(r.unixSecond * 1000),
          cpuPercent: r.cpuPercent, rssBytes: r.rssBytes === null ? null : BigInt(Math.round(r.rssBytes)),
          poolTotal: r.poolTotal, poolIdle: r.poolIdle, poolInUse: r.poolInUse, poolConstructing: r.poolConstructing, poolMax: r.poolMax,
          poolWaitCount: r.poolWaitCount, poolWaitMs: r.poolWaitMs, poolAcquireTimeouts: r.poolAcquireTimeouts, poolConnsCreated: r.poolConnsCreated,
          dbActive: r.dbActive, dbIdle: r.dbIdle, dbIdleInTx: r.dbIdleInTx, dbTotal: r.dbTotal, dbNewConns: r.dbNewConns, dbTooManyClients: r.dbTooManyClients,
        })),
      );
      const total = rows.find((r) => r.instance === -1);
      if (total) {
        resourceByUnix.set(total.unixSecond, total);
        allTotals.push(total);
      }
    }, (err) => log.warn({ err: String(err) }, 'sampler error'));
    sampler.start();
    writer.start();

    const timeoutMs = generated.estimatedDurationMs + Math.max(deps.config.timeoutMarginMs, generated.estimatedDurationMs * 0.2);
    let firstLoad = true;
    let k6Pid: number | undefined;
    const result = await runK6({
      script: generated.script,
      env: { BASE_URLS: baseUrls.join(',') },
      // Secret headers travel in k6's environment, never in the stored script or its command line.
      secretEnv: Object.keys(secretHeaders).length ? { POOLBENCH_SECRET_HEADERS: JSON.stringify(secretHeaders) } : undefined,
      signal: controller.signal,
      timeoutMs,
      stopGraceMs: 4000,
      k6Bin: deps.config.k6Bin,
      blacklistIps: plan.k6Blacklist,
      onSpawn: ({ pid }) => {
        k6Pid = pid;
        log.info({ pid }, 'k6 started');
        deps.registry.add({ pid, ownerPid: process.pid, runId, kind: 'k6', exe: deps.config.k6Bin });
      },
      onSecond: (bucket) => {
        if (firstLoad) {
          firstLoad = false;
          deps.metrics.enqueueToFirstRequest.observe((Date.now() - run.queuedAt.getTime()) / 1000);
        }
        const row = bucketToRow(runId, t0, bucket);
        writer.addSeconds([row]);
        void publish({ type: 'second', runId, atMs: Date.now(), point: toSeriesPoint(row, resourceByUnix.get(bucket.ts)) });
      },
    });
    if (k6Pid) deps.registry.remove(k6Pid);
    deps.metrics.lateSamples.inc(result.lateSamples);

    await sampler.stop();
    sampler = null;
    const loadTotals = allTotals.filter((r) => r.unixSecond >= t0);
    const summary = buildSummary(result.summary, loadTotals, result.testDurationMs);
    const thresholds = evaluateThresholds(
      scenario.thresholds,
      thresholdContextFromSummary(result.summary, result.testDurationMs ? result.testDurationMs / 1000 : undefined),
    );
    const reason = controller.signal.aborted ? (controller.signal.reason as AbortReason) : null;

    let errorCode: string | null = null;
    let errorMessage: string | null = null;
    if (result.endReason === 'completed') finalStatus = 'succeeded';
    else if (result.endReason === 'timed_out') {
      finalStatus = 'timed_out';
      errorCode = 'timed_out';
      errorMessage = `the run exceeded its wall-clock limit of ${Math.round(timeoutMs / 1000)} s (scenario length + margin); partial data kept`;
    } else if (result.endReason === 'aborted') {
      if (reason === 'shutdown') {
        finalStatus = 'aborted_system';
        errorCode = 'worker_shutdown';
        errorMessage = 'the worker was shut down during the run; partial data kept';
      } else {
        finalStatus = 'canceled';
        errorCode = 'canceled';
        errorMessage = 'canceled by a user; partial data kept';
      }
    } else {
      finalStatus = 'failed';
      errorCode = 'k6_error';
      errorMessage = redactUrlsIn(`k6 ended with exit code ${result.exitCode ?? 'unknown'}${result.k6Error ? ` (${result.k6Error})` : ''}: ${result.stderrTail.slice(-5).join(' | ')}`).slice(0, 2000);
    }
    const unwritten = await writer.flush();
    if (unwritten > 0) {
      errorMessage = `${errorMessage ? `${errorMessage}; ` : ''}${unwritten} per-second rows could not be stored`;
    }
    if (reason === 'lost') {
      log.warn('run was ended elsewhere while running; not overwriting its status');
      return { runId, status: 'skipped', reason: 'ended elsewhere' };
    }
    await finishRun(db, runId, workerId, {
      status: finalStatus,
      errorCode,
      errorMessage,
      summary: summary as unknown as Prisma.InputJsonValue,
      thresholdResults: thresholds as unknown as Prisma.InputJsonValue,
      durationHist: b64ToBytes(result.summary.histograms.http_req_duration),
      blockedHist: b64ToBytes(result.summary.histograms.http_req_blocked),
    });
    void publish({ type: 'status', runId, status: finalStatus, atMs: Date.now(), ...(errorMessage ? { message: errorMessage.slice(0, 2000) } : {}) });
    log.info({ status: finalStatus, requests: summary.requests }, 'run finished');
    return { runId, status: finalStatus };
  } catch (err) {
    const reason = controller.signal.aborted ? (controller.signal.reason as AbortReason) : null;
    const re = err instanceof RunError ? err : new RunError('internal_error', (err as Error)?.message ?? String(err));
    finalStatus = reason === 'cancel' || re.code === 'canceled' ? 'canceled' : reason === 'shutdown' ? 'aborted_system' : 'failed';
    if (re.code === 'internal_error') log.error({ err }, 'run failed unexpectedly');
    else log.warn({ code: re.code, msg: re.message }, 'run failed');
    await writer.flush(10_000).catch(() => {});
    if (reason !== 'lost') {
      await finishRun(db, runId, workerId, { status: finalStatus, errorCode: reason === 'shutdown' ? 'worker_shutdown' : re.code, errorMessage: re.message }).catch((e) =>
        log.error({ err: String(e) }, 'could not record the run failure'),
      );
      void publish({ type: 'status', runId, status: finalStatus, atMs: Date.now(), message: re.message.slice(0, 2000) });
    }
    return { runId, status: finalStatus, reason: re.message };
  } finally {
    clearInterval(hb);
    await sampler?.stop();
    await stopTarget?.().catch((err) => log.warn({ err: String(err) }, 'stopping the target failed'));
    signal.removeEventListener('abort', onOuterAbort);
    activeRuns.delete(runId);
    deps.metrics.runsActive.dec();
    deps.metrics.runsFinished.inc({ status: finalStatus });
    deps.metrics.runDuration.observe((Date.now() - claimedAt) / 1000);
    if (experimentId) await refreshExperimentStatus(db, experimentId).catch((err) => log.warn({ err: String(err) }, 'experiment status refresh failed'));
  }
}
