import { z } from 'zod';
import { PoolConfigSaveSchema } from '~/lib/schemas/pool-config';
import { ByIdSchema, IdSchema } from '~/lib/schemas/ids';
import { teamProcedure } from '../trpc';
import { ArchivedSchema, PoolConfigListSchema, PoolConfigViewSchema } from './pool-config.types';
import {
  archivePoolConfig,
  createPoolConfig,
  duplicatePoolConfig,
  getPoolConfig,
  listPoolConfigs,
  updatePoolConfig,
} from '~/server/services/pool-configs/pool-configs';

export const poolConfigRouter = {
  list: teamProcedure('viewer')
    .input(z.object({ targetId: IdSchema.optional() }))
    .output(PoolConfigListSchema)
    .query(({ ctx, input }) => listPoolConfigs(ctx.db, ctx.team.id, input.targetId)),
  get: teamProcedure('viewer')
    .input(ByIdSchema)
    .output(PoolConfigViewSchema)
    .query(({ ctx, input }) => getPoolConfig(ctx.db, ctx.team.id, input.id)),
  create: teamProcedure('member')
    .input(PoolConfigSaveSchema.extend({ targetId: IdSchema }))
    .output(PoolConfigViewSchema)
    .mutation(({ ctx, input }) => createPoolConfig(ctx.db, ctx.team.id, input)),
  update: teamProcedure('member')
    .input(PoolConfigSaveSchema.extend({ id: IdSchema }))
    .output(PoolConfigViewSchema)
    .mutation(({ ctx, input }) => updatePoolConfig(ctx.db, ctx.team.id, input)),
  duplicate: teamProcedure('member')
    .input(ByIdSchema)
    .output(PoolConfigViewSchema)
    .mutation(({ ctx, input }) => duplicatePoolConfig(ctx.db, ctx.team.id, input.id)),
  archive: teamProcedure('member')
    .input(ByIdSchema)
    .output(ArchivedSchema)
    .mutation(({ ctx, input }) => archivePoolConfig(ctx.db, ctx.team.id, input.id)),
};
