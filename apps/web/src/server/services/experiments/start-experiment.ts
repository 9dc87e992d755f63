import type { Db } from '@poolbench/db';
import { launchExperiment } from '@poolbench/db';
import { enqueueRuns } from '@poolbench/queue';
import type { Queue } from 'bullmq';
import type { z } from 'zod';
import type { ExperimentDefinitionSchema } from '~/lib/schemas/experiment';

/** Creates the experiment with its interleaved runs, then enqueues them in execution order. */
export async function startExperiment(deps: { db: Db; queue: Queue }, input: { teamId: string; userId: string; def: z.output<typeof ExperimentDefinitionSchema> }) {
  const launched = await launchExperiment(deps.db, {
    teamId: input.teamId,
    targetId: input.def.targetId,
    poolConfigIds: input.def.poolConfigIds,
    scenarioIds: input.def.scenarioIds,
    repeats: input.def.repeats,
    order: input.def.order,
    name: input.def.name,
    createdById: input.userId,
    presetId: input.def.presetId ?? null,
  });
  // Rows first, jobs second: a run without a job is found by the worker's reconciler, a job
  // without a row would be meaningless. The team's own backlog lowers the new runs' priority.
  await enqueueRuns(deps.queue, launched.runIds, { backlog: launched.backlog });
  return launched;
}
