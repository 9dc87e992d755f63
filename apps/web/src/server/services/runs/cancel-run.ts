import type { Db } from '@poolbench/db';
import { cancelRun as cancelRunLifecycle } from '@poolbench/runs';
import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { ConflictError, NotFoundError } from '../errors';

/** Cancels a run of the team (the lifecycle owns the transition); maps its outcome to domain errors. */
export async function cancelRun(
  deps: { db: Db; queue: Queue; redis: Redis },
  teamId: string,
  runId: string,
): Promise<{ status: 'canceled' | 'cancel_requested' }> {
  const outcome = await cancelRunLifecycle(deps, teamId, runId);
  if (outcome === 'not_found') throw new NotFoundError('run');
  if (outcome === 'already_finished') throw new ConflictError('this run has already finished');
  return { status: outcome };
}
