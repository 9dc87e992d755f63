import type { Db } from '@poolbench/db';
import { launchAndEnqueue, relaunchAndEnqueue, type QueuedLaunch } from '@poolbench/runs';
import type { Queue } from 'bullmq';
import type { StartExperiment } from '~/server/rest/contracts';
import { ensureScenario } from './ensure-scenario';
import { resolveExperiment, resolvePoolConfigs, resolveTarget } from './resolve-refs';

/** Starts an experiment from a saved one or from an inline definition (see @poolbench/runs). */
export async function startCiExperiment(deps: { db: Db; queue: Queue }, input: { teamId: string; userId: string; body: StartExperiment }): Promise<QueuedLaunch> {
  const { db } = deps;
  const b = input.body;
  if (b.kind === 'saved') {
    const sourceId = await resolveExperiment(db, input.teamId, b.experiment);
    return relaunchAndEnqueue(deps, sourceId, { teamId: input.teamId, createdById: input.userId, repeats: b.repeats, name: b.name, loadGenerators: b.loadGenerators });
  }
  const target = await resolveTarget(db, input.teamId, b.target);
  const poolConfigIds = await resolvePoolConfigs(db, input.teamId, target.id, b.poolConfigs);
  const scenarioId = b.scenarioId ?? (await ensureScenario(db, input.teamId, b.scenario!, b.scenarioName));
  return launchAndEnqueue(deps, {
    teamId: input.teamId,
    targetId: target.id,
    poolConfigIds,
    scenarioIds: [scenarioId],
    repeats: b.repeats,
    order: b.order,
    loadGenerators: b.loadGenerators,
    name: b.name,
    createdById: input.userId,
  });
}
