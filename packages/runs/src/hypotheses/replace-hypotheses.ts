import { InvalidInputError, NotFoundError, type Db } from '@poolbench/db';
import type { Hypothesis } from '@poolbench/scenarios';
import { lockExperiment } from '../experiment-status';
import { createHypotheses } from './create-hypotheses';

export const PRE_REGISTERED_MESSAGE =
  'pre-registered: hypotheses are fixed once the first run of the experiment has started; launch a new experiment to test other claims';

/**
 * Replaces an experiment's hypotheses while every run is still queued. Pre-registration: once a
 * worker claimed a run (it left `queued`, so data may exist), the claims are fixed, and this throws
 * InvalidInputError on `hypotheses`. The check and the write share the experiment's row lock,
 * which claimRun also takes, so a run cannot start between them.
 */
export async function replaceHypotheses(
  db: Db,
  teamId: string,
  experimentId: string,
  hypotheses: readonly Hypothesis[],
): Promise<void> {
  await db.$transaction(async (tx) => {
    const exp = await tx.experiment.findFirst({
      where: { id: experimentId, teamId },
      select: {
        poolConfigs: { select: { poolConfig: { select: { id: true, name: true } } } },
        scenarios: { select: { scenario: { select: { id: true, name: true } } } },
      },
    });
    if (!exp) throw new NotFoundError('experiment');
    await lockExperiment(tx, experimentId);
    const started = await tx.run.count({ where: { experimentId, preparingAt: { not: null } } });
    if (started > 0) throw new InvalidInputError('hypotheses', PRE_REGISTERED_MESSAGE);
    await tx.hypothesis.deleteMany({ where: { experimentId } });
    await createHypotheses(
      tx,
      experimentId,
      hypotheses,
      exp.poolConfigs.map((p) => p.poolConfig),
      exp.scenarios.map((s) => s.scenario),
    );
  });
}
