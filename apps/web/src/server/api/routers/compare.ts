import { z } from 'zod';
import { RUN_METRICS } from '@poolbench/stats';
import { IdSchema } from '~/lib/schemas/ids';
import { teamProcedure } from '../trpc';
import { CandidatesSchema, ComparisonViewSchema, PivotSchema } from './compare.types';
import { SelectionSchema } from '~/lib/compare/selection';
import { cachedComparison } from '~/server/services/compare/cached-comparison';
import { experimentPivot } from '~/server/services/compare/pivot';
import { listCandidates } from '~/server/services/compare/list-candidates';
import { loadGroups, type CompareGroup } from '~/server/services/compare/load-groups';
import { defaultBaseline } from '~/server/services/baselines/default-baseline';

const METRIC_KEYS = RUN_METRICS.map((m) => m.key) as [string, ...string[]];

export const compareRouter = {
  /** The compare view; without an explicit baseline a saved one among the items is used. */
  get: teamProcedure('viewer')
    .input(z.object({ selection: SelectionSchema, maxPoints: z.number().int().min(20).max(2000).default(300) }))
    .output(ComparisonViewSchema)
    .query(async ({ ctx, input }) => {
      const { selection } = input;
      let saved: Awaited<ReturnType<typeof defaultBaseline>> | null = null;
      let groups: CompareGroup[] | undefined;
      if (selection.baseline === null || selection.baseline === undefined) {
        groups = await loadGroups(ctx.db, ctx.team.id, selection.items);
        saved = await defaultBaseline(ctx.db, ctx.team.id, selection.items, groups.map((g) => ({ targetId: g.targetId, scenarioId: g.scenarioId })));
      }
      const { comparison } = await cachedComparison(ctx.db, ctx.team.id, selection, { maxPoints: input.maxPoints, baselineIndex: selection.baseline ?? saved?.index ?? 0, groups });
      return {
        ...comparison,
        savedBaseline: saved?.index !== null && saved?.index !== undefined ? { index: saved.index, name: saved.name } : null,
        availableBaselines: (saved?.available ?? []).map((b) => ({ id: b.id, name: b.name, label: b.label, item: b.item })),
      };
    }),
  pivot: teamProcedure('viewer')
    .input(z.object({ experimentId: IdSchema, metric: z.enum(METRIC_KEYS).default('p95Ms') }))
    .output(PivotSchema)
    .query(({ ctx, input }) => experimentPivot(ctx.db, ctx.team.id, input.experimentId, input.metric)),
  candidates: teamProcedure('viewer')
    .input(z.object({ experimentId: IdSchema.nullish() }))
    .output(CandidatesSchema)
    .query(({ ctx, input }) => listCandidates(ctx.db, ctx.team.id, input)),
};
