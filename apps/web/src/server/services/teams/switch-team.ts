import type { Db } from '@poolbench/db';
import { NotFoundError } from '../errors';

/** Stores the chosen team on the session row; resolveTeam re-checks membership on every request. */
export async function switchTeam(
  db: Db,
  input: { userId: string; sessionId: string; teamId: string },
): Promise<void> {
  const m = await db.membership.findUnique({
    where: { teamId_userId: { teamId: input.teamId, userId: input.userId } },
    select: { id: true },
  });
  if (!m) throw new NotFoundError('team');
  await db.session.update({ where: { id: input.sessionId }, data: { activeTeamId: input.teamId } });
}
