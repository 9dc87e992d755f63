import { z } from 'zod';
import { IdSchema } from '~/lib/schemas/ids';
import { teamProcedure } from '../trpc';
import { OnboardingSchema, PresetsAddedSchema } from './onboarding.types';
import { applyAllPresets, getOnboarding } from '~/server/services/onboarding/onboarding';

export const onboardingRouter = {
  /** The active team's first steps, each done or not from its own rows. */
  get: teamProcedure('viewer')
    .output(OnboardingSchema)
    .query(({ ctx }) => getOnboarding(ctx.db, ctx.team.id)),
  /** One click: every seed preset the team does not have yet, on its lab target. */
  addPresets: teamProcedure('member')
    .input(z.object({ targetId: IdSchema }))
    .output(PresetsAddedSchema)
    .mutation(({ ctx, input }) => applyAllPresets(ctx.db, ctx.team.id, input.targetId)),
};
