import { toJson, type Db } from '@poolbench/db';
import { enqueueRuns } from '@poolbench/queue';
import type { Queue } from 'bullmq';
import { lockExperiment, refreshExperimentStatus } from './experiment-status';
import { finalizeFromStored, type FinalizeStored, type StoredFinal } from './finalize-from-stored';

export type { FinalizeStored, StoredFinal };
import { afterRunEnded } from './hypotheses/after-run-ended';
import { fromStatuses, toStatus } from './run-status-table';

/**
 * A run in preparing/running whose heartbeat is more than staleAfterMs older than `now` (default
 * the real clock) belongs to a worker that died: it becomes aborted_system (worker_lost) with the
 * data it stored, and its experiment is refreshed in the same transaction. It is never re-run
 * silently. Safe to call from any process (every worker and the web app sweep), because the
 * UPDATE re-checks staleness.
 */
export async function abortStaleRuns(
  db: Db,
  opts: { staleAfterMs: number; finalize?: FinalizeStored; now?: () => number },
): Promise<{ runId: string; workerId: string | null }[]> {
  const cutoff = new Date((opts.now ?? Date.now)() - opts.staleAfterMs);
  const staleWhere = {
    status: fromStatuses('abortStale'),
    OR: [{ heartbeatAt: { lt: cutoff } }, { heartbeatAt: null, preparingAt: { lt: cutoff } }],
  };
  const stale = await db.run.findMany({
    where: staleWhere,
    select: { id: true, workerId: true, experimentId: true },
  });
  const aborted: { runId: string; workerId: string | null }[] = [];
  for (const run of stale) {
    const stored = await (opts.finalize ?? finalizeFromStored)(db, run.id);
    // A distributed run's leader holds segment 0: say so, the other generators were stopped by it.
    const led = run.workerId
      ? await db.runSegment.findFirst({
          where: { runId: run.id, workerId: run.workerId },
          select: { index: true },
        })
      : null;
    const who = `worker ${run.workerId ?? 'unknown'}${led ? ` (segment ${led.index}, the leader of this distributed run)` : ''}`;
    const ok = await db.$transaction(async (tx) => {
      await lockExperiment(tx, run.experimentId);
      const r = await tx.run.updateMany({
        where: { id: run.id, ...staleWhere },
        data: {
          status: toStatus('abortStale', 'aborted_system'),
          finishedAt: new Date(),
          errorCode: 'worker_lost',
          errorMessage: `${who} stopped sending heartbeats; the run was stopped with the data stored so far and was not re-run`,
          ...(stored
            ? {
                summary: toJson.runSummary(stored.summary),
                durationHist: stored.durationHist,
                blockedHist: stored.blockedHist,
              }
            : {}),
        },
      });
      if (r.count === 1) await refreshExperimentStatus(tx, run.experimentId);
      return r.count === 1;
    });
    if (ok) {
      aborted.push({ runId: run.id, workerId: run.workerId });
      await afterRunEnded(db, run.experimentId);
    }
  }
  return aborted;
}

/**
 * A queued run with no job (the enqueue failed after the insert committed, e.g. Redis was down at
 * launch, or Redis lost data) is enqueued again once it is more than olderThanMs old by `now`
 * (default the real clock); jobId = runId makes that a no-op when the job exists. A job that
 * already ended while its run is still queued is removed and added again.
 */
export async function requeueOrphanedRuns(
  db: Db,
  queue: Queue,
  opts: { olderThanMs: number; now?: () => number },
): Promise<string[]> {
  const queued = await db.run.findMany({
    where: {
      status: 'queued',
      cancelRequestedAt: null,
      queuedAt: { lt: new Date((opts.now ?? Date.now)() - opts.olderThanMs) },
    },
    select: { id: true },
    orderBy: [{ queuedAt: 'asc' }, { sequence: 'asc' }],
    take: 500,
  });
  const missing: string[] = [];
  for (const { id } of queued) {
    const job = await queue.getJob(id);
    if (!job) missing.push(id);
    else {
      const state = await job.getState();
      if (state === 'completed' || state === 'failed') {
        await job.remove().catch(() => {});
        missing.push(id);
      }
    }
  }
  if (missing.length) await enqueueRuns(queue, missing);
  return missing;
}
