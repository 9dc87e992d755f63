import { Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { RUN_QUEUE } from '@poolbench/scenarios';
import { processRun, type RunDeps } from './process-run';
import { processSegmentJob } from './distributed/process-segment-job';

/**
 * The BullMQ consumer. maxStalledCount 0: a job whose worker died is failed, never handed to a
 * second worker (load tests are not retried); the run itself is marked aborted_system by the
 * stale-run sweeper with the data it stored. The processor takes BullMQ's per-job AbortSignal
 * (three parameters), so `cancelJob(runId)` and `cancelAllJobs()` reach the run.
 */
export function createRunWorker(
  connection: Redis,
  deps: RunDeps,
  opts: { concurrency: number; prefix?: string },
): Worker {
  const worker = new Worker(
    RUN_QUEUE,
    (job, token, signal) =>
      // A distributed run's generator job carries its segment; the run's own job leads (see process-run).
      (job.data as { segment?: unknown })?.segment !== undefined
        ? processSegmentJob(job, token, deps, signal ?? new AbortController().signal)
        : processRun(job.data, deps, signal ?? new AbortController().signal),
    {
      connection,
      prefix: opts.prefix,
      concurrency: opts.concurrency,
      maxStalledCount: 0,
      stalledInterval: 15_000,
      lockDuration: 30_000,
      autorun: false,
    },
  );
  worker.on('failed', (job, err) =>
    deps.log.warn({ jobId: job?.id, err: err.message }, 'run job failed'),
  );
  return worker;
}
