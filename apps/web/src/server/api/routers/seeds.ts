import { z } from 'zod';
import { SEED_ADVISOR_QUESTION_IDS, SEED_IDS } from '@poolbench/scenarios';
import { teamProcedure } from '../trpc';
import { SeedsOverviewSchema, SeedsReproducedSchema } from './seeds.types';
import { adviseSeedQuestion, reproduceSeeds, seedsOverview } from '~/server/services/seeds/seeds';
import { verifiedTeamProcedure } from '../verified';

export const seedsRouter = {
  overview: teamProcedure('viewer')
    .output(SeedsOverviewSchema)
    .query(({ ctx }) => seedsOverview(ctx.db, ctx.team.id)),
  reproduce: verifiedTeamProcedure('member')
    .input(
      z.object({
        seeds: z
          .array(z.enum(SEED_IDS, { error: `must be one of ${SEED_IDS.join(', ')}` }))
          .max(5)
          .optional(),
      }),
    )
    .output(SeedsReproducedSchema)
    .mutation(({ ctx, input }) =>
      reproduceSeeds(
        { db: ctx.db, queue: ctx.runQueue() },
        { teamId: ctx.team.id, userId: ctx.user.id, seeds: input.seeds },
      ),
    ),
  /** a seed question answered by the pool-size advisor (SEED_ADVISOR_QUESTIONS) */
  advise: verifiedTeamProcedure('member')
    .input(
      z.object({
        question: z.enum(SEED_ADVISOR_QUESTION_IDS, {
          error: `must be one of ${SEED_ADVISOR_QUESTION_IDS.join(', ')}`,
        }),
      }),
    )
    .output(z.object({ experimentId: z.string(), enqueued: z.boolean() }))
    .mutation(({ ctx, input }) =>
      adviseSeedQuestion(
        { db: ctx.db, queue: ctx.runQueue() },
        { teamId: ctx.team.id, userId: ctx.user.id, questionId: input.question },
      ),
    ),
};
