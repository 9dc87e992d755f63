import { UnrecoverableError, type Queue } from 'bullmq';
import type { RuntimeBins } from '../targets/runtimes';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { parseRun, parseTarget, type Db } from '@poolbench/db';
import { publishRunEvent } from '@poolbench/queue';
import {
  claimRun,
  finishRun,
  heartbeatRun,
  markRunning,
  type TerminalStatus,
} from '@poolbench/runs';
import { evaluateThresholds, generateScenario, RunJobSchema } from '@poolbench/scenarios';
import { runK6, thresholdContextFromSummary } from '@poolbench/k6';
import { RunError, toRunError } from './run-error';
import { environmentFingerprint } from './environment';
import { outcomeFromError, outcomeFromK6, type AbortReason, type Outcome } from './outcome';
import { prepareTarget, type PreparedTarget } from './prepare-target';
import { k6TimeoutMs, planRun } from './run-plan';
import { toSeriesPoint } from './series-point';
import { b64ToBytes, bucketToRow, buildSummary } from './summary';
import { pinsForRecord } from '../targets/resolve-and-pin';
import { targetHeadersOf } from '../targets/target-headers';
import type { ProcessRegistry } from '../targets/process-registry';
import { ResourceSampler, type ResourceRow } from '../sampling/resource-sampler';
import { toResourceSampleRow } from '../sampling/sample-row';
import { MetricsWriter } from '../metrics/metrics-writer';
import type { WorkerMetrics } from '../ops/ops-server';
import {
  isDistributedRun,
  processDistributedRun,
  type DistributedConfig,
} from './distributed/process-distributed-run';

export interface RunDeps {
  db: Db;
  /** publisher connection for live events */
  redis: Redis;
  workerId: string;
  log: Logger;
  registry: ProcessRegistry;
  metrics: WorkerMetrics;
  /** ids of the runs this worker is executing now (for its health endpoint) */
  active: Set<string>;
  /** where a distributed run's leader enqueues its generators' segment jobs */
  runQueue?: Queue;
  config: {
    k6Bin: string;
    labTargetBin: string;
    labDatabaseUrl: string;
    /** the MariaDB lab database and the runtimes' programs (docs/runtimes.md) */
    labMariadbUrl: string;
    runtimeBins: RuntimeBins;
    /** PoolBench's own database, which no monitor DSN may point at */
    ownDatabaseUrl: string;
    readyTimeoutMs: number;
    heartbeatMs: number;
    timeoutMarginMs: number;
    poolbenchVersion: string;
    distributed?: DistributedConfig;
  };
}

export interface RunOutcome {
  runId: string;
  status: TerminalStatus | 'skipped';
  reason?: string;
}

/**
 * Executes one run end to end: claim → plan → prepare the target → k6 with the per-second output
 * and the samplers → batched writes → summary + thresholds → truthful final status. `signal` is
 * BullMQ's per-job signal: `worker.cancelJob(runId, 'cancel')` for a user's cancel,
 * `cancelAllJobs('shutdown')` when the shutdown grace is over. Nothing here re-runs a load test.
 */
export async function processRun(
  jobData: unknown,
  deps: RunDeps,
  signal: AbortSignal,
): Promise<RunOutcome> {
  const parsed = RunJobSchema.safeParse(jobData);
  if (!parsed.success) {
    const why = parsed.error.issues
      .map((i) => `${i.path.join('.') || 'payload'}: ${i.message}`)
      .join('; ');
    throw new UnrecoverableError(`invalid run job payload: ${why}`);
  }
  const { runId } = parsed.data;
  const { db, workerId } = deps;
  const log = deps.log.child({ runId });
  // Several load generators: the same claim, then the leader's path (one k6 segment per worker).
  if (await isDistributedRun(db, runId)) return processDistributedRun(runId, deps, signal);
  if (!(await claimRun(db, runId, workerId))) {
    log.info('run not claimable (already taken, finished or canceled): skipping');
    return { runId, status: 'skipped', reason: 'not claimable' };
  }
  const claimedAt = Date.now();
  deps.metrics.runsActive.inc();
  deps.active.add(runId);
  // The job's signal (cancel, shutdown) or the heartbeat's findings (cancel flag, lost) stop the run.
  const own = new AbortController();
  const runSignal = AbortSignal.any([signal, own.signal]);
  const abortReason = () => (runSignal.aborted ? (String(runSignal.reason) as AbortReason) : null);
  const publish = (e: Parameters<typeof publishRunEvent>[1]) =>
    publishRunEvent(deps.redis, e).catch(() => {});
  const hb = setInterval(() => {
    heartbeatRun(db, runId, workerId)
      .then(({ alive, cancelRequested }) => {
        if (!alive) own.abort('lost');
        else if (cancelRequested) own.abort('cancel');
      })
      .catch((err) => log.warn({ err: String(err) }, 'run heartbeat failed'));
    void publish({ type: 'heartbeat', runId, atMs: Date.now() });
  }, deps.config.heartbeatMs);

  let target: PreparedTarget | null = null;
  let sampler: ResourceSampler | null = null;
  const writer = new MetricsWriter(db, {
    onError: (err, pending) => {
      deps.metrics.pendingRows.set(pending);
      log.warn({ err: String(err), pending }, 'per-second write failed; buffered for retry');
    },
  });
  let finalStatus: TerminalStatus = 'failed';
  const finish = async (
    outcome: Outcome,
    data: Omit<Parameters<typeof finishRun>[3], 'status' | 'errorCode' | 'errorMessage'> = {},
  ) => {
    finalStatus = outcome.status;
    if (abortReason() === 'lost') {
      log.warn('run was ended elsewhere while running; not overwriting its status');
      return;
    }
    await finishRun(db, runId, workerId, { ...outcome, ...data });
    void publish({
      type: 'status',
      runId,
      status: outcome.status,
      atMs: Date.now(),
      ...(outcome.errorMessage ? { message: outcome.errorMessage.slice(0, 2000) } : {}),
    });
  };
  try {
    void publish({ type: 'status', runId, status: 'preparing', atMs: Date.now() });
    const row = await db.run.findUniqueOrThrow({
      where: { id: runId },
      include: { target: true, team: { select: { allowedHosts: { select: { pattern: true } } } } },
    });
    const run = { ...parseRun(row), target: parseTarget(row.target) };
    const plan = planRun(run);
    target = await prepareTarget(
      run,
      plan.poolConfig,
      { ...deps.config, registry: deps.registry },
      runSignal,
    );

    // The script that runs: k6 resolves nothing itself (hosts pinned to the checked addresses),
    // and a URL target's non-secret headers go on every request.
    const generated = generateScenario(plan.scenario, {
      hosts: target.network.k6Hosts,
      targetHeaders: run.target.kind === 'url' ? targetHeadersOf(row.target.requestDefaults) : {},
    });
    const timeoutMs = k6TimeoutMs(generated.estimatedDurationMs, deps.config.timeoutMarginMs);
    const environment = await environmentFingerprint({
      k6Bin: deps.config.k6Bin,
      labTargetBin: run.target.kind === 'managed' ? deps.config.labTargetBin : undefined,
      workerId,
      poolbenchVersion: deps.config.poolbenchVersion,
    });
    const recorded = { ...environment, network: { pins: pinsForRecord(target.network) } };
    if (
      !(await markRunning(db, runId, workerId, { script: generated.script, environment: recorded }))
    ) {
      throw new RunError('canceled', 'the run was ended by someone else before load started');
    }
    void publish({ type: 'status', runId, status: 'running', atMs: Date.now() });

    // Seconds are counted from the unix second k6 starts in; resource rows use the same clock.
    const t0 = Math.floor(Date.now() / 1000);
    const resourceByUnix = new Map<number, ResourceRow>();
    const allTotals: ResourceRow[] = [];
    sampler = new ResourceSampler(
      target.sources,
      target.monitor,
      (rows) => {
        writer.addSamples(rows.map((r) => toResourceSampleRow(runId, t0, r)));
        const total = rows.find((r) => r.instance === -1);
        if (total) {
          resourceByUnix.set(total.unixSecond, total);
          allTotals.push(total);
        }
      },
      (err) => log.warn({ err: String(err) }, 'sampler error'),
    );
    sampler.start();
    writer.start();

    let firstLoad = true;
    let k6Pid: number | undefined;
    const result = await runK6({
      script: generated.script,
      env: { BASE_URLS: target.baseUrls.join(',') },
      // Secret headers travel in k6's environment, never in the stored script or its command line.
      secretEnv: Object.keys(target.secretHeaders).length
        ? { POOLBENCH_SECRET_HEADERS: JSON.stringify(target.secretHeaders) }
        : undefined,
      signal: runSignal,
      timeoutMs,
      stopGraceMs: 4000,
      k6Bin: deps.config.k6Bin,
      blacklistIps: target.network.k6Blacklist,
      onSpawn: ({ pid }) => {
        k6Pid = pid;
        log.info({ pid }, 'k6 started');
        deps.registry.add({
          pid,
          ownerPid: process.pid,
          runId,
          kind: 'k6',
          exe: deps.config.k6Bin,
        });
      },
      onSecond: (bucket) => {
        if (firstLoad) {
          firstLoad = false;
          deps.metrics.enqueueToFirstRequest.observe((Date.now() - run.queuedAt.getTime()) / 1000);
        }
        const row = bucketToRow(runId, t0, bucket);
        writer.addSeconds([row]);
        void publish({
          type: 'second',
          runId,
          atMs: Date.now(),
          point: toSeriesPoint(row, resourceByUnix.get(bucket.ts)),
        });
      },
    });
    if (k6Pid) deps.registry.remove(k6Pid);
    deps.metrics.lateSamples.inc(result.lateSamples);

    await sampler.stop();
    sampler = null;
    const summary = buildSummary(
      result,
      allTotals.filter((r) => r.unixSecond >= t0),
    );
    const thresholds = evaluateThresholds(
      plan.scenario.thresholds,
      thresholdContextFromSummary(
        result.summary,
        summary.durationMs > 0 ? summary.durationMs / 1000 : undefined,
      ),
    );
    const outcome = outcomeFromK6({ ...result, abortReason: abortReason(), timeoutMs, thresholds });
    const unwritten = await writer.flush();
    if (unwritten > 0)
      outcome.errorMessage = `${outcome.errorMessage ? `${outcome.errorMessage}; ` : ''}${unwritten} per-second rows could not be stored`;
    await finish(outcome, {
      summary,
      thresholdResults: thresholds,
      durationHist: b64ToBytes(result.summary.histograms.http_req_duration),
      blockedHist: b64ToBytes(result.summary.histograms.http_req_blocked),
    });
    log.info({ status: finalStatus, requests: summary.requests }, 'run finished');
    return { runId, status: finalStatus };
  } catch (err) {
    const re = toRunError(err);
    if (re.code === 'internal_error') log.error({ err }, 'run failed unexpectedly');
    else log.warn({ code: re.code, msg: re.message }, 'run failed');
    await writer.flush(10_000).catch(() => {});
    await finish(outcomeFromError(re.code, re.message, abortReason())).catch((e) =>
      log.error({ err: String(e) }, 'could not record the run failure'),
    );
    return { runId, status: finalStatus, reason: re.message };
  } finally {
    clearInterval(hb);
    await sampler?.stop();
    await target
      ?.stop()
      .catch((err) => log.warn({ err: String(err) }, 'stopping the target failed'));
    deps.active.delete(runId);
    deps.metrics.runsActive.dec();
    deps.metrics.runsFinished.inc({ status: finalStatus });
    deps.metrics.runDuration.observe((Date.now() - claimedAt) / 1000);
  }
}
