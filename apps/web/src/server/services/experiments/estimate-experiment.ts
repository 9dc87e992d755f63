import type { Db } from '@poolbench/db';
import { scenarioFromColumns } from '@poolbench/db';
import { scenarioPlannedMs } from '@poolbench/scenarios';
import { RUN_OVERHEAD_MS } from '~/lib/schemas/experiment';
import { InvalidInputError, NotFoundError } from '../errors';

/** Run count and wall time before launch: each run is its scenario's planned time plus set-up. */
export async function estimateExperiment(
  db: Db,
  teamId: string,
  input: { poolConfigIds: string[]; scenarioIds: string[]; repeats: number },
) {
  const scenarios = await db.scenario.findMany({
    where: { id: { in: input.scenarioIds }, teamId, archivedAt: null },
    select: { id: true, templateId: true, params: true, thresholds: true },
  });
  if (scenarios.length !== new Set(input.scenarioIds).size) throw new NotFoundError('scenario');
  const configs = await db.poolConfig.count({
    where: { id: { in: input.poolConfigIds }, teamId, archivedAt: null },
  });
  if (configs !== new Set(input.poolConfigIds).size) throw new NotFoundError('pool config');
  const perScenarioMs = scenarios.map((s) => {
    const ms = scenarioPlannedMs(scenarioFromColumns(s));
    if (ms === null)
      throw new InvalidInputError('scenarioIds', `scenario ${s.id} no longer parses`);
    return ms;
  });
  const runCount = configs * scenarios.length * input.repeats;
  const loadMs = perScenarioMs.reduce((a, b) => a + b, 0) * configs * input.repeats;
  return {
    runCount,
    loadMs,
    overheadMs: runCount * RUN_OVERHEAD_MS,
    totalMs: loadMs + runCount * RUN_OVERHEAD_MS,
  };
}
