import { z } from 'zod';
import { ByIdSchema, IdSchema } from '~/lib/schemas/ids';
import { teamProcedure } from '../trpc';
import { BaselineListSchema, BaselineRemovedSchema, BaselineSetSchema } from './baseline.types';
import { CompareItemSchema } from '~/lib/compare/selection';
import { setBaseline } from '~/server/services/baselines/set-baseline';
import { listBaselines } from '~/server/services/baselines/list-baselines';
import { deleteBaseline } from '~/server/services/baselines/delete-baseline';

export const BaselineNameSchema = z
  .string()
  .trim()
  .min(1, 'is required')
  .max(40, 'must be at most 40 characters')
  .regex(/^[\w.\-/]+$/, 'letters, digits, - _ . / only');

export const baselineRouter = {
  list: teamProcedure('viewer')
    .input(z.object({ targetId: IdSchema.nullish(), scenarioId: IdSchema.nullish() }))
    .output(BaselineListSchema)
    .query(({ ctx, input }) => listBaselines(ctx.db, ctx.team.id, input)),
  set: teamProcedure('member')
    .input(z.object({ name: BaselineNameSchema.default('main'), item: CompareItemSchema }))
    .output(BaselineSetSchema)
    .mutation(({ ctx, input }) => setBaseline(ctx.db, ctx.team.id, ctx.user.id, input)),
  remove: teamProcedure('member')
    .input(ByIdSchema)
    .output(BaselineRemovedSchema)
    .mutation(({ ctx, input }) => deleteBaseline(ctx.db, ctx.team.id, input.id)),
};
