import type { Db } from '@poolbench/db';
import { NotFoundError } from '../errors';

/** Longest retention a team may set (10 years); null keeps per-second data forever. */
export const MAX_RETENTION_DAYS = 3650;

export interface RetentionInfo {
  retentionDays: number | null;
  /** runs of the team whose per-second data retention has removed */
  prunedRuns: number;
}

/** How long the team keeps per-second data, and what retention has removed so far. */
export async function getRetention(db: Db, teamId: string): Promise<RetentionInfo> {
  const team = await db.team.findUnique({ where: { id: teamId }, select: { retentionDays: true } });
  if (!team) throw new NotFoundError('team');
  const prunedRuns = await db.run.count({ where: { teamId, secondsPrunedAt: { not: null } } });
  return { retentionDays: team.retentionDays, prunedRuns };
}

/**
 * Sets the team's retention (admins). Applied by the storage maintenance of the lifecycle sweeper
 * (hourly): per-second rows and resource samples of runs finished longer ago are removed;
 * summaries, merged histograms and the runs stay. Removal cannot be undone.
 */
export async function setRetention(
  db: Db,
  teamId: string,
  retentionDays: number | null,
): Promise<RetentionInfo> {
  await db.team.update({ where: { id: teamId }, data: { retentionDays } });
  return getRetention(db, teamId);
}
