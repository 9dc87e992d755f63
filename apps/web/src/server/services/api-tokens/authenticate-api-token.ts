import type { Db, Role } from '@poolbench/db';
import type { ApiScope } from '~/lib/api-scopes';
import { hashApiToken, isWellFormedApiToken } from './token-format';

export interface ApiPrincipal {
  tokenId: string;
  teamId: string;
  scopes: ApiScope[];
  /** the admin who created the token; experiments started with it are attributed to them */
  createdById: string;
  /**
   * The creator's role in the token's team right now (read on every use, never cached): a token
   * may do only what its creator may still do, see `scopeAllowedFor`.
   */
  creatorRole: Role;
}

/** `creator_removed`: the creator left the team (or was deleted), so the token no longer acts for anyone. */
export type AuthFailure = 'malformed' | 'unknown' | 'revoked' | 'expired' | 'creator_removed';

/** lastUsedAt is written at most once a minute per token, so polling CI jobs do not hammer one row. */
export const LAST_USED_THROTTLE_MS = 60_000;

export async function authenticateApiToken(
  db: Db,
  token: string,
  now = new Date(),
): Promise<ApiPrincipal | AuthFailure> {
  if (!isWellFormedApiToken(token)) return 'malformed';
  const row = await db.apiToken.findUnique({
    where: { tokenHash: hashApiToken(token) },
    select: {
      id: true,
      teamId: true,
      scopes: true,
      createdById: true,
      expiresAt: true,
      revokedAt: true,
      lastUsedAt: true,
    },
  });
  if (!row) return 'unknown';
  if (row.revokedAt) return 'revoked';
  if (row.expiresAt && row.expiresAt <= now) return 'expired';
  const membership = await db.membership.findUnique({
    where: { teamId_userId: { teamId: row.teamId, userId: row.createdById } },
    select: { role: true },
  });
  if (!membership) return 'creator_removed';
  if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() >= LAST_USED_THROTTLE_MS) {
    // conditional, so concurrent requests write once; a failed write must not fail the request
    await db.apiToken
      .updateMany({
        where: {
          id: row.id,
          OR: [
            { lastUsedAt: null },
            { lastUsedAt: { lt: new Date(now.getTime() - LAST_USED_THROTTLE_MS) } },
          ],
        },
        data: { lastUsedAt: now },
      })
      .catch(() => {});
  }
  return {
    tokenId: row.id,
    teamId: row.teamId,
    scopes: row.scopes as ApiScope[],
    createdById: row.createdById,
    creatorRole: membership.role,
  };
}
