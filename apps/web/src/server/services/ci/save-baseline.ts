import type { Db } from '@poolbench/db';
import { InvalidInputError, NotFoundError } from '../errors';
import { setBaseline } from '../baselines/set-baseline';
import { resolvePoolConfigs } from './resolve-refs';

/**
 * Points the named baseline (e.g. `main`) of every pool config of the experiment (or only the one
 * `poolConfig` names) at that config's cell of each scenario: CI on the main branch runs the
 * experiment, then records it as the reference that pull requests are compared with, each config
 * with its own.
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
  // one baseline per pool config: each config's cell becomes that config's own baseline
  let configs = e.poolConfigs.map((p) => p.poolConfig);
  if (input.poolConfig) {
    const id = (await resolvePoolConfigs(db, input.teamId, e.targetId, [input.poolConfig]))[0]!;
    configs = configs.filter((c) => c.id === id);
    if (!configs.length)
      throw new InvalidInputError('poolConfig', 'is not part of this experiment');
  }
  const baselines = [];
  for (const poolConfig of configs) {
    for (const { scenario } of e.scenarios) {
      const row = await setBaseline(db, input.teamId, input.userId, {
        name: input.name,
        item: {
          kind: 'cell',
          experimentId: e.id,
          poolConfigId: poolConfig.id,
          scenarioId: scenario.id,
        },
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
  }
  return { baselines };
}
