import type { Db } from '@poolbench/db';
import { decideExperimentHypotheses } from './decide-hypotheses';
import { decideScheduleOutcome } from '../schedules/schedule-outcome';

/**
 * Called after a transaction that ended a run: when that was the experiment's last run, its
 * hypotheses are decided now, and a scheduled experiment's outcome against its baseline (which a
 * worker then sends to the schedule's webhook). Outside the transaction on purpose (windowed decisions read every
 * second of every run, which must not hold the experiment's lock); a failure here never undoes
 * the run's end, and the sweeper (decideOverdueHypotheses, decideOverdueScheduleOutcomes) decides
 * what was missed.
 */
export async function afterRunEnded(db: Db, experimentId: string): Promise<void> {
  await decideExperimentHypotheses(db, experimentId).catch(() => 0);
  await decideScheduleOutcome(db, experimentId).catch(() => null);
}
