import { createHash, randomBytes } from 'node:crypto';
import type { Db, Role } from '@poolbench/db';
import { ConflictError, NotFoundError, PolicyError } from '../errors';

const INVITE_TTL_MS = 7 * 24 * 3600 * 1000;
export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** The token (>= 128 random bits) is returned once; only its sha256 is stored. */
export async function createInvitation(
  db: Db,
  input: {
    teamId: string;
    createdById: string;
    actorRole: Role;
    role: Role;
    email?: string | null;
  },
) {
  if (input.role === 'owner' && input.actorRole !== 'owner')
    throw new PolicyError('only an owner can invite another owner');
  const token = randomBytes(24).toString('base64url');
  const inv = await db.invitation.create({
    data: {
      teamId: input.teamId,
      role: input.role,
      email: input.email ?? null,
      tokenHash: hashToken(token),
      expiresAt: new Date(Date.now() + INVITE_TTL_MS),
      createdById: input.createdById,
    },
    select: { id: true, expiresAt: true },
  });
  return { ...inv, token };
}

export async function listInvitations(db: Db, teamId: string) {
  return db.invitation.findMany({
    where: { teamId, acceptedAt: null, revokedAt: null, expiresAt: { gt: new Date() } },
    select: { id: true, email: true, role: true, expiresAt: true, createdAt: true },
    orderBy: { createdAt: 'desc' },
  });
}

export async function revokeInvitation(db: Db, input: { teamId: string; invitationId: string }) {
  const r = await db.invitation.updateMany({
    where: { id: input.invitationId, teamId: input.teamId, revokedAt: null },
    data: { revokedAt: new Date() },
  });
  if (r.count === 0) throw new NotFoundError('invitation');
}

async function findUsable(db: Db, token: string) {
  const inv = await db.invitation.findUnique({
    where: { tokenHash: hashToken(token) },
    select: {
      id: true,
      teamId: true,
      role: true,
      email: true,
      expiresAt: true,
      acceptedAt: true,
      revokedAt: true,
      team: { select: { name: true } },
    },
  });
  if (!inv || inv.revokedAt || inv.expiresAt <= new Date())
    throw new NotFoundError('invitation (it may have expired or been revoked)');
  return inv;
}

export async function describeInvitation(db: Db, token: string) {
  const inv = await findUsable(db, token);
  return { teamName: inv.team.name, role: inv.role, accepted: inv.acceptedAt !== null };
}

/** Joins the team (idempotent for an existing member: keeps the higher role) and makes it active. */
export async function acceptInvitation(
  db: Db,
  input: {
    token: string;
    userId: string;
    userEmail: string;
    userEmailVerified: boolean;
    sessionId: string | null;
  },
) {
  const inv = await findUsable(db, input.token);
  if (inv.acceptedAt) throw new ConflictError('this invitation was already used');
  if (inv.email) {
    // the bearer of a link learns nothing about the address it was sent to
    if (inv.email.toLowerCase() !== input.userEmail.toLowerCase())
      throw new PolicyError(
        'this invitation was sent to another email address; sign in with the account of that address',
      );
    // a sign-up under the invited address proves nothing until the address is verified
    if (!input.userEmailVerified)
      throw new PolicyError(
        'verify your email address first: open the link in the message PoolBench sent to it (the yellow banner sends it again), then accept this invitation',
      );
  }
  await db.$transaction(async (tx) => {
    const used = await tx.invitation.updateMany({
      where: { id: inv.id, acceptedAt: null },
      data: { acceptedAt: new Date(), acceptedBy: input.userId },
    });
    if (used.count === 0) throw new ConflictError('this invitation was already used');
    const existing = await tx.membership.findUnique({
      where: { teamId_userId: { teamId: inv.teamId, userId: input.userId } },
    });
    if (!existing)
      await tx.membership.create({
        data: { teamId: inv.teamId, userId: input.userId, role: inv.role },
      });
    if (input.sessionId)
      await tx.session.update({
        where: { id: input.sessionId },
        data: { activeTeamId: inv.teamId },
      });
  });
  return { teamId: inv.teamId };
}
