import { DEMO_EMAIL, type Db } from '@poolbench/db';

/**
 * An installation admin decides which special-purpose ranges (loopback, private, …) teams may
 * allowlist. Two kinds: the installation's first account (the earliest sign-up; the seeded demo
 * login, whose password is public, never counts), and every verified address named in
 * `POOLBENCH_INSTALLATION_ADMINS`. An address named there but not verified does not count, so
 * signing up under someone else's address first gains nothing.
 */
export async function isInstallationAdmin(
  db: Db,
  user: { id: string; email: string; emailVerified?: boolean | null },
  namedAdmins: readonly string[],
): Promise<boolean> {
  const email = user.email.trim().toLowerCase();
  if (user.emailVerified === true && namedAdmins.some((a) => a.trim().toLowerCase() === email))
    return true;
  const first = await db.user.findFirst({
    where: { email: { not: DEMO_EMAIL } },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    select: { id: true },
  });
  return first?.id === user.id;
}
