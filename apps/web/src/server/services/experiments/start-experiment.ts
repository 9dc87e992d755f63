import type { Db } from '@poolbench/db';
import { launchAndEnqueue } from '@poolbench/runs';
import type { Queue } from 'bullmq';
import type { z } from 'zod';
import type { ExperimentDefinitionSchema } from '~/lib/schemas/experiment';

/** Creates the experiment with its runs, in its run order, and enqueues them (@poolbench/runs). */
export async function startExperiment(
  deps: { db: Db; queue: Queue },
  input: { teamId: string; userId: string; def: z.output<typeof ExperimentDefinitionSchema> },
) {
  return launchAndEnqueue(deps, {
    teamId: input.teamId,
    targetId: input.def.targetId,
    poolConfigIds: input.def.poolConfigIds,
    scenarioIds: input.def.scenarioIds,
    repeats: input.def.repeats,
    order: input.def.order,
    loadGenerators: input.def.loadGenerators,
    name: input.def.name,
    createdById: input.userId,
    presetId: input.def.presetId ?? null,
    hypotheses: input.def.hypotheses,
    untilDecided: input.def.untilDecided ?? null,
    requireOnlineGenerators: true,
  });
}
