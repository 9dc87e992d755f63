import type { Db } from '@poolbench/db';
import { decideExperimentHypotheses } from './decide-hypotheses';

/**
 * Called after a transaction that ended a run: when that was the experiment's last run, its
 * hypotheses are decided now. Outside the transaction on purpose (windowed decisions read every
 * second of every run, which must not hold the experiment's lock); a failure here never undoes
 * the run's end, and the sweeper's decideOverdueHypotheses decides what was missed.
 */
export async function afterRunEnded(db: Db, experimentId: string): Promise<void> {
  await decideExperimentHypotheses(db, experimentId).catch(() => 0);
}
