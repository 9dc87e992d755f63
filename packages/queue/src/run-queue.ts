import { Queue, type JobsOptions } from 'bullmq';
import type { Redis } from 'ioredis';
import { RUN_QUEUE, RunJobSchema } from '@poolbench/scenarios';

/** Load tests are never retried: at-least-once delivery is made once-only by the run claim. */
export const RUN_JOB_OPTIONS: JobsOptions = {
  attempts: 1,
  removeOnComplete: { count: 1000 },
  removeOnFail: { count: 5000 },
};

export function createRunQueue(connection: Redis, prefix?: string): Queue {
  return new Queue(RUN_QUEUE, { connection, prefix, defaultJobOptions: RUN_JOB_OPTIONS });
}

/**
 * Enqueues runs in the given order with jobId = runId, so enqueueing the same run twice (a retry,
 * the reconciler) never creates a second job. `priority` (1 = highest) lets the caller keep one
 * busy team from starving the others.
 */
export async function enqueueRuns(queue: Queue, runIds: string[], opts: { priority?: number } = {}): Promise<void> {
  if (runIds.length === 0) return;
  await queue.addBulk(
    runIds.map((runId) => ({
      name: 'run',
      data: RunJobSchema.parse({ runId }),
      opts: { ...RUN_JOB_OPTIONS, jobId: runId, ...(opts.priority ? { priority: opts.priority } : {}) },
    })),
  );
}
