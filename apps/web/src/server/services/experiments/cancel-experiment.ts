import type { Db } from '@poolbench/db';
import { cancelExperiment as cancelExperimentLifecycle } from '@poolbench/runs';
import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { NotFoundError } from '../errors';

/** Cancels every run of a team's experiment that has not ended (the lifecycle owns it). */
export async function cancelTeamExperiment(
  deps: { db: Db; queue: Queue; redis: Redis },
  teamId: string,
  experimentId: string,
) {
  const outcome = await cancelExperimentLifecycle(deps, teamId, experimentId);
  if (!outcome) throw new NotFoundError('experiment');
  return outcome;
}
