import { z } from 'zod';
import { IdSchema } from '~/lib/schemas/ids';
import { env } from '~/server/env';
import { isInstallationAdmin } from '~/server/services/installation/installation-admin';
import {
  closeRange,
  listOpenedRanges,
  openRange,
} from '~/server/services/installation/opened-ranges';
import { installationProcedure, protectedProcedure } from '../trpc';
import {
  InstallationDoneSchema,
  InstallationMeSchema,
  OpenedRangeSchema,
  OpenedRangesSchema,
} from './installation.types';

/** What the whole installation allows its teams: the special-purpose ranges opened to them. */
export const installationRouter = {
  me: protectedProcedure.output(InstallationMeSchema).query(async ({ ctx }) => ({
    admin: await isInstallationAdmin(
      ctx.db,
      ctx.user,
      ctx.installationAdmins ?? env.POOLBENCH_INSTALLATION_ADMINS,
    ),
  })),
  ranges: installationProcedure
    .output(OpenedRangesSchema)
    .query(({ ctx }) => listOpenedRanges(ctx.db)),
  open: installationProcedure
    .input(
      z.object({
        cidr: z.string().min(1, 'is required').max(64),
        note: z.string().max(200).optional(),
      }),
    )
    .output(OpenedRangeSchema)
    .mutation(({ ctx, input }) =>
      openRange(ctx.db, { cidr: input.cidr, note: input.note ?? null, createdById: ctx.user.id }),
    ),
  close: installationProcedure
    .input(z.object({ id: IdSchema }))
    .output(InstallationDoneSchema)
    .mutation(({ ctx, input }) => closeRange(ctx.db, input.id)),
};
