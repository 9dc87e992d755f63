import { randomBytes } from 'node:crypto';
import type { Db } from '@poolbench/db';

function slugify(name: string): string {
  const base =
    name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '')
      .slice(0, 40) || 'team';
  return `${base}-${randomBytes(3).toString('hex')}`;
}

/** A new team with the user as owner. Sign-up calls it, so nobody is ever without a team. */
export async function createTeam(
  db: Db,
  input: { userId: string; name: string },
): Promise<{ id: string; slug: string }> {
  return db.team.create({
    data: {
      name: input.name,
      slug: slugify(input.name),
      memberships: { create: { userId: input.userId, role: 'owner' } },
    },
    select: { id: true, slug: true },
  });
}
