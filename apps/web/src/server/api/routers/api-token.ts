import { ByIdSchema } from '~/lib/schemas/ids';
import { teamProcedure } from '../trpc';
import {
  ApiTokenCreatedSchema,
  ApiTokenListSchema,
  ApiTokenRevokedSchema,
} from './api-token.types';
import {
  createApiToken,
  CreateApiTokenSchema,
} from '~/server/services/api-tokens/create-api-token';
import { listApiTokens } from '~/server/services/api-tokens/list-api-tokens';
import { revokeApiToken } from '~/server/services/api-tokens/revoke-api-token';
import { verifiedTeamProcedure } from '../verified';

/** Tokens act for the whole team in CI, so only admins see, create or revoke them. */
export const apiTokenRouter = {
  list: teamProcedure('admin')
    .output(ApiTokenListSchema)
    .query(({ ctx }) => listApiTokens(ctx.db, ctx.team.id)),
  create: verifiedTeamProcedure('admin')
    .input(CreateApiTokenSchema)
    .output(ApiTokenCreatedSchema)
    .mutation(({ ctx, input }) =>
      createApiToken(ctx.db, { teamId: ctx.team.id, userId: ctx.user.id, ...input }),
    ),
  revoke: teamProcedure('admin')
    .input(ByIdSchema)
    .output(ApiTokenRevokedSchema)
    .mutation(({ ctx, input }) => revokeApiToken(ctx.db, ctx.team.id, input.id)),
};
