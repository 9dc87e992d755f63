import type { Db } from '@poolbench/db';
import { launchExperiment } from '@poolbench/db';
import { enqueueRuns } from '@poolbench/queue';
import type { Queue } from 'bullmq';
import type { StartExperiment } from '~/server/rest/contracts';
import { NotFoundError } from '../errors';
import { ensureScenario } from './ensure-scenario';
import { resolveExperiment, resolvePoolConfigs, resolveTarget } from './resolve-refs';

/** Starts an experiment from a saved one or from an inline definition; returns the new id. */
export async function startCiExperiment(deps: { db: Db; queue: Queue }, input: { teamId: string; userId: string; body: StartExperiment }): Promise<string> {
  const { db } = deps;
  const b = input.body;
  let launched;
  if (b.kind === 'saved') {
    const sourceId = await resolveExperiment(db, input.teamId, b.experiment);
    const src = await db.experiment.findFirst({
      where: { id: sourceId, teamId: input.teamId },
      select: { id: true, name: true, description: true, targetId: true, repeats: true, order: true, presetId: true, poolConfigs: { orderBy: { position: 'asc' }, select: { poolConfigId: true } }, scenarios: { orderBy: { position: 'asc' }, select: { scenarioId: true } } },
    });
    if (!src) throw new NotFoundError('experiment');
    launched = await launchExperiment(db, {
      teamId: input.teamId,
      targetId: src.targetId,
      poolConfigIds: src.poolConfigs.map((p) => p.poolConfigId),
      scenarioIds: src.scenarios.map((s) => s.scenarioId),
      repeats: b.repeats ?? src.repeats,
      order: src.order,
      name: b.name ?? src.name,
      description: src.description,
      createdById: input.userId,
      sourceId: src.id,
      presetId: src.presetId,
    });
  } else {
    const target = await resolveTarget(db, input.teamId, b.target);
    const poolConfigIds = await resolvePoolConfigs(db, input.teamId, target.id, b.poolConfigs);
    const scenarioId = b.scenarioId ?? (await ensureScenario(db, input.teamId, b.scenario!, b.scenarioName));
    launched = await launchExperiment(db, {
      teamId: input.teamId,
      targetId: target.id,
      poolConfigIds,
      scenarioIds: [scenarioId],
      repeats: b.repeats,
      order: b.order,
      name: b.name,
      createdById: input.userId,
    });
  }
  // Rows first, jobs second: the worker's reconciler finds a run without a job. The team's own
  // queued backlog lowers the priority, so one team's CI storm cannot starve the others.
  await enqueueRuns(deps.queue, launched.runIds, { backlog: launched.backlog });
  return launched.experimentId;
}
