import type { DbOrTx } from '../client';

/**
 * The special-purpose ranges this installation opened to teams' allowlists (`InstallationRange`),
 * read where a destination is judged: the web app at save, the worker before each run and
 * delivery. Empty until an installation admin opens one.
 */
export async function openedRanges(db: DbOrTx): Promise<string[]> {
  const rows = await db.installationRange.findMany({
    select: { cidr: true },
    orderBy: { cidr: 'asc' },
  });
  return rows.map((r) => r.cidr);
}
