import type { Db } from '@poolbench/db';

export async function listMembers(db: Db, teamId: string) {
  const rows = await db.membership.findMany({
    where: { teamId },
    select: {
      id: true,
      role: true,
      createdAt: true,
      user: { select: { id: true, name: true, email: true } },
    },
    orderBy: { createdAt: 'asc' },
  });
  return rows.map((r) => ({ membershipId: r.id, role: r.role, joinedAt: r.createdAt, ...r.user }));
}
