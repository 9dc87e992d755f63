import type { Db } from '@poolbench/db';
import { InvalidInputError, NotFoundError } from '../errors';
import type { CompareItem } from '~/lib/compare/selection';

/**
 * Marks a run or an experiment cell as the baseline `name` (e.g. `main`) of its target and
 * scenario: one baseline per (target, scenario, name), so setting it again moves it.
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
  const target =
    item.kind === 'run'
      ? { runId: item.runId, experimentId: null, poolConfigId: null }
      : { runId: null, experimentId: item.experimentId, poolConfigId: item.poolConfigId };
  return db.baseline.upsert({
    where: {
      targetId_scenarioId_name: {
        targetId: run.targetId,
        scenarioId: run.scenarioId,
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
    select: {
      id: true,
      name: true,
      targetId: true,
      scenarioId: true,
      runId: true,
      experimentId: true,
      poolConfigId: true,
    },
  });
}
