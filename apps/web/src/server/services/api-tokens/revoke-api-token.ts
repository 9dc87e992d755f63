import type { Db } from '@poolbench/db';
import { NotFoundError } from '../errors';

/** Revoking is immediate: authentication checks revokedAt on every request, nothing is cached. */
export async function revokeApiToken(db: Db, teamId: string, id: string, now = new Date()) {
  const row = await db.apiToken.findFirst({
    where: { id, teamId },
    select: { id: true, revokedAt: true },
  });
  if (!row) throw new NotFoundError('API token');
  if (row.revokedAt) return { id, revokedAt: row.revokedAt };
  return db.apiToken.update({
    where: { id },
    data: { revokedAt: now },
    select: { id: true, revokedAt: true },
  });
}
