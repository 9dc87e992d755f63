import { Queue, type JobsOptions } from 'bullmq';
import type { Redis } from 'ioredis';
import { RUN_QUEUE, RunJobSchema } from '@poolbench/contracts';

/** Load tests are never retried: at-least-once delivery is made once-only by the run claim. */
export const RUN_JOB_OPTIONS: JobsOptions = {
  attempts: 1,
  removeOnComplete: { count: 1000 },
  removeOnFail: { count: 5000 },
};

export function createRunQueue(connection: Redis, prefix?: string): Queue {
  return new Queue(RUN_QUEUE, { connection, prefix, defaultJobOptions: RUN_JOB_OPTIONS });
}

// BullMQ's largest priority; lower numbers run first, equal numbers in insertion order.
const MAX_PRIORITY = 2_097_152;

/**
 * Enqueues runs in the given order with jobId = runId, so enqueueing the same run twice (a retry,
 * the reconciler) never creates a second job.
 *
 * Fairness between teams: a run's priority is its rank in its own team's backlog (`backlog` =
 * the team's runs already queued). Team A's 100-run experiment gets 1..100; team B's two runs
 * queued later get 1 and 2 and so run next, instead of waiting behind all of A's.
 */
export async function enqueueRuns(
  queue: Queue,
  runIds: string[],
  opts: { backlog?: number } = {},
): Promise<void> {
  if (runIds.length === 0) return;
  const backlog = opts.backlog ?? 0;
  await queue.addBulk(
    runIds.map((runId, i) => ({
      name: 'run',
      data: RunJobSchema.parse({ runId }),
      opts: { ...RUN_JOB_OPTIONS, jobId: runId, priority: Math.min(backlog + i + 1, MAX_PRIORITY) },
    })),
  );
}
