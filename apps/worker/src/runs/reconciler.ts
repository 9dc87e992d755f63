import type { Queue } from 'bullmq';
import type { Db } from '@poolbench/db';
import { enqueueRuns } from '@poolbench/queue';
import type { Logger } from 'pino';
import { finalizeFromStored } from './finalize-from-stored';

/**
 * Two sweeps that keep Postgres (the truth) and the queue consistent:
 * - a run in preparing/running whose heartbeat is older than staleAfterMs belongs to a worker that
 *   died: it becomes aborted_system with whatever data it stored (never re-run silently);
 * - a queued run with no job (enqueue failed after the insert committed, Redis lost data) is
 *   enqueued again; jobId = runId makes that a no-op when the job does exist.
 */
export async function sweepStaleRuns(db: Db, opts: { staleAfterMs: number; log: Logger }): Promise<string[]> {
  const cutoff = new Date(Date.now() - opts.staleAfterMs);
  const stale = await db.run.findMany({
    where: { status: { in: ['preparing', 'running'] }, OR: [{ heartbeatAt: { lt: cutoff } }, { heartbeatAt: null, preparingAt: { lt: cutoff } }] },
    select: { id: true, workerId: true, experimentId: true },
  });
  const aborted: string[] = [];
  for (const run of stale) {
    const stored = await finalizeFromStored(db, run.id);
    const r = await db.run.updateMany({
      where: { id: run.id, status: { in: ['preparing', 'running'] }, OR: [{ heartbeatAt: { lt: cutoff } }, { heartbeatAt: null }] },
      data: {
        status: 'aborted_system',
        finishedAt: new Date(),
        errorCode: 'worker_lost',
        errorMessage: `worker ${run.workerId ?? 'unknown'} stopped sending heartbeats; the run was stopped with the data stored so far and was not re-run`,
        ...(stored ? { summary: stored.summary, durationHist: stored.durationHist, blockedHist: stored.blockedHist } : {}),
      },
    });
    if (r.count === 1) {
      aborted.push(run.id);
      opts.log.warn({ runId: run.id, workerId: run.workerId }, 'run aborted: its worker is gone');
    }
  }
  return aborted;
}

export async function requeueOrphanedRuns(db: Db, queue: Queue, opts: { olderThanMs: number; log: Logger }): Promise<string[]> {
  const queued = await db.run.findMany({
    where: { status: 'queued', queuedAt: { lt: new Date(Date.now() - opts.olderThanMs) } },
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
      // A job that already ended (e.g. a worker died right after taking it) but whose run is still
      // queued would otherwise wait forever: remove it so it can be added again.
      if (state === 'completed' || state === 'failed') {
        await job.remove().catch(() => {});
        missing.push(id);
      }
    }
  }
  if (missing.length) {
    await enqueueRuns(queue, missing);
    opts.log.warn({ runIds: missing }, 're-enqueued queued runs that had no job');
  }
  return missing;
}
