import type { Db } from '@poolbench/db';
import { adviseSeed, launchSeeds, seedResults } from '@poolbench/runs';
import { applyScale, listPresets, presetHypothesisStatement, seedPlan } from '@poolbench/scenarios';
import type { Queue } from 'bullmq';
import { NotFoundError } from '../errors';

/** Every seed preset with its original claims, and the team's latest reproduction as the product decided it. */
export async function seedsOverview(db: Db, teamId: string) {
  const presets = listPresets().map((p) => {
    const plan = seedPlan(applyScale(p, p.seedsScale));
    const label = (id: string) => p.scenarios.find((s) => s.id === id)?.label ?? id;
    return {
      id: p.id,
      seed: p.seed,
      title: p.title,
      description: p.description,
      seedsScale: p.seedsScale,
      runs: plan.runs,
      estimatedMs: plan.estimatedMs,
      claims: p.hypotheses.map((h) => ({
        claim: h.claim ?? '',
        statement: presetHypothesisStatement(h, label),
      })),
    };
  });
  return { presets, latest: await seedResults(db, teamId) };
}

/** The Reproduce button: the same launch as `make seeds`, on the team's first managed target. */
/** The team's first managed target: where the seeds and their advisor questions run. */
async function labTargetOf(db: Db, teamId: string) {
  const target = await db.target.findFirst({
    where: { teamId, kind: 'managed', archivedAt: null },
    orderBy: { createdAt: 'asc' },
    select: { id: true },
  });
  if (!target)
    throw new NotFoundError(
      'managed target (the seeds run on the lab target: add a managed target first)',
    );
  return target;
}

/** A seed question answered by the pool-size advisor, on the team's lab target. */
export async function adviseSeedQuestion(
  deps: { db: Db; queue: Queue },
  input: { teamId: string; userId: string; questionId: string },
) {
  const target = await labTargetOf(deps.db, input.teamId);
  const launched = await adviseSeed(deps, {
    teamId: input.teamId,
    targetId: target.id,
    questionId: input.questionId,
    createdById: input.userId,
  });
  return { experimentId: launched.experimentId, enqueued: launched.enqueued };
}

export async function reproduceSeeds(
  deps: { db: Db; queue: Queue },
  input: { teamId: string; userId: string; seeds?: string[] },
) {
  const target = await labTargetOf(deps.db, input.teamId);
  const { reproductionId, launched } = await launchSeeds(deps, input.teamId, target.id, {
    seeds: input.seeds,
    createdById: input.userId,
  });
  return {
    reproductionId,
    experimentIds: launched.map((l) => l.launch.experimentId),
    enqueued: launched.every((l) => l.launch.enqueued),
  };
}
