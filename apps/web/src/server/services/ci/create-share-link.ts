import type { Db } from '@poolbench/db';
import { createShareLink } from '../share-links/create-share-link';
import { NotFoundError } from '../errors';

/** A read-only link to the experiment, made by the share-link service the UI uses. */
export async function createCiShareLink(
  db: Db,
  input: {
    teamId: string;
    userId: string;
    experimentId: string;
    baseUrl: string;
    expiresInDays?: number;
  },
) {
  const e = await db.experiment.findFirst({
    where: { id: input.experimentId, teamId: input.teamId },
    select: { name: true },
  });
  if (!e) throw new NotFoundError('experiment');
  const link = await createShareLink(db, input.teamId, input.userId, {
    target: { kind: 'experiment', experimentId: input.experimentId },
    title: e.name,
    expiresInDays: input.expiresInDays ?? null,
  });
  return {
    url: `${input.baseUrl}${link.path}`,
    expiresAt: link.expiresAt ? link.expiresAt.toISOString() : null,
  };
}
