import type { Db } from '@poolbench/db';
import { publishCancel } from '@poolbench/queue';
import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { lockExperiment, refreshExperimentStatus } from './experiment-status';
import { afterRunEnded } from './hypotheses/after-run-ended';
import { ACTIVE_RUN_STATUSES, fromStatuses, toStatus } from './run-status-table';

export type CancelOutcome = 'canceled' | 'cancel_requested' | 'already_finished' | 'not_found';

/**
 * A queued run is canceled right here (conditional update, so a worker claiming it at the same
 * moment wins or loses cleanly), with its experiment refreshed in the same transaction, and its
 * job removed. An active run gets the durable flag (the worker's heartbeat reads it) and a pub/sub
 * nudge so it stops within a second; when Redis is down the flag alone still stops it.
 */
export async function cancelRun(
  deps: { db: Db; queue: Queue; redis: Redis },
  teamId: string,
  runId: string,
): Promise<CancelOutcome> {
  const run = await deps.db.run.findFirst({
    where: { id: runId, teamId },
    select: { id: true, experimentId: true },
  });
  if (!run) return 'not_found';
  const outcome = await deps.db.$transaction(async (tx): Promise<CancelOutcome> => {
    await lockExperiment(tx, run.experimentId);
    const now = new Date();
    const queued = await tx.run.updateMany({
      where: { id: runId, status: fromStatuses('cancelQueued') },
      data: {
        status: toStatus('cancelQueued', 'canceled'),
        cancelRequestedAt: now,
        finishedAt: now,
        errorCode: 'canceled',
        errorMessage: 'canceled by a user before it started',
      },
    });
    if (queued.count === 1) {
      await refreshExperimentStatus(tx, run.experimentId);
      return 'canceled';
    }
    const active = await tx.run.updateMany({
      where: { id: runId, status: { in: [...ACTIVE_RUN_STATUSES] } },
      data: { cancelRequestedAt: now },
    });
    return active.count === 1 ? 'cancel_requested' : 'already_finished';
  });
  if (outcome === 'canceled') await deps.queue.remove(runId).catch(() => 0); // a job already taken finds the run canceled
  if (outcome === 'canceled') await afterRunEnded(deps.db, run.experimentId);
  if (outcome === 'cancel_requested') await publishCancel(deps.redis, runId).catch(() => {}); // the flag is the durable half
  return outcome;
}
