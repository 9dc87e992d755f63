import { InvalidInputError, type Db } from '@poolbench/db';
import { applyScale, listPresets, SEED_ADVISOR_QUESTIONS } from '@poolbench/scenarios';
import type { Queue } from 'bullmq';
import { launchAdvisor } from '../advisor/launch-advisor';
import { enqueueOrDefer, type QueuedLaunch } from '../launch-and-enqueue';
import { ensurePoolConfig, ensureScenario } from './launch-seeds';

/**
 * A seed question answered by the advisor (SEED_ADVISOR_QUESTIONS): the preset's pool config and
 * scenario at the reproduction's scale (the same rows a reproduction uses), then the advisor's
 * search on the team's lab target, enqueued like any launch.
 */
export async function adviseSeed(
  deps: { db: Db; queue: Queue },
  input: { teamId: string; targetId: string; questionId: string; createdById?: string | null },
): Promise<QueuedLaunch> {
  const q = SEED_ADVISOR_QUESTIONS.find((x) => x.id === input.questionId);
  if (!q)
    throw new InvalidInputError(
      'question',
      `must be one of ${SEED_ADVISOR_QUESTIONS.map((x) => x.id).join(', ')}`,
    );
  const def = listPresets().find((p) => p.id === q.presetId)!;
  const preset = applyScale(def, def.seedsScale);
  const pc = preset.poolConfigs.find((c) => c.name === q.poolConfig);
  const sc = preset.scenarios.find((s) => s.id === q.scenario);
  if (!pc || !sc)
    throw new Error(`seed question ${q.id} names a config or scenario its preset lacks`);
  const basePoolConfigId = await ensurePoolConfig(
    deps.db,
    input.teamId,
    input.targetId,
    preset,
    pc,
  );
  const scenarioId = await ensureScenario(deps.db, input.teamId, preset, sc);
  const launched = await launchAdvisor(deps.db, {
    teamId: input.teamId,
    targetId: input.targetId,
    scenarioId,
    basePoolConfigId,
    min: q.min,
    max: q.max,
    objective: q.objective,
    budgetRuns: q.budgetRuns,
    name: `Seed ${q.seed} advisor: ${q.title}`,
    createdById: input.createdById ?? null,
    requireOnlineGenerators: true,
  });
  return enqueueOrDefer(deps.queue, launched);
}
