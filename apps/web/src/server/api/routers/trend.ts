import { z } from 'zod';
import { IdSchema } from '~/lib/schemas/ids';
import { teamProcedure } from '../trpc';
import { TrendCellsSchema, TrendSeriesSchema } from './trend.types';
import { trendCells, trendSeries } from '~/server/services/trends/trend-series';
import { changePointsOf } from '~/server/services/trends/change-points-view';
import { TrendChangePointsSchema } from './trend-change-points.types';

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
  /** change points of the cell's whole history (every firing), by E-divisive means */
  changePoints: teamProcedure('viewer')
    .input(z.object({ targetId: IdSchema, scenarioId: IdSchema, poolConfigId: IdSchema }))
    .output(TrendChangePointsSchema)
    .query(async ({ ctx, input }) => {
      const a = await changePointsOf(ctx.db, ctx.team.id, input);
      return { firings: a.firings, changePoints: a.changePoints };
    }),
};
