import type { Db, Role } from '@poolbench/db';
import { ConflictError, NotFoundError, PolicyError } from '../errors';

interface Actor {
  teamId: string;
  userId: string;
  role: Role;
}

async function loadTarget(db: Db, actor: Actor, membershipId: string) {
  const m = await db.membership.findFirst({
    where: { id: membershipId, teamId: actor.teamId },
    select: { id: true, role: true, userId: true },
  });
  if (!m) throw new NotFoundError('member');
  return m;
}

async function assertNotLastOwner(db: Db, teamId: string, m: { role: Role }) {
  if (m.role !== 'owner') return;
  const owners = await db.membership.count({ where: { teamId, role: 'owner' } });
  if (owners <= 1)
    throw new ConflictError('a team needs at least one owner: make someone else owner first');
}

/**
 * Admins manage members; only owners may grant or take away the owner role. Returns whose role
 * changed, for the caller to revoke what is cached about them.
 */
export async function changeMemberRole(
  db: Db,
  actor: Actor,
  input: { membershipId: string; role: Role },
): Promise<{ userId: string }> {
  const m = await loadTarget(db, actor, input.membershipId);
  if ((m.role === 'owner' || input.role === 'owner') && actor.role !== 'owner')
    throw new PolicyError('only an owner can grant or remove the owner role');
  if (input.role !== 'owner') await assertNotLastOwner(db, actor.teamId, m);
  await db.membership.update({ where: { id: m.id }, data: { role: input.role } });
  return { userId: m.userId };
}

/** Returns who was removed, for the caller to revoke what is cached about them. */
export async function removeMember(
  db: Db,
  actor: Actor,
  input: { membershipId: string },
): Promise<{ userId: string }> {
  const m = await loadTarget(db, actor, input.membershipId);
  if (m.role === 'owner' && actor.role !== 'owner')
    throw new PolicyError('only an owner can remove an owner');
  await assertNotLastOwner(db, actor.teamId, m);
  await db.membership.delete({ where: { id: m.id } });
  return { userId: m.userId };
}
