import type { Db } from '@poolbench/db';
import { enqueueRuns } from '@poolbench/queue';
import type { Queue } from 'bullmq';
import { decideExperimentHypotheses } from './decide-hypotheses';
import { decideScheduleOutcome } from '../schedules/schedule-outcome';
import { continueSequential } from '../sequential/continue-sequential';
import { continueAdvisor } from '../advisor/continue-advisor';
import { recordNoiseFloor } from '../calibration/noise-floor';

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
 * Called after a transaction that ended a run: when that was the experiment's last run, an "until
 * decided" experiment asks the sequential rule and an advisor its search for the next round, an
 * A/A calibration's noise floor is stored, its hypotheses are decided, and a scheduled
 * experiment's outcome against its baseline (which a worker then sends to the schedule's webhook).
 * Outside the transaction on purpose (windowed decisions read every second of every run, which
 * must not hold the experiment's lock); a step that fails never undoes the run's end, is logged
 * with the experiment and the step, and the lifecycle sweeper (`startLifecycleSweeper`: every one
 * of these steps has its "overdue" counterpart there) does it on its next pass.
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
  // an "until decided" experiment first asks the sequential rule, an advisor its search; when
  // either grows the experiment nothing else is decided yet (its runs are not all ended any more)
  const next = await step('continue until decided', continueSequential(db, experimentId));
  const advised =
    next?.kind === 'extended'
      ? null
      : await step('next advisor step', continueAdvisor(db, experimentId));
  const grown =
    next?.kind === 'extended' ? next.runIds : advised?.kind === 'planned' ? advised.runIds : null;
  if (grown) {
    if (queue) await step('enqueue the new runs', enqueueRuns(queue, grown));
    return;
  }
  await step('store the noise floor', recordNoiseFloor(db, experimentId));
  await step('decide hypotheses', decideExperimentHypotheses(db, experimentId));
  await step('decide the schedule outcome', decideScheduleOutcome(db, experimentId));
}
