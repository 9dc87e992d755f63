import type { Db } from '@poolbench/db';
import { InvalidInputError, NotFoundError } from '../errors';
import type { CompareItem } from '~/lib/compare/selection';

/**
 * Marks a run or an experiment cell as the baseline `name` (e.g. `main`) of its target, scenario
 * and pool config: one baseline per (target, scenario, pool config, name), so setting it again
 * for the same config moves it, and saving it for one config never moves another config's.
 */
export async function setBaseline(
  db: Db,
  teamId: string,
  userId: string,
  input: { name: string; item: CompareItem },
) {
  const { item } = input;
  const run = await db.run.findFirst({
    where:
      item.kind === 'run'
        ? { id: item.runId, teamId }
        : {
            teamId,
            experimentId: item.experimentId,
            poolConfigId: item.poolConfigId,
            scenarioId: item.scenarioId,
          },
    select: { targetId: true, scenarioId: true, experimentId: true, poolConfigId: true },
  });
  if (!run) throw new NotFoundError(item.kind === 'run' ? 'run' : 'experiment cell');
  if (!run.scenarioId)
    throw new InvalidInputError(
      'item',
      'the scenario of this run was deleted, so it cannot be a baseline',
    );
  if (!run.poolConfigId)
    throw new InvalidInputError(
      'item',
      'the pool config of this run was deleted, so it cannot be a baseline',
    );
  const target =
    item.kind === 'run'
      ? { runId: item.runId, experimentId: null, poolConfigId: run.poolConfigId }
      : { runId: null, experimentId: item.experimentId, poolConfigId: item.poolConfigId };
  return db.baseline.upsert({
    where: {
      targetId_scenarioId_poolConfigId_name: {
        targetId: run.targetId,
        scenarioId: run.scenarioId,
        poolConfigId: run.poolConfigId,
        name: input.name,
      },
    },
    create: {
      teamId,
      name: input.name,
      targetId: run.targetId,
      scenarioId: run.scenarioId,
      createdById: userId,
      ...target,
    },
    update: { createdById: userId, ...target },
    select: BASELINE_SELECT,
  });
}

/** A baseline row's own fields: its name, cell and what it was saved from. */
export const BASELINE_SELECT = {
  id: true,
  name: true,
  targetId: true,
  scenarioId: true,
  runId: true,
  experimentId: true,
  poolConfigId: true,
} as const;
