import type { Db } from '@poolbench/db';
import { enqueueRuns } from '@poolbench/queue';
import type { Queue } from 'bullmq';
import { decideExperimentHypotheses } from './decide-hypotheses';
import { decideScheduleOutcome } from '../schedules/schedule-outcome';
import { continueSequential } from '../sequential/continue-sequential';
import { continueAdvisor } from '../advisor/continue-advisor';
import { recordNoiseFloor } from '../calibration/noise-floor';

/**
 * Called after a transaction that ended a run: when that was the experiment's last run, its
 * hypotheses are decided now, an A/A calibration's noise floor is stored, and a scheduled experiment's outcome against its baseline (which a
 * worker then sends to the schedule's webhook). Outside the transaction on purpose (windowed decisions read every
 * second of every run, which must not hold the experiment's lock); a failure here never undoes
 * the run's end, and the sweeper (decideOverdueHypotheses, decideOverdueScheduleOutcomes) decides
 * what was missed.
 */
export async function afterRunEnded(
  db: Db,
  experimentId: string,
  /** where runs the experiment grew by are enqueued at once (else the sweeper enqueues them) */
  queue?: Queue,
): Promise<void> {
  // an "until decided" experiment first asks the sequential rule, an advisor its search; when
  // either grows the experiment nothing else is decided yet (its runs are not all ended any more)
  const next = await continueSequential(db, experimentId).catch(() => null);
  const advised =
    next?.kind === 'extended' ? null : await continueAdvisor(db, experimentId).catch(() => null);
  const grown =
    next?.kind === 'extended' ? next.runIds : advised?.kind === 'planned' ? advised.runIds : null;
  if (grown) {
    if (queue) await enqueueRuns(queue, grown).catch(() => {});
    return;
  }
  await recordNoiseFloor(db, experimentId).catch(() => null);
  await decideExperimentHypotheses(db, experimentId).catch(() => 0);
  await decideScheduleOutcome(db, experimentId).catch(() => null);
}
