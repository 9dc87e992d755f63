import { UnrecoverableError, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { RUN_QUEUE, RunJobSchema } from '@poolbench/contracts';
import { processRun } from './process-run';
import { isDistributedRun, processDistributedRun } from './distributed/process-distributed-run';
import { processSegmentJob } from './distributed/process-segment-job';
import type { RunDeps } from './run-deps';

/**
 * The BullMQ consumer, and the one place that decides what a job is: a generator's segment of a
 * distributed run (its payload names the segment), the leader of a run on several generators, or
 * a run on one. maxStalledCount 0: a job whose worker died is failed, never handed to a second
 * worker (load tests are not retried); the run itself is marked aborted_system by the stale-run
 * sweeper with the data it stored. The processor takes BullMQ's per-job AbortSignal (three
 * parameters), so `cancelJob(runId)` and `cancelAllJobs()` reach the run.
 */
export function createRunWorker(
  connection: Redis,
  deps: RunDeps,
  opts: { concurrency: number; prefix?: string; lockMs?: number },
): Worker {
  const worker = new Worker(
    RUN_QUEUE,
    async (job, token, sig) => {
      const signal = sig ?? new AbortController().signal;
      const parsed = RunJobSchema.safeParse(job.data);
      if (!parsed.success) {
        const why = parsed.error.issues
          .map((i) => `${i.path.join('.') || 'payload'}: ${i.message}`)
          .join('; ');
        throw new UnrecoverableError(`invalid run job payload: ${why}`);
      }
      const { runId, segment } = parsed.data;
      if (segment !== undefined) return processSegmentJob(job, token, deps, signal);
      if (await isDistributedRun(deps.db, runId)) return processDistributedRun(runId, deps, signal);
      return processRun(runId, deps, signal);
    },
    {
      connection,
      prefix: opts.prefix,
      concurrency: opts.concurrency,
      maxStalledCount: 0,
      stalledInterval: (opts.lockMs ?? 30_000) / 2,
      lockDuration: opts.lockMs ?? 30_000,
      autorun: false,
    },
  );
  worker.on('failed', (job, err) =>
    deps.log.warn({ jobId: job?.id, err: err.message }, 'run job failed'),
  );
  return worker;
}
