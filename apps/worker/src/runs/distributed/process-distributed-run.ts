import { parseRun, parseTarget, type Db } from '@poolbench/db';
import { publishRunEvent, RUN_JOB_OPTIONS } from '@poolbench/queue';
import {
  cancelWaitingSegments,
  claimRun,
  closedSecondsBefore,
  heartbeatSegment,
  createSegments,
  finishRun,
  heartbeatRun,
  markRunning,
  markSegmentReady,
  mergeSegmentSeconds,
  recordStartSkew,
  type TerminalStatus,
} from '@poolbench/runs';
import { evaluateThresholds, generateScenario, RunJobSchema } from '@poolbench/scenarios';
import { thresholdContextFromSummary } from '@poolbench/k6';
import { RunError } from '../run-error';
import { environmentFingerprint } from '../environment';
import { outcomeFromError, type AbortReason, type Outcome } from '../outcome';
import { prepareTarget, type PreparedTarget } from '../prepare-target';
import { k6TimeoutMs, planRun } from '../run-plan';
import { toSeriesPoint } from '../series-point';
import { b64ToBytes, buildSummary } from '../summary';
import type { RunDeps, RunOutcome } from '../process-run';
import { pinsForRecord } from '../../targets/resolve-and-pin';
import { targetHeadersOf } from '../../targets/target-headers';
import { ResourceSampler, type ResourceRow } from '../../sampling/resource-sampler';
import { toResourceSampleRow } from '../../sampling/sample-row';
import { MetricsWriter } from '../../metrics/metrics-writer';
import { distributedOutcome } from './distributed-outcome';
import { runGenerator, type GeneratorResult } from './run-generator';
import { summaryFromMergedRows } from './merged-summary';
import { waitForGenerators, waitForSegmentsEnd } from './wait-for-generators';

export interface DistributedConfig {
  /** WORKER_ADVERTISE_HOST: where other workers reach the managed targets this worker starts */
  advertiseHost: string;
  joinTimeoutMs: number;
  startLeadMs: number;
  staleAfterMs: number;
}
const DEFAULTS: DistributedConfig = {
  advertiseHost: '127.0.0.1',
  joinTimeoutMs: 120_000,
  startLeadMs: 3000,
  staleAfterMs: 3000,
};

export const segmentJobId = (runId: string, index: number) => `${runId}-g${index}`;

export async function isDistributedRun(db: Db, runId: string): Promise<boolean> {
  const r = await db.run.findUnique({ where: { id: runId }, select: { loadGenerators: true } });
  return (r?.loadGenerators ?? 1) > 1;
}

/**
 * The leader of a run on N > 1 load generators (the worker that took the run's own job): claims
 * the run, creates its N segments and enqueues segment jobs 1..N-1 for other workers, starts the
 * target once (on WORKER_ADVERTISE_HOST), holds the start barrier, runs segment 0 itself, merges
 * the generators' seconds exactly while they arrive and at the end, and ends the run. A failed or
 * silent segment stops the others and ends the run aborted_system, with every segment's data.
 */
export async function processDistributedRun(
  runId: string,
  deps: RunDeps,
  signal: AbortSignal,
): Promise<RunOutcome> {
  const { db, workerId } = deps;
  const cfg = { ...DEFAULTS, ...deps.config.distributed };
  const log = deps.log.child({ runId, segment: 0 });
  if (!(await claimRun(db, runId, workerId)))
    return { runId, status: 'skipped', reason: 'not claimable' };
  const claimedAt = Date.now();
  deps.metrics.runsActive.inc();
  deps.active.add(runId);
  const own = new AbortController();
  const runSignal = AbortSignal.any([signal, own.signal]);
  const abortReason = () => (runSignal.aborted ? (String(runSignal.reason) as AbortReason) : null);
  const publish = (e: Parameters<typeof publishRunEvent>[1]) =>
    publishRunEvent(deps.redis, e).catch(() => {});
  const hb = setInterval(() => {
    heartbeatRun(db, runId, workerId)
      .then(({ alive, cancelRequested }) =>
        !alive ? own.abort('lost') : cancelRequested ? own.abort('cancel') : undefined,
      )
      .catch((err) => log.warn({ err: String(err) }, 'run heartbeat failed'));
    void publish({ type: 'heartbeat', runId, atMs: Date.now() });
  }, deps.config.heartbeatMs);
  // Segment 0 is this worker's too: its peers judge the leader alive by it, also while it waits,
  // so it beats well inside their stale limit.
  const segHb = setInterval(
    () => {
      if (count > 0) void heartbeatSegment(db, runId, 0, workerId).catch(() => {});
    },
    Math.min(deps.config.heartbeatMs, Math.floor(cfg.staleAfterMs / 3)),
  );

  let target: PreparedTarget | null = null;
  let sampler: ResourceSampler | null = null;
  let merging: NodeJS.Timeout | null = null;
  let count = 0;
  let finalStatus: TerminalStatus = 'failed';
  const writer = new MetricsWriter(db);
  const finish = async (
    outcome: Outcome,
    data: Omit<Parameters<typeof finishRun>[3], 'status' | 'errorCode' | 'errorMessage'> = {},
  ) => {
    finalStatus = outcome.status;
    if (abortReason() === 'lost')
      return log.warn('run was ended elsewhere while running; not overwriting its status');
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
    const row = await db.run.findUniqueOrThrow({
      where: { id: runId },
      include: { target: true, team: { select: { allowedHosts: { select: { pattern: true } } } } },
    });
    const run = { ...parseRun(row), target: parseTarget(row.target) };
    count = run.loadGenerators;
    await createSegments(db, runId, count, workerId);
    if (!deps.runQueue)
      throw new RunError(
        'internal_error',
        'this worker has no run queue to hand out load generator segments',
      );
    await deps.runQueue.addBulk(
      Array.from({ length: count - 1 }, (_, i) => ({
        name: 'segment',
        data: RunJobSchema.parse({ runId, segment: i + 1 }),
        // Ahead of every other run's job: a started run waits for these, not the reverse.
        opts: { ...RUN_JOB_OPTIONS, jobId: segmentJobId(runId, i + 1), priority: 1 },
      })),
    );
    void publish({
      type: 'status',
      runId,
      status: 'preparing',
      atMs: Date.now(),
      message: `waiting for ${count} load generators`,
    });
    const plan = planRun(run);
    target = await prepareTarget(
      run,
      plan.poolConfig,
      {
        ...deps.config,
        registry: deps.registry,
        listenHost: run.target.kind === 'managed' ? cfg.advertiseHost : undefined,
      },
      runSignal,
    );
    const generated = generateScenario(plan.scenario, {
      hosts: target.network.k6Hosts,
      targetHeaders: run.target.kind === 'url' ? targetHeadersOf(run.target.requestDefaults) : {},
    });
    await markSegmentReady(db, runId, 0, workerId, target.baseUrls);
    const startAt = await waitForGenerators(db, {
      runId,
      count,
      joinTimeoutMs: cfg.joinTimeoutMs,
      startLeadMs: cfg.startLeadMs,
      staleAfterMs: cfg.staleAfterMs,
      signal: runSignal,
      onWaiting: (message) => {
        log.info(message);
        void publish({ type: 'status', runId, status: 'preparing', atMs: Date.now(), message });
      },
    });
    const timeoutMs = k6TimeoutMs(generated.estimatedDurationMs, deps.config.timeoutMarginMs);
    const environment = await environmentFingerprint({
      k6Bin: deps.config.k6Bin,
      labTargetBin: run.target.kind === 'managed' ? deps.config.labTargetBin : undefined,
      workerId,
      poolbenchVersion: deps.config.poolbenchVersion,
    });
    const recorded = {
      ...environment,
      network: { pins: pinsForRecord(target.network) },
      loadGenerators: count,
      startAt: startAt.toISOString(),
    };
    if (
      !(await markRunning(db, runId, workerId, { script: generated.script, environment: recorded }))
    ) {
      throw new RunError('canceled', 'the run was ended by someone else before load started');
    }
    void publish({ type: 'status', runId, status: 'running', atMs: Date.now() });

    const t0 = Math.floor(startAt.getTime() / 1000);
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
    // The live chart: seconds every generator has closed (each has written a later second) are
    // merged and published; the final merge below rewrites them complete (idempotent).
    // seconds may start slightly below 0 (a generator's clock); the live chart starts at -5 as before
    let published = -6;
    let liveBusy = false;
    merging = setInterval(() => {
      if (liveBusy) return;
      liveBusy = true;
      void closedSecondsBefore(db, runId, count)
        .then(async (upTo) => {
          if (upTo === null || upTo <= published + 1) return;
          const rows = await mergeSegmentSeconds(db, runId, { from: published + 1, to: upTo });
          for (const row of rows)
            void publish({
              type: 'second',
              runId,
              atMs: Date.now(),
              point: toSeriesPoint(row, resourceByUnix.get(t0 + row.second)),
            });
          published = upTo - 1;
        })
        .catch((err) => log.warn({ err: String(err) }, 'live merge failed'))
        .finally(() => {
          liveBusy = false;
        });
    }, 1000);

    const gen: GeneratorResult = await runGenerator({
      db,
      log,
      registry: deps.registry,
      runId,
      index: 0,
      count,
      workerId,
      startAt,
      script: generated.script,
      baseUrls: target.baseUrls,
      blacklistIps: target.network.k6Blacklist,
      secretHeaders: target.secretHeaders,
      k6Bin: deps.config.k6Bin,
      timeoutMs,
      heartbeatMs: deps.config.heartbeatMs,
      staleAfterMs: cfg.staleAfterMs,
      signal: runSignal,
    });
    await waitForSegmentsEnd(db, runId, cfg.staleAfterMs, 30_000 + cfg.staleAfterMs);
    clearInterval(merging);
    merging = null;
    await sampler.stop();
    sampler = null;
    await target
      .stop()
      .catch((err) => log.warn({ err: String(err) }, 'stopping the target failed'));

    const merged = await mergeSegmentSeconds(db, runId);
    await recordStartSkew(db, runId);
    const segments = await db.runSegment.findMany({ where: { runId }, orderBy: { index: 'asc' } });
    const k6Summary = summaryFromMergedRows(merged);
    const starts = segments.filter((s) => s.loadStartedAt && s.loadMs !== null);
    const load = starts.length
      ? {
          startMs: Math.min(...starts.map((s) => s.loadStartedAt!.getTime())),
          endMs: Math.max(...starts.map((s) => s.loadStartedAt!.getTime() + s.loadMs!)),
        }
      : undefined;
    const summary = buildSummary(
      { summary: k6Summary, load },
      allTotals.filter((r) => r.unixSecond >= t0),
    );
    const thresholds = evaluateThresholds(
      plan.scenario.thresholds,
      thresholdContextFromSummary(
        k6Summary,
        summary.durationMs > 0 ? summary.durationMs / 1000 : undefined,
      ),
    );
    const outcome = distributedOutcome({
      segments,
      own: gen,
      abortReason: abortReason(),
      timeoutMs,
      thresholds,
    });
    const unwritten = await writer.flush();
    if (unwritten > 0)
      outcome.errorMessage = `${outcome.errorMessage ? `${outcome.errorMessage}; ` : ''}${unwritten} resource rows could not be stored`;
    await finish(outcome, {
      summary,
      thresholdResults: thresholds,
      durationHist: b64ToBytes(k6Summary.histograms.http_req_duration),
      blockedHist: b64ToBytes(k6Summary.histograms.http_req_blocked),
    });
    log.info(
      { status: finalStatus, requests: summary.requests, segments: count },
      'distributed run finished',
    );
    return { runId, status: finalStatus };
  } catch (err) {
    const re =
      err instanceof RunError
        ? err
        : new RunError('internal_error', (err as Error)?.message ?? String(err));
    if (re.code === 'internal_error') log.error({ err }, 'distributed run failed unexpectedly');
    else log.warn({ code: re.code, msg: re.message }, 'distributed run failed');
    await cancelWaitingSegments(db, runId, re.message).catch(() => {});
    await writer.flush(10_000).catch(() => {});
    const outcome = outcomeFromError(re.code, re.message, abortReason());
    // Too few generators is a wait that ran out: timed_out with the reason, not a failure of the target.
    if (re.code === 'load_generators_unavailable') outcome.status = 'timed_out';
    if (re.code === 'segment_failed' && outcome.status === 'failed')
      outcome.status = 'aborted_system';
    await finish(outcome).catch((e) =>
      log.error({ err: String(e) }, 'could not record the run failure'),
    );
    return { runId, status: finalStatus, reason: re.message };
  } finally {
    clearInterval(hb);
    clearInterval(segHb);
    if (merging) clearInterval(merging);
    await sampler?.stop();
    await target?.stop().catch(() => {});
    await cancelWaitingSegments(db, runId, 'the run ended').catch(() => {});
    // Segment jobs nobody took are removed (a taken one finds its segment canceled and skips).
    for (let i = 1; i < count; i++)
      await deps.runQueue?.remove(segmentJobId(runId, i)).catch(() => {});
    deps.active.delete(runId);
    deps.metrics.runsActive.dec();
    deps.metrics.runsFinished.inc({ status: finalStatus });
    deps.metrics.runDuration.observe((Date.now() - claimedAt) / 1000);
  }
}
