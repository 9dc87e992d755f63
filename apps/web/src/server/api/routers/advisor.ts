import { z } from 'zod';
import { AdvisorInputSchema } from '~/lib/schemas/advisor';
import { IdSchema } from '~/lib/schemas/ids';
import { teamProcedure } from '../trpc';
import { ExperimentLaunchedSchema } from './experiment.types';
import { PoolConfigViewSchema } from './pool-config.types';
import { saveAdvisorSetting, startAdvisor } from '~/server/services/advisor/advisor';
import { verifiedTeamProcedure } from '../verified';

/** The pool-size advisor (docs/advisor.md); its experiment is read with experiment.get. */
export const advisorRouter = {
  start: verifiedTeamProcedure('member')
    .input(AdvisorInputSchema)
    .output(ExperimentLaunchedSchema)
    .mutation(({ ctx, input }) =>
      startAdvisor(
        { db: ctx.db, queue: ctx.runQueue() },
        { teamId: ctx.team.id, userId: ctx.user.id, def: input },
      ),
    ),
  /** one of the advisor's measured settings (default: the recommended one) as a live pool config */
  savePoolConfig: teamProcedure('member')
    .input(
      z.object({
        experimentId: IdSchema,
        setting: z.number().int('must be a whole number').min(1).max(1000).optional(),
        name: z.string().trim().min(1).max(80, 'must be at most 80 characters').optional(),
      }),
    )
    .output(PoolConfigViewSchema)
    .mutation(({ ctx, input }) => saveAdvisorSetting(ctx.db, ctx.team.id, input)),
};
