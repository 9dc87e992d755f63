import { z } from 'zod';
import { ExperimentDefinitionSchema, ScheduleInputSchema } from '~/lib/schemas/experiment';
import { ByIdSchema, IdSchema } from '~/lib/schemas/ids';
import { teamProcedure } from '../trpc';
import { ExperimentDetailSchema, ExperimentEstimateSchema, ExperimentLaunchedSchema, ExperimentListSchema, ScheduleCreatedSchema } from './experiment.types';
import { estimateExperiment } from '~/server/services/experiments/estimate-experiment';
import { startExperiment } from '~/server/services/experiments/start-experiment';
import { getExperiment, listExperiments } from '~/server/services/experiments/read-experiments';
import { createSchedule } from '~/server/services/schedules/schedules';

export const experimentRouter = {
  list: teamProcedure('viewer')
    .input(z.object({ cursor: IdSchema.nullish(), limit: z.number().int().min(1).max(100).default(25) }))
    .output(ExperimentListSchema)
    .query(({ ctx, input }) => listExperiments(ctx.db, ctx.team.id, input)),
  get: teamProcedure('viewer').input(ByIdSchema).output(ExperimentDetailSchema).query(({ ctx, input }) => getExperiment(ctx.db, ctx.team.id, input.id)),
  estimate: teamProcedure('viewer')
    .input(z.object({ poolConfigIds: z.array(IdSchema).max(20), scenarioIds: z.array(IdSchema).max(20), repeats: z.number().int().min(1).max(50) }))
    .output(ExperimentEstimateSchema)
    .query(({ ctx, input }) => estimateExperiment(ctx.db, ctx.team.id, input)),
  launch: teamProcedure('member')
    .input(ExperimentDefinitionSchema)
    .output(ExperimentLaunchedSchema)
    .mutation(({ ctx, input }) => startExperiment({ db: ctx.db, queue: ctx.runQueue() }, { teamId: ctx.team.id, userId: ctx.user.id, def: input })),
  schedule: teamProcedure('member')
    .input(z.object({ definition: ExperimentDefinitionSchema, schedule: ScheduleInputSchema }))
    .output(ScheduleCreatedSchema)
    .mutation(({ ctx, input }) => createSchedule(ctx.db, { teamId: ctx.team.id, userId: ctx.user.id, def: input.definition, ...input.schedule })),
};
