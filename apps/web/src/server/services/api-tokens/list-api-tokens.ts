import type { Db, Role } from '@poolbench/db';
import { TOKEN_SELECT } from './create-api-token';

/**
 * The team's tokens with who created each and that person's role in the team today, because a
 * token can do only what its creator still may (`scopeAllowedFor`); `createdByRole: null` means
 * the creator left the team and the token no longer authenticates.
 */
export async function listApiTokens(db: Db, teamId: string) {
  const rows = await db.apiToken.findMany({
    where: { teamId },
    select: { ...TOKEN_SELECT, lastUsedAt: true, revokedAt: true, createdById: true },
    orderBy: [{ revokedAt: { sort: 'desc', nulls: 'first' } }, { createdAt: 'desc' }],
  });
  const ids = [...new Set(rows.map((r) => r.createdById))];
  const [users, memberships] = await Promise.all([
    db.user.findMany({ where: { id: { in: ids } }, select: { id: true, name: true, email: true } }),
    db.membership.findMany({
      where: { teamId, userId: { in: ids } },
      select: { userId: true, role: true },
    }),
  ]);
  const userOf = new Map(users.map((u) => [u.id, u]));
  const roleOf = new Map<string, Role>(memberships.map((m) => [m.userId, m.role]));
  return rows.map((r) => ({
    ...r,
    createdBy: userOf.get(r.createdById)?.name ?? null,
    createdByEmail: userOf.get(r.createdById)?.email ?? null,
    createdByRole: roleOf.get(r.createdById) ?? null,
  }));
}
