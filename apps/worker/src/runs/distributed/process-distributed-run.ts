import { parseRunSegment, toJson, type Db } from '@poolbench/db';
import { RUN_JOB_OPTIONS } from '@poolbench/queue';
import {
  cancelWaitingSegments,
  closedSecondsBefore,
  heartbeatSegment,
  createSegments,
  markSegmentReady,
  mergeSegmentSeconds,
  recordStartSkew,
} from '@poolbench/runs';
import { evaluateThresholds } from '@poolbench/scenarios';
import { RunJobSchema } from '@poolbench/contracts';
import { insightCodesOf } from '../insight-codes';
import { thresholdContextFromSummary } from '@poolbench/k6';
import { RunError } from '../run-error';
import { runEnvironment } from '../environment';
import { generatorCpus } from '../cpu-isolation';
import { startDisturbance } from '../disturbance';
import { outcomeFromError } from '../outcome';
import { prepareTarget } from '../prepare-target';
import { k6TimeoutMs, planRun, templatePlan } from '../run-plan';
import { toSeriesPoint } from '../series-point';
import { b64ToBytes, buildSummary } from '../summary';
import { runSession, type RunSession } from '../run-session';
import { runLoad } from '../run-load';
import { runToExecute } from '../run-to-execute';
import type { ResourceRow } from '../../sampling/resource-sampler';
import type { DistributedConfig, RunDeps, RunOutcome } from '../run-deps';
import { distributedOutcome } from './distributed-outcome';
import { segmentMachines } from './segment-machines';
import { runGenerator, type GeneratorResult } from './run-generator';
import { subMetricsFromMergedRows, summaryFromMergedRows } from './merged-summary';
import { waitForGenerators, waitForSegmentsEnd } from './wait-for-generators';

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
 * The leader of a run on N > 1 load generators (the worker that took the run's own job), inside
 * the same run session as a single run: creates the N segments and enqueues segment jobs 1..N-1
 * for other workers, starts the target once (on WORKER_ADVERTISE_HOST), holds the start barrier,
 * runs segment 0 itself, merges the generators' seconds exactly while they arrive and at the end.
 * A failed or silent segment stops the others and ends the run aborted_system, with every
 * segment's data.
 */
export async function processDistributedRun(
  runId: string,
  deps: RunDeps,
  signal: AbortSignal,
): Promise<RunOutcome> {
  const { db, workerId } = deps;
  const cfg = { ...DEFAULTS, ...deps.config.distributed };
  const outcomeOfError = (re: RunError, reason: Parameters<typeof outcomeFromError>[2]) => {
    const outcome = outcomeFromError(re.code, re.message, reason);
    // Too few generators is a wait that ran out: timed_out with the reason, not a target failure.
    if (re.code === 'load_generators_unavailable') outcome.status = 'timed_out';
    if (re.code === 'segment_failed' && outcome.status === 'failed')
      outcome.status = 'aborted_system';
    return outcome;
  };
  const log = deps.log.child({ runId, segment: 0 });
  return runSession(runId, deps, signal, { log, outcomeOfError }, async (s) => {
    // what else used this generator's CPUs while the run was prepared
    const preparing = startDisturbance();
    const run = await runToExecute(db, runId);
    const count = run.loadGenerators;
    await createSegments(db, runId, count, workerId);
    // Segment 0 is this worker's: its peers judge the leader alive by it, also while it waits,
    // so it beats well inside their stale limit.
    const segHb = setInterval(
      () => void heartbeatSegment(db, runId, 0, workerId).catch(() => {}),
      Math.min(deps.config.heartbeatMs, Math.floor(cfg.staleAfterMs / 3)),
    );
    s.onCleanup('end the segments', async () => {
      clearInterval(segHb);
      await cancelWaitingSegments(db, runId, 'the run ended');
      // Segment jobs nobody took are removed (a taken one finds its segment canceled and skips).
      for (let i = 1; i < count; i++)
        await deps.runQueue?.remove(segmentJobId(runId, i)).catch(() => {});
    });
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
    s.publish({
      type: 'status',
      runId,
      status: 'preparing',
      atMs: Date.now(),
      message: `waiting for ${count} load generators`,
    });
    const plan = templatePlan(planRun(run));
    const target = s.adoptTarget(
      await prepareTarget(
        run,
        plan.poolConfig,
        {
          ...deps.config,
          registry: deps.registry,
          listenHost: run.target.kind === 'managed' ? cfg.advertiseHost : undefined,
        },
        s.signal,
      ),
    );
    const generated = runLoad(plan, target, {
      hosts: target.network.k6Hosts,
      targetHeaders: run.targetHeaders,
    });
    await markSegmentReady(db, runId, 0, workerId, target.baseUrls);
    const startAt = await waitForGenerators(db, {
      runId,
      count,
      joinTimeoutMs: cfg.joinTimeoutMs,
      startLeadMs: cfg.startLeadMs,
      staleAfterMs: cfg.staleAfterMs,
      signal: s.signal,
      onWaiting: (message) => {
        s.log.info(message);
        s.publish({ type: 'status', runId, status: 'preparing', atMs: Date.now(), message });
      },
    });
    const timeoutMs = k6TimeoutMs(generated.estimatedDurationMs, deps.config.timeoutMarginMs);
    const recorded = {
      ...(await runEnvironment(deps, run, target)),
      loadGenerators: count,
      startAt: startAt.toISOString(),
    };
    const { sampler, t0 } = await s.beginLoad(
      target,
      { script: generated.script, environment: recorded },
      Math.floor(startAt.getTime() / 1000),
    );
    const live = liveMerge(s, db, runId, count, t0, sampler.byUnix);
    s.onCleanup('stop the live merge', () => live.stop());

    const gen: GeneratorResult = await runGenerator({
      deps,
      log: s.log,
      runId,
      queuedAt: run.queuedAt,
      preparing,
      index: 0,
      count,
      startAt,
      load: generated,
      // the target runs here: this k6 keeps to its side of the run's CPU split
      target: { ...target, cpus: generatorCpus(target.isolation) },
      timeoutMs,
      staleAfterMs: cfg.staleAfterMs,
      signal: s.signal,
    });
    await waitForSegmentsEnd(db, runId, cfg.staleAfterMs, 30_000 + cfg.staleAfterMs);
    // The final merge runs alone: no live merge of this run is in flight after stop().
    await live.stop();
    await sampler.stop();
    await target
      .stop()
      .catch((err) => s.log.warn({ err: String(err) }, 'stopping the target failed'));

    const merged = await mergeSegmentSeconds(db, runId);
    await recordStartSkew(db, runId);
    const segments = (
      await db.runSegment.findMany({ where: { runId }, orderBy: { index: 'asc' } })
    ).map(parseRunSegment);
    // the generators' machines, recorded as a single run records its own
    const machines = segmentMachines(segments);
    const measured = {
      ...recorded,
      ...(machines.disturbance ? { disturbance: machines.disturbance } : {}),
      ...(machines.disturbanceBeforeStart
        ? { disturbanceBeforeStart: machines.disturbanceBeforeStart }
        : {}),
    };
    if (machines.disturbance || machines.disturbanceBeforeStart)
      await db.run
        .update({ where: { id: runId }, data: { environment: toJson.runEnvironment(measured) } })
        .catch((err: unknown) => s.log.warn({ err }, 'could not record the disturbance'));
    const k6Summary = summaryFromMergedRows(merged);
    const subMetrics = subMetricsFromMergedRows(
      merged,
      plan.scenario.thresholds.map((t) => t.metric),
    );
    const starts = segments.filter((g) => g.loadStartedAt && g.loadMs !== null);
    const load = starts.length
      ? {
          startMs: Math.min(...starts.map((g) => g.loadStartedAt!.getTime())),
          endMs: Math.max(...starts.map((g) => g.loadStartedAt!.getTime() + g.loadMs!)),
        }
      : undefined;
    const summary = buildSummary(
      { summary: k6Summary, load, subMetrics },
      machines.delivery,
      sampler.totals.filter((r) => r.unixSecond >= t0),
    );
    const thresholds = evaluateThresholds(
      plan.scenario.thresholds,
      thresholdContextFromSummary(
        k6Summary,
        summary.durationMs > 0 ? summary.durationMs / 1000 : undefined,
        subMetrics,
      ),
      insightCodesOf({
        summary,
        poolConfigSnapshot: run.poolConfigSnapshot,
        scenarioSnapshot: run.scenarioSnapshot,
        environment: measured,
        seconds: merged.map((m) => ({
          requests: m.requests,
          p50Ms: m.p50Ms ?? null,
          vus: m.vus,
          maxMs: m.maxMs ?? null,
        })),
        generatorCpuPeaks: segments.flatMap((g) =>
          g.cpuMaxPercent === null ? [] : [g.cpuMaxPercent],
        ),
      }),
    );
    return {
      outcome: distributedOutcome({
        segments,
        own: gen,
        abortReason: s.abortReason(),
        timeoutMs,
        thresholds,
      }),
      data: {
        summary,
        thresholdResults: thresholds,
        durationHist: b64ToBytes(k6Summary.histograms.http_req_duration),
        blockedHist: b64ToBytes(k6Summary.histograms.http_req_blocked),
      },
      logFields: { requests: summary.requests, segments: count },
    };
  });
}

/**
 * The live chart of a distributed run: seconds every generator has closed (each has written a
 * later second) are merged and published once a second; the final merge rewrites them complete.
 * stop() waits for a merge in flight, so the final merge never races a live one.
 */
function liveMerge(
  s: RunSession,
  db: Db,
  runId: string,
  count: number,
  t0: number,
  resourceByUnix: Map<number, ResourceRow>,
) {
  // seconds may start slightly below 0 (a generator's clock); the live chart starts at -5
  let published = -6;
  let inFlight: Promise<void> | null = null;
  const tick = async () => {
    const upTo = await closedSecondsBefore(db, runId, count);
    if (upTo === null || upTo <= published + 1) return;
    const rows = await mergeSegmentSeconds(db, runId, { from: published + 1, to: upTo });
    for (const row of rows)
      s.publish({
        type: 'second',
        runId,
        atMs: Date.now(),
        point: toSeriesPoint(row, resourceByUnix.get(t0 + row.second)),
      });
    published = upTo - 1;
  };
  const timer = setInterval(() => {
    inFlight ??= tick()
      .catch((err) => s.log.warn({ err: String(err) }, 'live merge failed'))
      .finally(() => (inFlight = null));
  }, 1000);
  return {
    async stop() {
      clearInterval(timer);
      await inFlight;
    },
  };
}
