import type { Logger } from 'pino';
import { publishRunEvent } from '@poolbench/queue';
import { claimRun, finishRun, heartbeatRun, markRunning, type FinishData } from '@poolbench/runs';
import { MetricsWriter } from '../metrics/metrics-writer';
import { ResourceSampler, type ResourceRow } from '../sampling/resource-sampler';
import { toResourceSampleRow } from '../sampling/sample-row';
import type { PreparedTarget } from './prepare-target';
import { outcomeFromError, type AbortReason, type Outcome } from './outcome';
import { RunError, toRunError } from './run-error';
import type { RunDeps, RunOutcome } from './run-deps';

type RunEvent = Parameters<typeof publishRunEvent>[1];

/** How the load part of a run ended: the outcome and what to store with the terminal status. */
export interface SessionEnd {
  outcome: Outcome;
  data?: Omit<FinishData, 'status' | 'errorCode' | 'errorMessage'>;
  /** fields for the closing log line */
  logFields?: Record<string, unknown>;
}

/** The resource sampler of a run: rows go to the session's writer on the run's second clock. */
export interface SessionSampler {
  /** the target's total row by unix second (live chart) */
  byUnix: Map<number, ResourceRow>;
  /** every total row, for the run's summary */
  totals: ResourceRow[];
  /** idempotent; takes the last partial reading */
  stop(): Promise<void>;
}

export interface RunSession {
  runId: string;
  log: Logger;
  /** the job's signal (cancel, shutdown) joined with the heartbeat's findings (cancel flag, lost) */
  signal: AbortSignal;
  abortReason(): AbortReason | null;
  publish(e: RunEvent): void;
  /** per-second and resource rows of this run, batched, retried */
  writer: MetricsWriter;
  /**
   * Registers something the run started. Cleanups run last-registered first, each bounded, after
   * the load part ended and before the terminal status is written.
   */
  onCleanup(what: string, fn: () => Promise<unknown> | unknown): void;
  /** The target, stopped by the session's cleanup (stop() of the returned target runs once). */
  adoptTarget(target: PreparedTarget): PreparedTarget;
  startSampler(target: PreparedTarget, t0: number): SessionSampler;
  /**
   * The run starts its load: marked running with its script and environment (or ended as canceled
   * when someone else ended it first), announced, and its sampler and writer started on the
   * second clock `startUnix` (default: now). Answers the sampler and that clock's first second.
   */
  beginLoad(
    target: PreparedTarget,
    recorded: Parameters<typeof markRunning>[3],
    startUnix?: number,
  ): Promise<{ sampler: SessionSampler; t0: number }>;
}

export interface SessionOptions {
  log: Logger;
  /** maps an error of the load part to the run's outcome (default: outcomeFromError) */
  outcomeOfError?: (re: RunError, abortReason: AbortReason | null) => Outcome;
}

const CLEANUP_BOUND_MS = 15_000;

/**
 * One run session, shared by every kind of run (one load generator, or the leader of several):
 * claim → heartbeat → writer and sampler → the load part (`body`) → cleanup of everything the run
 * started → terminal status. The terminal status is written last, so a reader who sees it never
 * sees the run's children (target, k6, nginx, database users) alive. A run ended elsewhere while
 * it ran (heartbeat lost) keeps the status it was given there.
 */
export async function runSession(
  runId: string,
  deps: RunDeps,
  jobSignal: AbortSignal,
  opts: SessionOptions,
  body: (s: RunSession) => Promise<SessionEnd>,
): Promise<RunOutcome> {
  const { db, workerId } = deps;
  const log = opts.log;
  if (!(await claimRun(db, runId, workerId))) {
    log.info('run not claimable (already taken, finished or canceled): skipping');
    return { runId, status: 'skipped', reason: 'not claimable' };
  }
  const claimedAt = Date.now();
  deps.metrics.runsActive.inc();
  deps.active.add(runId);
  const own = new AbortController();
  const signal = AbortSignal.any([jobSignal, own.signal]);
  const abortReason = () => (signal.aborted ? (String(signal.reason) as AbortReason) : null);
  const publish = (e: RunEvent) => void publishRunEvent(deps.redis, e).catch(() => {});
  const hb = setInterval(() => {
    heartbeatRun(db, runId, workerId)
      .then(({ alive, cancelRequested }) => {
        if (!alive) own.abort('lost');
        else if (cancelRequested) own.abort('cancel');
      })
      .catch((err) => log.warn({ err: String(err) }, 'run heartbeat failed'));
    publish({ type: 'heartbeat', runId, atMs: Date.now() });
  }, deps.config.heartbeatMs);

  const writer = new MetricsWriter(db, {
    onError: (err, pending) => {
      deps.metrics.pendingRows.set(pending);
      log.warn({ err: String(err), pending }, 'per-second write failed; buffered for retry');
    },
  });
  const cleanups: { what: string; fn: () => Promise<unknown> | unknown }[] = [];
  const session: RunSession = {
    runId,
    log,
    signal,
    abortReason,
    publish,
    writer,
    onCleanup: (what, fn) => void cleanups.push({ what, fn }),
    adoptTarget(target) {
      let stopping: Promise<void> | null = null;
      const adopted = { ...target, stop: () => (stopping ??= target.stop()) };
      session.onCleanup('stop the target', () => adopted.stop());
      return adopted;
    },
    startSampler(target, t0) {
      const byUnix = new Map<number, ResourceRow>();
      const totals: ResourceRow[] = [];
      const sampler = new ResourceSampler(
        target.sources,
        target.monitor,
        (rows) => {
          writer.addSamples(rows.map((r) => toResourceSampleRow(runId, t0, r)));
          const total = rows.find((r) => r.instance === -1);
          if (total) {
            byUnix.set(total.unixSecond, total);
            totals.push(total);
          }
        },
        (err) => log.warn({ err: String(err) }, 'sampler error'),
      );
      sampler.start();
      session.onCleanup('stop the sampler', () => sampler.stop());
      return { byUnix, totals, stop: () => sampler.stop() };
    },
    async beginLoad(target, recorded, startUnix) {
      if (!(await markRunning(db, runId, workerId, recorded)))
        throw new RunError('canceled', 'the run was ended by someone else before load started');
      publish({ type: 'status', runId, status: 'running', atMs: Date.now() });
      // seconds are counted from the unix second k6 starts in; resource rows use the same clock
      const t0 = startUnix ?? Math.floor(Date.now() / 1000);
      const sampler = session.startSampler(target, t0);
      writer.start();
      return { sampler, t0 };
    },
  };

  let end: SessionEnd;
  try {
    publish({ type: 'status', runId, status: 'preparing', atMs: Date.now() });
    end = await body(session);
  } catch (err) {
    const re = toRunError(err);
    if (re.code === 'internal_error') log.error({ err }, 'run failed unexpectedly');
    else log.warn({ code: re.code, msg: re.message }, 'run failed');
    const outcome = (opts.outcomeOfError ?? defaultOutcomeOfError)(re, abortReason());
    end = { outcome };
  }

  // Everything the run started goes, newest first, before anyone can read a terminal status.
  for (const c of cleanups.reverse()) {
    await bounded(Promise.resolve().then(c.fn), CLEANUP_BOUND_MS).catch((err) =>
      log.warn({ err: String(err) }, `cleanup failed: ${c.what}`),
    );
  }
  const unwritten = await writer.flush(60_000);
  if (unwritten > 0) {
    const note = `${unwritten} per-second or resource rows could not be stored`;
    end.outcome.errorMessage = end.outcome.errorMessage
      ? `${end.outcome.errorMessage}; ${note}`
      : note;
  }
  clearInterval(hb);
  const status = end.outcome.status;
  try {
    if (abortReason() === 'lost') {
      log.warn('run was ended elsewhere while running; not overwriting its status');
    } else {
      await finishRun(
        db,
        runId,
        workerId,
        { ...end.outcome, ...end.data },
        { queue: deps.runQueue, log },
      );
      publish({
        type: 'status',
        runId,
        status,
        atMs: Date.now(),
        ...(end.outcome.errorMessage ? { message: end.outcome.errorMessage.slice(0, 2000) } : {}),
      });
    }
    log.info({ status, ...end.logFields }, 'run finished');
  } catch (err) {
    log.error({ err: String(err) }, 'could not record the run’s end; the sweeper will');
  } finally {
    deps.active.delete(runId);
    deps.metrics.runsActive.dec();
    deps.metrics.runsFinished.inc({ status });
    deps.metrics.runDuration.observe((Date.now() - claimedAt) / 1000);
  }
  return {
    runId,
    status,
    ...(end.outcome.status !== 'succeeded' && end.outcome.errorMessage
      ? { reason: end.outcome.errorMessage }
      : {}),
  };
}

const defaultOutcomeOfError = (re: RunError, reason: AbortReason | null) =>
  outcomeFromError(re.code, re.message, reason);

function bounded<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`did not finish within ${ms} ms`)), ms);
  });
  return Promise.race([p, limit]).finally(() => clearTimeout(timer));
}
