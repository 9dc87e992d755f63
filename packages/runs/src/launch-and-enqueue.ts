import type { Db } from '@poolbench/db';
import { enqueueRuns } from '@poolbench/queue';
import type { Queue } from 'bullmq';
import {
  launchExperiment,
  relaunchExperiment,
  type LaunchedExperiment,
  type LaunchExperimentInput,
} from './launch-experiment';

export interface QueuedLaunch extends LaunchedExperiment {
  /**
   * false when the queue (Redis) could not take the jobs: the experiment and its runs are stored
   * as queued and start when the queue is back (the sweepers re-enqueue queued runs that have no
   * job). The launch itself never fails because of the queue, so a retried request with the same
   * Idempotency-Key is answered from the stored response instead of creating a second experiment.
   */
  enqueued: boolean;
  queueMessage?: string;
}

const ENQUEUE_TIMEOUT_MS = 5_000;

export async function enqueueOrDefer(
  queue: Queue,
  launched: LaunchedExperiment,
): Promise<QueuedLaunch> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      enqueueRuns(queue, launched.runIds, { backlog: launched.backlog }),
      new Promise((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`no answer in ${ENQUEUE_TIMEOUT_MS / 1000} s`)),
          ENQUEUE_TIMEOUT_MS,
        );
      }),
    ]);
    return { ...launched, enqueued: true };
  } catch (err) {
    return {
      ...launched,
      enqueued: false,
      queueMessage: `the run queue is unavailable (${(err as Error).message}); the runs are saved as queued and start when the queue is back`,
    };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The one way to start an experiment: rows first (one transaction, the team's backlog counted in
 * it), then one job per run in execution order (jobId = runId, priority = rank in the team's own
 * backlog). Used by the UI, REST/CLI, schedules and the demo.
 */
export async function launchAndEnqueue(
  deps: { db: Db; queue: Queue },
  input: LaunchExperimentInput,
): Promise<QueuedLaunch> {
  return enqueueOrDefer(deps.queue, await launchExperiment(deps.db, input));
}

/** Same as launchAndEnqueue for a copy of a saved experiment (rerun, schedule, REST start by id). */
export async function relaunchAndEnqueue(
  deps: { db: Db; queue: Queue },
  sourceId: string,
  opts: Parameters<typeof relaunchExperiment>[2],
): Promise<QueuedLaunch> {
  return enqueueOrDefer(deps.queue, await relaunchExperiment(deps.db, sourceId, opts));
}
