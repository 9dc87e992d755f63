import { maintainStorage, type Db } from '@poolbench/db';
import { createStateLog, type StateLogger } from '@poolbench/queue';
import type { Queue } from 'bullmq';
import { abortStaleRuns, requeueOrphanedRuns, type FinalizeStored } from './stale-runs';
import { EXPERIMENT_DRIVERS } from './experiment-drivers';

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
    // each experiment driver resumes what it left behind (a process died, or its step failed)
    for (const driver of EXPERIMENT_DRIVERS) {
      try {
        const resumed = await driver.resumeOverdue(deps.db, (experimentId, err) =>
          deps.log.warn(
            { err, experimentId, step: driver.name },
            'resuming an experiment left behind failed; the next pass tries again',
          ),
        );
        if (resumed.length) deps.log.warn({ experimentIds: resumed }, driver.resumedMessage);
      } catch (err) {
        deps.log.warn({ err, step: driver.name }, 'resuming experiments left behind failed');
      }
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
