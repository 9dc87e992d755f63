import type { Db } from '@poolbench/db';
import { InvalidInputError, NotFoundError } from '../errors';
import { setBaseline } from '../baselines/set-baseline';
import { resolvePoolConfigs } from './resolve-refs';

/**
 * Points the named baseline (e.g. `main`) of the experiment's target at one of its cells per
 * scenario: CI on the main branch runs the experiment, then records it as the reference that
 * pull requests are compared with.
 */
export async function saveBaseline(
  db: Db,
  input: {
    teamId: string;
    userId: string;
    name: string;
    experimentId: string;
    poolConfig?: string;
  },
) {
  const e = await db.experiment.findFirst({
    where: { id: input.experimentId, teamId: input.teamId },
    select: {
      id: true,
      targetId: true,
      target: { select: { id: true, name: true } },
      poolConfigs: { select: { poolConfig: { select: { id: true, name: true } } } },
      scenarios: { select: { scenario: { select: { id: true, name: true } } } },
    },
  });
  if (!e) throw new NotFoundError('experiment');
  let poolConfigId: string;
  if (input.poolConfig) {
    poolConfigId = (await resolvePoolConfigs(db, input.teamId, e.targetId, [input.poolConfig]))[0]!;
    if (!e.poolConfigs.some((p) => p.poolConfig.id === poolConfigId))
      throw new InvalidInputError('poolConfig', 'is not part of this experiment');
  } else if (e.poolConfigs.length === 1) {
    poolConfigId = e.poolConfigs[0]!.poolConfig.id;
  } else {
    throw new InvalidInputError(
      'poolConfig',
      'the experiment has several pool configs; say which one is the baseline',
    );
  }
  const poolConfig = e.poolConfigs.find((p) => p.poolConfig.id === poolConfigId)!.poolConfig;
  const baselines = [];
  for (const { scenario } of e.scenarios) {
    // the compare service owns baselines; one per (target, scenario, name), so this moves it
    const row = await setBaseline(db, input.teamId, input.userId, {
      name: input.name,
      item: { kind: 'cell', experimentId: e.id, poolConfigId, scenarioId: scenario.id },
    });
    baselines.push({
      id: row.id,
      name: row.name,
      target: e.target,
      scenario,
      experimentId: e.id,
      poolConfig,
    });
  }
  return { baselines };
}
