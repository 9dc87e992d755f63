import type { Db } from '@poolbench/db';
import type { QueuedLaunch } from '@poolbench/runs';
import type { Queue } from 'bullmq';
import type { StartAdvisor } from '~/server/rest/resources/advisor-requests';
import { startAdvisor } from '../advisor/advisor';
import { ensureScenario } from './ensure-scenario';
import { resolvePoolConfigs, resolveTarget } from './resolve-refs';

/** Starts the pool-size advisor from the REST API: refs by id or name, an inline scenario saved. */
export async function startCiAdvisor(
  deps: { db: Db; queue: Queue },
  input: { teamId: string; userId: string; body: StartAdvisor },
): Promise<QueuedLaunch> {
  const b = input.body;
  const target = await resolveTarget(deps.db, input.teamId, b.target);
  const [basePoolConfigId] = await resolvePoolConfigs(deps.db, input.teamId, target.id, [
    b.poolConfig,
  ]);
  const scenarioId =
    b.scenarioId ?? (await ensureScenario(deps.db, input.teamId, b.scenario!, b.scenarioName));
  return startAdvisor(deps, {
    teamId: input.teamId,
    userId: input.userId,
    def: {
      targetId: target.id,
      scenarioId,
      basePoolConfigId: basePoolConfigId!,
      knob: b.knob,
      min: b.min,
      max: b.max,
      objective: b.objective,
      budgetRuns: b.budgetRuns,
      repeatsPerSetting: b.repeatsPerSetting,
      name: b.name,
    },
    ci: { commit: b.commit ?? null, branch: b.branch ?? null, buildUrl: b.buildUrl ?? null },
  });
}
