import type { Db } from '@poolbench/db';

export async function listApiTokens(db: Db, teamId: string) {
  const rows = await db.apiToken.findMany({
    where: { teamId },
    select: { id: true, name: true, prefix: true, last4: true, scopes: true, expiresAt: true, lastUsedAt: true, revokedAt: true, createdAt: true, createdById: true },
    orderBy: [{ revokedAt: { sort: 'desc', nulls: 'first' } }, { createdAt: 'desc' }],
  });
  const users = await db.user.findMany({ where: { id: { in: [...new Set(rows.map((r) => r.createdById))] } }, select: { id: true, name: true } });
  const nameOf = new Map(users.map((u) => [u.id, u.name]));
  return rows.map((r) => ({ ...r, createdBy: nameOf.get(r.createdById) ?? null }));
}
