import type { Db } from '@poolbench/db';

/**
 * Whether the account signs in with a password: a credential account that holds one. Verifying
 * the address from a browser that was not signed in clears it (docs/security.md), and the user
 * chooses a new one by the reset mail.
 */
export async function hasPassword(db: Db, userId: string): Promise<boolean> {
  const n = await db.account.count({
    where: { userId, providerId: 'credential', password: { not: null } },
  });
  return n > 0;
}
