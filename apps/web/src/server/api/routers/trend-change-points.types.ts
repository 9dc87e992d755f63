import { z } from 'zod';
import { ChangePointSchema } from '@poolbench/contracts';

/** `trend.changePoints`: the change points of one cell's history (docs/change-points.md). */
export const TrendChangePointsSchema = z.object({
  firings: z.number().int(),
  changePoints: z.array(ChangePointSchema),
});
