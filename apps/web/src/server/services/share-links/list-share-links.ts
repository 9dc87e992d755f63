import type { Db } from '@poolbench/db';

/** The team's share links for settings; never the tokens (they are not stored). */
export async function listShareLinks(db: Db, teamId: string, now = new Date()) {
  const rows = await db.shareLink.findMany({
    where: { teamId },
    select: {
      id: true,
      kind: true,
      title: true,
      runId: true,
      experimentId: true,
      expiresAt: true,
      revokedAt: true,
      createdAt: true,
      lastAccessedAt: true,
      accessCount: true,
      createdById: true,
    },
    orderBy: { createdAt: 'desc' },
    take: 200,
  });
  return rows.map((r) => ({
    ...r,
    state: r.revokedAt
      ? ('revoked' as const)
      : r.expiresAt && r.expiresAt <= now
        ? ('expired' as const)
        : ('active' as const),
  }));
}
