import { z } from 'zod';
import { RoleSchema } from '~/lib/schemas/role';

/** Response schemas of the apiToken procedures (documenso's `.types.ts` pattern). */
const TokenFields = {
  id: z.string(),
  name: z.string(),
  prefix: z.string(),
  last4: z.string(),
  /** stored as text[]; only known scopes are ever written (CreateApiTokenSchema) */
  scopes: z.array(z.string()),
  expiresAt: z.date().nullable(),
  createdAt: z.date(),
};

export const ApiTokenListSchema = z.array(
  z.object({
    ...TokenFields,
    lastUsedAt: z.date().nullable(),
    revokedAt: z.date().nullable(),
    createdById: z.string(),
    createdBy: z.string().nullable(),
    createdByEmail: z.string().nullable(),
    /** null: the creator left the team and the token no longer authenticates */
    createdByRole: RoleSchema.nullable(),
  }),
);

/** The only answer that carries the whole token. */
export const ApiTokenCreatedSchema = z.object({ ...TokenFields, token: z.string() });

export const ApiTokenRevokedSchema = z.object({ id: z.string(), revokedAt: z.date().nullable() });
