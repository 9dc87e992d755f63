import type { Db } from '@poolbench/db';

export async function listMyTeams(db: Db, userId: string) {
  const rows = await db.membership.findMany({
    where: { userId },
    select: { role: true, team: { select: { id: true, name: true, slug: true } } },
    orderBy: { createdAt: 'asc' },
  });
  return rows.map((r) => ({ ...r.team, role: r.role }));
}
