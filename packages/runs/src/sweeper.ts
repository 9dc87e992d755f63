import { maintainStorage, type Db } from '@poolbench/db';
import { createStateLog, type StateLogger } from '@poolbench/queue';
import type { Queue } from 'bullmq';
import { abortStaleRuns, requeueOrphanedRuns, type FinalizeStored } from './stale-runs';
import { decideOverdueHypotheses } from './hypotheses/decide-hypotheses';
import { continueOverdueSequential } from './sequential/continue-sequential';
import { continueOverdueAdvisors } from './advisor/continue-advisor';
import { decideOverdueScheduleOutcomes } from './schedules/schedule-outcome';
import { recordOverdueNoiseFloors } from './calibration/noise-floor';

export interface SweeperOptions {
  /** a run whose heartbeat is older than this is aborted (worker_lost) */
  staleAfterMs: number;
  intervalMs: number;
  /** a queued run without a job is enqueued again once it is this old */
  requeueAfterMs?: number;
  /** partitions ahead, retention, empty old months (packages/db storage-maintenance); default 1 h, 0 = never */
  storageEveryMs?: number;
}

/**
 * Keeps Postgres (the truth) and the queue consistent from any process: every worker runs it, and
 * so does the web app, so a run whose only worker was killed still ends `aborted_system` within
 * staleAfterMs + intervalMs although no worker is alive.
 */
export function startLifecycleSweeper(
  deps: { db: Db; queue: Queue; finalize?: FinalizeStored; log: StateLogger },
  opts: SweeperOptions,
) {
  const state = createStateLog(deps.log);
  let running: Promise<void> | null = null;
  const storageEveryMs = opts.storageEveryMs ?? 3_600_000;
  let storageDueAt = 0; // the first sweep does it: a new month's partitions exist before any insert needs them
  const sweep = async () => {
    try {
      for (const a of await abortStaleRuns(deps.db, {
        staleAfterMs: opts.staleAfterMs,
        finalize: deps.finalize,
      })) {
        deps.log.warn({ runId: a.runId, workerId: a.workerId }, 'run aborted: its worker is gone');
      }
      state.ok('postgres (stale-run sweep)');
    } catch (err) {
      state.failed('postgres (stale-run sweep)', err);
    }
    try {
      const continued = await continueOverdueSequential(deps.db);
      if (continued.length)
        deps.log.warn(
          { experimentIds: continued },
          'asked the sequential rule for "until decided" experiments left without its answer',
        );
    } catch (err) {
      deps.log.warn({ err }, 'continuing sequential experiments failed');
    }
    try {
      const advised = await continueOverdueAdvisors(deps.db);
      if (advised.length)
        deps.log.warn(
          { experimentIds: advised },
          'asked the advisor for the next step of experiments left without it',
        );
    } catch (err) {
      deps.log.warn({ err }, 'continuing advisor experiments failed');
    }
    try {
      const recorded = await recordOverdueNoiseFloors(deps.db);
      if (recorded.length)
        deps.log.warn(
          { experimentIds: recorded },
          'stored the noise floor of A/A calibrations that ended without it',
        );
    } catch (err) {
      deps.log.warn({ err }, 'storing overdue noise floors failed');
    }
    try {
      const decided = await decideOverdueHypotheses(deps.db);
      if (decided.length)
        deps.log.warn(
          { experimentIds: decided },
          'decided hypotheses of finished experiments that were left undecided',
        );
    } catch (err) {
      deps.log.warn({ err }, 'deciding overdue hypotheses failed');
    }
    try {
      const decided = await decideOverdueScheduleOutcomes(deps.db);
      if (decided.length)
        deps.log.warn(
          { experimentIds: decided },
          'decided the baseline outcome of scheduled experiments that were left undecided',
        );
    } catch (err) {
      deps.log.warn({ err }, 'deciding overdue schedule outcomes failed');
    }
    try {
      const requeued = await requeueOrphanedRuns(deps.db, deps.queue, {
        olderThanMs: opts.requeueAfterMs ?? 10_000,
      });
      if (requeued.length)
        deps.log.warn({ runIds: requeued }, 're-enqueued queued runs that had no job');
      state.ok('redis (requeue sweep)');
    } catch (err) {
      state.failed('redis (requeue sweep)', err);
    }
    if (storageEveryMs > 0 && Date.now() >= storageDueAt) {
      try {
        const m = await maintainStorage(deps.db);
        storageDueAt = Date.now() + storageEveryMs;
        if (m.pruned.runs || m.dropped.length)
          deps.log.info({ pruned: m.pruned, dropped: m.dropped }, 'storage retention applied');
        state.ok('postgres (storage maintenance)');
      } catch (err) {
        state.failed('postgres (storage maintenance)', err);
      }
    }
  };
  const tick = () => {
    running ??= sweep().finally(() => {
      running = null;
    });
    return running;
  };
  const timer = setInterval(() => void tick(), opts.intervalMs);
  timer.unref();
  return {
    /** one sweep now (also what the timer does); concurrent calls share the sweep in progress */
    sweepNow: tick,
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
