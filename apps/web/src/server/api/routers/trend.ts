import { z } from 'zod';
import { IdSchema } from '~/lib/schemas/ids';
import { teamProcedure } from '../trpc';
import { TrendCellsSchema, TrendSeriesSchema } from './trend.types';
import { trendCells, trendSeries } from '~/server/services/trends/trend-series';

export const trendRouter = {
  cells: teamProcedure('viewer')
    .output(TrendCellsSchema)
    .query(({ ctx }) => trendCells(ctx.db, ctx.team.id)),
  series: teamProcedure('viewer')
    .input(
      z.object({
        targetId: IdSchema,
        scenarioId: IdSchema,
        poolConfigId: IdSchema,
        baseline: z.string().trim().min(1).max(120).nullish(),
      }),
    )
    .output(TrendSeriesSchema)
    .query(({ ctx, input }) =>
      trendSeries(ctx.db, ctx.team.id, input, { baseline: input.baseline }),
    ),
};
