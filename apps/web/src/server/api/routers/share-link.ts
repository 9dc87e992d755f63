import { z } from 'zod';
import { ByIdSchema, IdSchema } from '~/lib/schemas/ids';
import { teamProcedure } from '../trpc';
import {
  ShareLinkCreatedSchema,
  ShareLinkListSchema,
  ShareLinkRevokedSchema,
} from './share-link.types';
import { SelectionSchema } from '~/lib/compare/selection';
import { createShareLink } from '~/server/services/share-links/create-share-link';
import { listShareLinks } from '~/server/services/share-links/list-share-links';
import { revokeShareLink } from '~/server/services/share-links/revoke-share-link';

const TargetSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('run'), runId: IdSchema }),
  z.object({ kind: z.literal('experiment'), experimentId: IdSchema }),
  z.object({ kind: z.literal('comparison'), selection: SelectionSchema }),
]);

export const shareLinkRouter = {
  /** Returns the token once; only its hash is stored. */
  create: teamProcedure('member')
    .input(
      z.object({
        target: TargetSchema,
        title: z.string().trim().min(1, 'is required').max(120),
        expiresInDays: z.number().int().min(1).max(365).nullish(),
      }),
    )
    .output(ShareLinkCreatedSchema)
    .mutation(({ ctx, input }) => createShareLink(ctx.db, ctx.team.id, ctx.user.id, input)),
  list: teamProcedure('viewer')
    .output(ShareLinkListSchema)
    .query(({ ctx }) => listShareLinks(ctx.db, ctx.team.id)),
  revoke: teamProcedure('member')
    .input(ByIdSchema)
    .output(ShareLinkRevokedSchema)
    .mutation(async ({ ctx, input }) => {
      await revokeShareLink(ctx.db, ctx.team.id, input.id);
      await ctx.forgetAuth?.({ shareLinkId: input.id });
    }),
};
