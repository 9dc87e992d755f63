import { z } from 'zod';
import { createCiShareLink } from '~/server/services/ci/create-share-link';
import { op, type Operation } from '../operation';
import { Iso } from '../schemas';

export const CreateShareSchema = z.strictObject({
  expiresInDays: z.number().int().min(1).max(365).optional(),
});

export const ShareLinkSchema = z.object({ url: z.string(), expiresAt: Iso.nullable() });

/** Read-only share links. */
export const SHARE_LINK_OPERATIONS: Operation[] = [
  op({
    method: 'POST',
    path: '/experiments/{id}/share',
    operationId: 'createShareLink',
    scope: 'runs:write',
    status: 201,
    summary: 'Create a read-only share link for the experiment',
    body: CreateShareSchema,
    bodyName: 'CreateShareLink',
    response: ShareLinkSchema,
    responseName: 'ShareLink',
    handle: ({ deps, principal, params, body }) =>
      createCiShareLink(deps.db, {
        teamId: principal.teamId,
        userId: principal.createdById,
        experimentId: params.id!,
        baseUrl: deps.baseUrl,
        ...body,
      }),
  }),
];
