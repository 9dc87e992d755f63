import { z } from 'zod';
import {
  AddRepeatsSchema,
  ExperimentDefinitionSchema,
  ScheduleInputSchema,
} from '~/lib/schemas/experiment';
import { ByIdSchema, IdSchema } from '~/lib/schemas/ids';
import { teamProcedure } from '../trpc';
import {
  ExperimentDetailSchema,
  ExperimentEstimateSchema,
  ExperimentLaunchedSchema,
  ExperimentListSchema,
  ScheduleCreatedSchema,
} from './experiment.types';
import { estimateExperiment } from '~/server/services/experiments/estimate-experiment';
import { startExperiment } from '~/server/services/experiments/start-experiment';
import { getExperiment, listExperiments } from '~/server/services/experiments/read-experiments';
import { createSchedule } from '~/server/services/schedules/schedules';
import { HypothesesSchema } from '@poolbench/scenarios';
import { HypothesesAnswerSchema } from './hypothesis.types';
import { extendTeamExperiment, setHypotheses } from '~/server/services/experiments/hypotheses';
import { cancelTeamExperiment } from '~/server/services/experiments/cancel-experiment';
import { verifiedTeamProcedure } from '../verified';

export const experimentRouter = {
  list: teamProcedure('viewer')
    .input(
      z.object({ cursor: IdSchema.nullish(), limit: z.number().int().min(1).max(100).default(25) }),
    )
    .output(ExperimentListSchema)
    .query(({ ctx, input }) => listExperiments(ctx.db, ctx.team.id, input)),
  get: teamProcedure('viewer')
    .input(ByIdSchema)
    .output(ExperimentDetailSchema)
    .query(({ ctx, input }) => getExperiment(ctx.db, ctx.team.id, input.id)),
  estimate: teamProcedure('viewer')
    .input(
      z.object({
        poolConfigIds: z.array(IdSchema).max(20),
        scenarioIds: z.array(IdSchema).max(20),
        repeats: z.number().int().min(1).max(50),
      }),
    )
    .output(ExperimentEstimateSchema)
    .query(({ ctx, input }) => estimateExperiment(ctx.db, ctx.team.id, input)),
  launch: verifiedTeamProcedure('member')
    .input(ExperimentDefinitionSchema)
    .output(ExperimentLaunchedSchema)
    .mutation(({ ctx, input }) =>
      startExperiment(
        { db: ctx.db, queue: ctx.runQueue() },
        { teamId: ctx.team.id, userId: ctx.user.id, def: input },
      ),
    ),
  schedule: verifiedTeamProcedure('member')
    .input(z.object({ definition: ExperimentDefinitionSchema, schedule: ScheduleInputSchema }))
    .output(ScheduleCreatedSchema)
    .mutation(({ ctx, input }) =>
      createSchedule(ctx.db, {
        teamId: ctx.team.id,
        userId: ctx.user.id,
        def: input.definition,
        ...input.schedule,
      }),
    ),
  hypotheses: teamProcedure('viewer')
    .input(ByIdSchema)
    .output(HypothesesAnswerSchema)
    .query(
      async ({ ctx, input }) => (await getExperiment(ctx.db, ctx.team.id, input.id)).hypotheses,
    ),
  setHypotheses: teamProcedure('member')
    .input(z.object({ id: IdSchema, hypotheses: HypothesesSchema }))
    .output(HypothesesAnswerSchema)
    .mutation(({ ctx, input }) => setHypotheses(ctx.db, ctx.team.id, input.id, input.hypotheses)),
  /** every run that has not ended: queued ones at once, active ones through their cancel flag */
  cancel: teamProcedure('member')
    .input(ByIdSchema)
    .output(
      z.object({
        canceled: z.number().int(),
        cancelRequested: z.number().int(),
        alreadyFinished: z.number().int(),
      }),
    )
    .mutation(({ ctx, input }) =>
      cancelTeamExperiment(
        { db: ctx.db, queue: ctx.runQueue(), redis: ctx.redis() },
        ctx.team.id,
        input.id,
      ),
    ),
  extend: verifiedTeamProcedure('member')
    .input(
      z.object({
        id: IdSchema,
        addRepeats: AddRepeatsSchema,
      }),
    )
    .output(
      z.object({
        experimentId: z.string(),
        runIds: z.array(z.string()),
        enqueued: z.boolean(),
        queueMessage: z.string().nullable(),
      }),
    )
    .mutation(({ ctx, input }) =>
      extendTeamExperiment(
        { db: ctx.db, queue: ctx.runQueue() },
        ctx.team.id,
        input.id,
        input.addRepeats,
      ),
    ),
};
