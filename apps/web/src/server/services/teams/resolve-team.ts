import type { Db, Role } from '@poolbench/db';

export interface ActiveTeam {
  id: string;
  name: string;
  slug: string;
  role: Role;
}

/** The session's team if the user is still a member of it, else their oldest membership. */
export async function resolveTeam(
  db: Db,
  userId: string,
  activeTeamId: string | null,
): Promise<ActiveTeam | null> {
  const memberships = await db.membership.findMany({
    where: { userId },
    select: { role: true, team: { select: { id: true, name: true, slug: true } } },
    orderBy: { createdAt: 'asc' },
  });
  const m = memberships.find((x) => x.team.id === activeTeamId) ?? memberships[0];
  return m ? { ...m.team, role: m.role } : null;
}
