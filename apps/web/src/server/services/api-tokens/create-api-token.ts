import type { Db } from '@poolbench/db';
import { z } from 'zod';
import { ConflictError } from '../errors';
import { ApiScopeSchema } from '~/lib/api-scopes';
import { generateApiToken, hashApiToken, tokenDisplayParts } from './token-format';

export const CreateApiTokenSchema = z.object({
  name: z.string().trim().min(1, 'is required').max(80, 'must be at most 80 characters'),
  scopes: z.array(ApiScopeSchema).min(1, 'choose at least one scope').max(2),
  /** null: never expires */
  expiresInDays: z
    .number()
    .int('must be a whole number of days')
    .min(1, 'must be at least 1 day')
    .max(3650)
    .nullable()
    .default(90),
});
export type CreateApiTokenInput = z.input<typeof CreateApiTokenSchema>;

/** The only moment the full token exists outside the caller: it is returned once, stored as a hash. */
export async function createApiToken(
  db: Db,
  input: { teamId: string; userId: string; now?: Date } & z.output<typeof CreateApiTokenSchema>,
) {
  const clash = await db.apiToken.findFirst({
    where: { teamId: input.teamId, name: input.name, revokedAt: null },
    select: { id: true },
  });
  if (clash) throw new ConflictError(`an active token named "${input.name}" already exists`);
  const token = generateApiToken();
  const now = input.now ?? new Date();
  const row = await db.apiToken.create({
    data: {
      teamId: input.teamId,
      name: input.name,
      ...tokenDisplayParts(token),
      tokenHash: hashApiToken(token),
      scopes: [...new Set(input.scopes)],
      expiresAt:
        input.expiresInDays === null
          ? null
          : new Date(now.getTime() + input.expiresInDays * 86_400_000),
      createdById: input.userId,
    },
    select: TOKEN_SELECT,
  });
  return { ...row, token };
}

/** What a token shows of itself: never its hash, only its prefix and last four characters. */
export const TOKEN_SELECT = {
  id: true,
  name: true,
  prefix: true,
  last4: true,
  scopes: true,
  expiresAt: true,
  createdAt: true,
} as const;
