import type { Db } from '@poolbench/db';
import { publishCancel } from '@poolbench/queue';
import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { lockExperiment, refreshExperimentStatus } from './experiment-status';
import { afterRunEnded } from './hypotheses/after-run-ended';
import { ACTIVE_RUN_STATUSES, fromStatuses, toStatus } from './run-status-table';

export interface ExperimentCancelOutcome {
  /** queued runs canceled at once */
  canceled: number;
  /** runs already preparing or running: flagged, and stopped by their worker within seconds */
  cancelRequested: number;
  /** runs that had already ended, left as they were */
  alreadyFinished: number;
}

/**
 * Cancels a whole experiment: every queued run in one conditional update (a worker claiming one at
 * the same moment wins or loses cleanly, as with one run), every active run through the durable
 * cancel flag and a pub/sub nudge, as `cancelRun` does. Null when the experiment is not the team's.
 */
export async function cancelExperiment(
  deps: { db: Db; queue: Queue; redis: Redis },
  teamId: string,
  experimentId: string,
): Promise<ExperimentCancelOutcome | null> {
  const exp = await deps.db.experiment.findFirst({
    where: { id: experimentId, teamId, kind: 'run' },
    select: { id: true },
  });
  if (!exp) return null;
  const { queuedIds, activeIds, total } = await deps.db.$transaction(async (tx) => {
    await lockExperiment(tx, exp.id);
    const now = new Date();
    const queued = await tx.run.findMany({
      where: { experimentId: exp.id, status: fromStatuses('cancelQueued') },
      select: { id: true },
    });
    await tx.run.updateMany({
      where: { id: { in: queued.map((r) => r.id) }, status: fromStatuses('cancelQueued') },
      data: {
        status: toStatus('cancelQueued', 'canceled'),
        cancelRequestedAt: now,
        finishedAt: now,
        errorCode: 'canceled',
        errorMessage: 'canceled by a user before it started (the whole experiment was canceled)',
      },
    });
    const active = await tx.run.findMany({
      where: { experimentId: exp.id, status: { in: [...ACTIVE_RUN_STATUSES] } },
      select: { id: true },
    });
    await tx.run.updateMany({
      where: { id: { in: active.map((r) => r.id) }, cancelRequestedAt: null },
      data: { cancelRequestedAt: now },
    });
    await refreshExperimentStatus(tx, exp.id);
    const total = await tx.run.count({ where: { experimentId: exp.id } });
    return { queuedIds: queued.map((r) => r.id), activeIds: active.map((r) => r.id), total };
  });
  // the jobs of canceled runs go too; a job a worker already took finds its run canceled
  for (const id of queuedIds) await deps.queue.remove(id).catch(() => 0);
  for (const id of activeIds) await publishCancel(deps.redis, id).catch(() => {}); // the flag is the durable half
  if (queuedIds.length) await afterRunEnded(deps.db, exp.id);
  return {
    canceled: queuedIds.length,
    cancelRequested: activeIds.length,
    alreadyFinished: total - queuedIds.length - activeIds.length,
  };
}
