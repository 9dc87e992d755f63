import type { Db } from '@poolbench/db';
import type { OverdueOptions } from './overdue';
import {
  decideExperimentHypotheses,
  decideOverdueHypotheses,
} from './hypotheses/decide-hypotheses';
import { decideOverdueScheduleOutcomes, decideScheduleOutcome } from './schedules/schedule-outcome';
import { continueOverdueSequential, continueSequential } from './sequential/continue-sequential';
import { continueAdvisor, continueOverdueAdvisors } from './advisor/continue-advisor';
import { recordNoiseFloor, recordOverdueNoiseFloors } from './calibration/noise-floor';

/**
 * What one kind of experiment does once its last run ended, and how the lifecycle sweeper resumes
 * it when the process that ended that run died first or the step failed.
 */
export interface ExperimentDriver {
  /** the step, as a failure of it is logged ("decide hypotheses") */
  name: string;
  /**
   * After the experiment's last run ended: does nothing unless the experiment is this driver's
   * kind. Answers the runs it grew the experiment by, if it grew it (nothing else is decided then:
   * the experiment has runs to go again).
   */
  onEnded(db: Db, experimentId: string): Promise<{ grown: string[] } | null>;
  /**
   * The sweeper: this driver's finished experiments left without its answer, resumed; their ids.
   * One that fails again goes to `onError` and the others still get their turn.
   */
  resumeOverdue(db: Db, onError: OverdueOptions['onError']): Promise<string[]>;
  /** what the sweeper logs when it resumed some */
  resumedMessage: string;
}

const settles =
  (work: (db: Db, experimentId: string) => Promise<unknown>) =>
  async (db: Db, experimentId: string) => {
    await work(db, experimentId);
    return null;
  };

/**
 * Every experiment driver, in the order they run when a run ends: the ones that may grow an
 * experiment ("until decided", the advisor) first, then the ones that settle a finished one. An
 * experiment can be of several kinds (a scheduled one with hypotheses); each driver looks at its
 * own part.
 */
export const EXPERIMENT_DRIVERS: readonly ExperimentDriver[] = [
  {
    name: 'continue until decided',
    async onEnded(db, experimentId) {
      const next = await continueSequential(db, experimentId);
      return next.kind === 'extended' ? { grown: next.runIds } : null;
    },
    resumeOverdue: (db, onError) => continueOverdueSequential(db, { onError }),
    resumedMessage:
      'asked the sequential rule for "until decided" experiments left without its answer',
  },
  {
    name: 'next advisor step',
    async onEnded(db, experimentId) {
      const next = await continueAdvisor(db, experimentId);
      return next.kind === 'planned' ? { grown: next.runIds } : null;
    },
    resumeOverdue: (db, onError) => continueOverdueAdvisors(db, { onError }),
    resumedMessage: 'asked the advisor for the next step of experiments left without it',
  },
  {
    name: 'store the noise floor',
    onEnded: settles(recordNoiseFloor),
    resumeOverdue: (db, onError) => recordOverdueNoiseFloors(db, { onError }),
    resumedMessage: 'stored the noise floor of A/A calibrations that ended without it',
  },
  {
    name: 'decide hypotheses',
    onEnded: settles(decideExperimentHypotheses),
    resumeOverdue: (db, onError) => decideOverdueHypotheses(db, { onError }),
    resumedMessage: 'decided hypotheses of finished experiments that were left undecided',
  },
  {
    name: 'decide the schedule outcome',
    onEnded: settles((db, id) => decideScheduleOutcome(db, id)),
    resumeOverdue: (db, onError) => decideOverdueScheduleOutcomes(db, { onError }),
    resumedMessage:
      'decided the baseline outcome of scheduled experiments that were left undecided',
  },
];
