import { z } from 'zod';
import { ShareKind } from '@poolbench/db';

/** Response schemas of the shareLink procedures (documenso's `.types.ts` pattern). */
const ShareKindSchema = z.enum(ShareKind);

/** The only answer that carries the token (only its hash is stored). */
export const ShareLinkCreatedSchema = z.object({
  id: z.string(),
  kind: ShareKindSchema,
  title: z.string(),
  expiresAt: z.date().nullable(),
  createdAt: z.date(),
  token: z.string(),
  path: z.string(),
});

export const ShareLinkListSchema = z.array(
  z.object({
    id: z.string(),
    kind: ShareKindSchema,
    title: z.string(),
    runId: z.string().nullable(),
    experimentId: z.string().nullable(),
    expiresAt: z.date().nullable(),
    revokedAt: z.date().nullable(),
    createdAt: z.date(),
    lastAccessedAt: z.date().nullable(),
    accessCount: z.number().int(),
    createdById: z.string().nullable(),
    state: z.enum(['active', 'expired', 'revoked']),
  }),
);

export const ShareLinkRevokedSchema = z.void();
