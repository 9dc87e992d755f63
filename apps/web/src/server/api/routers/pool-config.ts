import { z } from 'zod';
import { PoolConfigSchema } from '@poolbench/scenarios';
import { ByIdSchema, IdSchema } from '~/lib/schemas/ids';
import { teamProcedure } from '../trpc';
import { archivePoolConfig, createPoolConfig, duplicatePoolConfig, getPoolConfig, listPoolConfigs, updatePoolConfig } from '~/server/services/pool-configs/pool-configs';

const name = z.string().trim().min(1, 'is required').max(80, 'must be at most 80 characters');

export const poolConfigRouter = {
  list: teamProcedure('viewer').input(z.object({ targetId: IdSchema.optional() })).query(({ ctx, input }) => listPoolConfigs(ctx.db, ctx.team.id, input.targetId)),
  get: teamProcedure('viewer').input(ByIdSchema).query(({ ctx, input }) => getPoolConfig(ctx.db, ctx.team.id, input.id)),
  create: teamProcedure('member')
    .input(z.object({ targetId: IdSchema, name, config: PoolConfigSchema }))
    .mutation(({ ctx, input }) => createPoolConfig(ctx.db, ctx.team.id, input)),
  update: teamProcedure('member')
    .input(z.object({ id: IdSchema, name, config: PoolConfigSchema }))
    .mutation(({ ctx, input }) => updatePoolConfig(ctx.db, ctx.team.id, input)),
  duplicate: teamProcedure('member').input(ByIdSchema).mutation(({ ctx, input }) => duplicatePoolConfig(ctx.db, ctx.team.id, input.id)),
  archive: teamProcedure('member').input(ByIdSchema).mutation(({ ctx, input }) => archivePoolConfig(ctx.db, ctx.team.id, input.id)),
};
