import { TargetInputSchema } from '~/lib/schemas/target';
import { ByIdSchema, IdSchema } from '~/lib/schemas/ids';
import { z } from 'zod';
import { teamProcedure } from '../trpc';
import {
  ConnectionTestSchema,
  TargetArchivedSchema,
  TargetListSchema,
  TargetViewSchema,
} from './target.types';
import { env } from '~/server/env';
import { archiveTarget, getTarget, listTargets } from '~/server/services/targets/read-targets';
import { createTarget, updateTarget } from '~/server/services/targets/save-target';
import { testTargetConnection } from '~/server/services/targets/test-connection';
import { verifiedTeamProcedure } from '../verified';

export const targetRouter = {
  list: teamProcedure('viewer')
    .output(TargetListSchema)
    .query(({ ctx }) => listTargets(ctx.db, ctx.team.id)),
  get: teamProcedure('viewer')
    .input(ByIdSchema)
    .output(TargetViewSchema)
    .query(({ ctx, input }) => getTarget(ctx.db, ctx.team.id, input.id)),
  create: verifiedTeamProcedure('admin')
    .input(TargetInputSchema)
    .output(TargetViewSchema)
    .mutation(({ ctx, input }) =>
      createTarget(
        { db: ctx.db, secretKey: ctx.secretKey, ownDatabaseUrl: env.DATABASE_URL },
        ctx.team.id,
        input,
      ),
    ),
  update: verifiedTeamProcedure('admin')
    .input(z.object({ id: IdSchema, target: TargetInputSchema }))
    .output(TargetViewSchema)
    .mutation(({ ctx, input }) =>
      updateTarget(
        { db: ctx.db, secretKey: ctx.secretKey, ownDatabaseUrl: env.DATABASE_URL },
        ctx.team.id,
        input.id,
        input.target,
      ),
    ),
  archive: teamProcedure('admin')
    .input(ByIdSchema)
    .output(TargetArchivedSchema)
    .mutation(({ ctx, input }) => archiveTarget(ctx.db, ctx.team.id, input.id)),
  testConnection: verifiedTeamProcedure('member')
    .input(ByIdSchema)
    .output(ConnectionTestSchema)
    .mutation(({ ctx, input }) => testTargetConnection(ctx.db, ctx.team.id, input.id)),
};
