import type { Db } from '@poolbench/db';
import { NotFoundError } from '../errors';
import { forgetSharedLink } from './shared-response';

/**
 * Revoking is immediate and final: the next request with the token answers 404 in this process;
 * the caller tells the other web processes (`forgetAuth({ shareLinkId })`).
 */
export async function revokeShareLink(db: Db, teamId: string, id: string) {
  const link = await db.shareLink.findFirst({
    where: { id, teamId },
    select: { id: true, revokedAt: true },
  });
  if (!link) throw new NotFoundError('share link');
  if (!link.revokedAt)
    await db.shareLink.update({ where: { id }, data: { revokedAt: new Date() } });
  forgetSharedLink(id);
}
