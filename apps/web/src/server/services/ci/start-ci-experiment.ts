import type { Db } from '@poolbench/db';
import { launchAndEnqueue, relaunchAndEnqueue, type QueuedLaunch } from '@poolbench/runs';
import type { Queue } from 'bullmq';
import type { StartExperiment } from '~/server/rest/resources/experiment-requests';
import { ensureScenario } from './ensure-scenario';
import { resolveExperiment, resolvePoolConfigs, resolveTarget } from './resolve-refs';
import { experimentCells, resolveRestHypotheses } from './resolve-hypotheses';

/** Starts an experiment from a saved one or from an inline definition (see @poolbench/runs). */
export async function startCiExperiment(
  deps: { db: Db; queue: Queue },
  input: { teamId: string; userId: string; body: StartExperiment },
): Promise<QueuedLaunch> {
  const { db } = deps;
  const b = input.body;
  const ci = { commit: b.commit ?? null, branch: b.branch ?? null, buildUrl: b.buildUrl ?? null };
  if (b.kind === 'saved') {
    const sourceId = await resolveExperiment(db, input.teamId, b.experiment);
    // the saved experiment's own claims unless the request states others
    const cells = b.hypotheses ? await experimentCells(db, sourceId) : null;
    const hypotheses = cells
      ? resolveRestHypotheses(b.hypotheses, cells.configs, cells.scenarios)
      : undefined;
    return relaunchAndEnqueue(deps, sourceId, {
      teamId: input.teamId,
      createdById: input.userId,
      repeats: b.repeats,
      name: b.name,
      loadGenerators: b.loadGenerators,
      hypotheses,
      ci,
      requireOnlineGenerators: true,
    });
  }
  const target = await resolveTarget(db, input.teamId, b.target);
  const poolConfigIds = await resolvePoolConfigs(db, input.teamId, target.id, b.poolConfigs);
  const scenarioId =
    b.scenarioId ?? (await ensureScenario(db, input.teamId, b.scenario!, b.scenarioName));
  const named = await db.poolConfig.findMany({
    where: { id: { in: poolConfigIds } },
    select: { id: true, name: true },
  });
  const hypotheses = resolveRestHypotheses(
    b.hypotheses,
    poolConfigIds.map((id) => named.find((n) => n.id === id)!),
    [{ id: scenarioId, name: b.scenarioName ?? 'the scenario' }],
  );
  return launchAndEnqueue(deps, {
    hypotheses,
    ci,
    teamId: input.teamId,
    targetId: target.id,
    poolConfigIds,
    scenarioIds: [scenarioId],
    repeats: b.repeats,
    order: b.order,
    loadGenerators: b.loadGenerators,
    name: b.name,
    createdById: input.userId,
    untilDecided: b.untilDecided ?? null,
    requireOnlineGenerators: true,
  });
}
