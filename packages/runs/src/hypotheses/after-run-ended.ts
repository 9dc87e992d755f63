import type { Db } from '@poolbench/db';
import { enqueueRuns } from '@poolbench/queue';
import type { Queue } from 'bullmq';
import { EXPERIMENT_DRIVERS } from '../experiment-drivers';

/** Where `afterRunEnded` reports a step that failed (a worker's or the web app's logger). */
export interface AfterRunLog {
  warn(obj: object, msg: string): void;
}

/** Without a logger of the caller's, a failed step is still written, to stderr as one JSON line. */
const stderrLog: AfterRunLog = {
  warn: (obj, msg) =>
    console.warn(
      JSON.stringify(obj, (k, v: unknown) => (v instanceof Error ? v.message : v)),
      msg,
    ),
};

/**
 * Called after a transaction that ended a run: when that was the experiment's last run, each
 * experiment driver (`EXPERIMENT_DRIVERS`) does its part in turn: an "until decided" experiment
 * asks the sequential rule and an advisor its search for the next round, an A/A calibration's
 * noise floor is stored, its hypotheses are decided, and a scheduled experiment's outcome against
 * its baseline (which a worker then sends to the schedule's webhook). A driver that grows the
 * experiment ends the turn: it has runs to go again.
 * Outside the transaction on purpose (windowed decisions read every second of every run, which
 * must not hold the experiment's lock); a driver that fails never undoes the run's end, is logged
 * with the experiment and the step, and the lifecycle sweeper (`startLifecycleSweeper`, which
 * asks every driver for what it left behind) does it on its next pass.
 */
export async function afterRunEnded(
  db: Db,
  experimentId: string,
  /** where runs the experiment grew by are enqueued at once (else the sweeper enqueues them) */
  queue?: Queue,
  log: AfterRunLog = stderrLog,
): Promise<void> {
  const step = <T>(name: string, work: Promise<T>): Promise<T | null> =>
    work.catch((err: unknown) => {
      log.warn(
        { err, experimentId, step: name },
        'after a run ended: a step failed; the sweeper retries it',
      );
      return null;
    });
  for (const driver of EXPERIMENT_DRIVERS) {
    const done = await step(driver.name, driver.onEnded(db, experimentId));
    if (done?.grown) {
      if (queue) await step('enqueue the new runs', enqueueRuns(queue, done.grown));
      return;
    }
  }
}
