import { z } from 'zod';
import { HISTORY_METRICS as TREND_METRICS } from '@poolbench/runs';

const Firing = z.object({
  experimentId: z.string(),
  name: z.string(),
  createdAt: z.date(),
  commit: z.string().nullable(),
  branch: z.string().nullable(),
});

/** `trend.changePoints`: the change points of one cell's history (docs/change-points.md). */
export const TrendChangePointsSchema = z.object({
  firings: z.number().int(),
  changePoints: z.array(
    z.object({
      metric: z.enum(TREND_METRICS),
      kind: z.enum(['regression', 'improvement']),
      before: Firing,
      after: Firing,
      firingsBefore: z.number().int(),
      firingsAfter: z.number().int(),
      meanBefore: z.number(),
      meanAfter: z.number(),
      change: z.number(),
      interval: z.object({ estimate: z.number(), lower: z.number(), upper: z.number() }).nullable(),
      pValue: z.number(),
    }),
  ),
});
