import { InvalidInputError, NotFoundError, parseExperiment, type Db } from '@poolbench/db';
import { enqueueOrDefer, launchAdvisor, settingParams } from '@poolbench/runs';
import { PoolConfigSchema } from '@poolbench/scenarios';
import type { Queue } from 'bullmq';
import type { AdvisorInput } from '~/lib/schemas/advisor';
import type { CiOrigin } from '@poolbench/runs';
import { createPoolConfig } from '../pool-configs/pool-configs';

/** Starts the advisor's search and enqueues its first step (see launchAdvisor). */
export async function startAdvisor(
  deps: { db: Db; queue: Queue },
  input: { teamId: string; userId: string | null; def: AdvisorInput; ci?: CiOrigin },
) {
  const launched = await launchAdvisor(deps.db, {
    teamId: input.teamId,
    targetId: input.def.targetId,
    scenarioId: input.def.scenarioId,
    basePoolConfigId: input.def.basePoolConfigId,
    knob: input.def.knob,
    min: input.def.min,
    max: input.def.max,
    objective: input.def.objective,
    budgetRuns: input.def.budgetRuns,
    repeatsPerSetting: input.def.repeatsPerSetting,
    name: input.def.name,
    createdById: input.userId,
    ci: input.ci,
    requireOnlineGenerators: true,
  });
  return enqueueOrDefer(deps.queue, launched);
}

/**
 * Saves one of the advisor's settings (by default the recommended one) as a live pool config of
 * the target, so the team can launch, schedule and gate on it.
 */
export async function saveAdvisorSetting(
  db: Db,
  teamId: string,
  input: { experimentId: string; setting?: number; name?: string },
) {
  const row = await db.experiment.findFirst({
    where: { id: input.experimentId, teamId },
    select: { targetId: true, advisor: true, advisorState: true },
  });
  if (!row) throw new NotFoundError('experiment');
  const e = parseExperiment(row);
  if (!e.advisor) throw new InvalidInputError('experimentId', 'is not an advisor experiment');
  const setting = input.setting ?? e.advisorState?.recommended ?? null;
  if (setting === null)
    throw new InvalidInputError('setting', 'the advisor has recommended no setting yet: name one');
  if (!e.advisorState?.settings.some((s) => s.setting === setting && s.runs > 0))
    throw new InvalidInputError(
      'setting',
      `the advisor has not measured ${e.advisor.knob} ${setting}`,
    );
  const config = PoolConfigSchema.safeParse({
    strategy: e.advisor.base.strategy,
    params: settingParams(e.advisor, setting),
    instanceCount: e.advisor.base.instanceCount,
    ...(e.advisor.base.environment ? { environment: e.advisor.base.environment } : {}),
  });
  if (!config.success)
    throw new InvalidInputError(
      'setting',
      `is no longer a valid pool config: ${config.error.message}`,
    );
  return createPoolConfig(db, teamId, {
    targetId: row.targetId,
    name: input.name ?? `${e.advisor.basePoolConfigName} · advised ${e.advisor.knob} ${setting}`,
    config: config.data,
  });
}
