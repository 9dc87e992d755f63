import { z } from 'zod';
import { RUN_METRICS } from '@poolbench/stats';
import { IdSchema } from '~/lib/schemas/ids';
import { teamProcedure } from '../trpc';
import {
  CandidatesSchema,
  ComparisonViewSchema,
  PivotSchema,
  RepeatsNeededSchema,
} from './compare.types';
import { SelectionSchema } from '~/lib/compare/selection';
import { compareView } from '~/server/services/compare/compare-view';
import { experimentPivot } from '~/server/services/compare/pivot';
import { listCandidates } from '~/server/services/compare/list-candidates';
import { cachedRepeatsNeeded } from '~/server/services/compare/cached-repeats-needed';

const METRIC_KEYS = RUN_METRICS.map((m) => m.key) as [string, ...string[]];

export const compareRouter = {
  /** The compare view; without an explicit baseline a saved one among the items is used. */
  get: teamProcedure('viewer')
    .input(
      z.object({
        selection: SelectionSchema,
        maxPoints: z.number().int().min(20).max(2000).default(300),
      }),
    )
    .output(ComparisonViewSchema)
    .query(({ ctx, input }) => compareView(ctx.db, ctx.team.id, input.selection, input.maxPoints)),
  /**
   * How many repeats per side would likely resolve each inconclusive verdict of compare.get's
   * table (a bootstrap estimate, so asked for separately), and whether the compared cells'
   * experiments can be extended now.
   */
  repeatsNeeded: teamProcedure('viewer')
    .input(z.object({ selection: SelectionSchema }))
    .output(RepeatsNeededSchema)
    .query(({ ctx, input }) => cachedRepeatsNeeded(ctx.db, ctx.team.id, input.selection)),
  pivot: teamProcedure('viewer')
    .input(z.object({ experimentId: IdSchema, metric: z.enum(METRIC_KEYS).default('p95Ms') }))
    .output(PivotSchema)
    .query(({ ctx, input }) =>
      experimentPivot(ctx.db, ctx.team.id, input.experimentId, input.metric),
    ),
  candidates: teamProcedure('viewer')
    .input(z.object({ experimentId: IdSchema.nullish() }))
    .output(CandidatesSchema)
    .query(({ ctx, input }) => listCandidates(ctx.db, ctx.team.id, input)),
};
