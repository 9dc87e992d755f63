import { z } from 'zod';
import { RunStatusSchema } from '@poolbench/contracts';
import { ByIdSchema, IdSchema } from '~/lib/schemas/ids';
import { teamProcedure } from '../trpc';
import {
  RunCanceledSchema,
  RunDetailSchema,
  RunListSchema,
  RunNotesSavedSchema,
  RunSeriesSchema,
  SweepStepsSchema,
  CustomSeriesSchema,
  CustomSeriesInputSchema,
} from './run.types';
import { listRuns } from '~/server/services/runs/list-runs';
import { getRun } from '~/server/services/runs/get-run';
import { cachedRunSeries } from '~/server/services/runs/cached-run-series';
import { RUN_CHART_MAX_POINTS } from '~/server/services/runs/downsample';
import { cancelRun } from '~/server/services/runs/cancel-run';
import { updateRunNotes } from '~/server/services/runs/update-run-notes';
import { sweepSteps } from '~/server/services/runs/sweep-steps';
import { customSeries } from '~/server/services/runs/custom-series';

export const runRouter = {
  list: teamProcedure('viewer')
    .input(
      z.object({
        targetId: IdSchema.nullish(),
        poolConfigId: IdSchema.nullish(),
        scenarioId: IdSchema.nullish(),
        experimentId: IdSchema.nullish(),
        status: z.array(RunStatusSchema).nullish(),
        from: z.iso.datetime().nullish(),
        to: z.iso.datetime().nullish(),
        cursor: IdSchema.nullish(),
        limit: z.number().int().min(1).max(100).default(25),
      }),
    )
    .output(RunListSchema)
    .query(({ ctx, input }) => listRuns(ctx.db, ctx.team.id, input)),
  get: teamProcedure('viewer')
    .input(ByIdSchema)
    .output(RunDetailSchema)
    .query(({ ctx, input }) => getRun(ctx.db, ctx.team.id, input.id)),
  /** per-step results of an arrival-rate sweep; null for other templates */
  sweepSteps: teamProcedure('viewer')
    .input(ByIdSchema)
    .output(SweepStepsSchema)
    .query(({ ctx, input }) => sweepSteps(ctx.db, ctx.team.id, input.id)),
  customSeries: teamProcedure('viewer')
    .input(CustomSeriesInputSchema)
    .output(CustomSeriesSchema)
    .query(({ ctx, input }) =>
      customSeries(ctx.db, ctx.team.id, input.id, input.source, input.names),
    ),
  series: teamProcedure('viewer')
    .input(
      z.object({
        id: IdSchema,
        maxPoints: z.number().int().min(20).max(5000).default(RUN_CHART_MAX_POINTS),
      }),
    )
    .output(RunSeriesSchema)
    .query(({ ctx, input }) => cachedRunSeries(ctx.db, ctx.team.id, input.id, input.maxPoints)),
  cancel: teamProcedure('member')
    .input(ByIdSchema)
    .output(RunCanceledSchema)
    .mutation(({ ctx, input }) =>
      cancelRun({ db: ctx.db, queue: ctx.runQueue(), redis: ctx.redis() }, ctx.team.id, input.id),
    ),
  updateNotes: teamProcedure('member')
    .input(
      z.object({
        id: IdSchema,
        notes: z.string().max(10_000, 'must be at most 10,000 characters'),
      }),
    )
    .output(RunNotesSavedSchema)
    .mutation(({ ctx, input }) => updateRunNotes(ctx.db, ctx.team.id, input)),
};
