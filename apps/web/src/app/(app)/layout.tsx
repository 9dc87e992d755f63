import { redirect } from 'next/navigation';
import { AppShell } from '~/components/shell/app-shell';
import { cachedTeam } from '~/server/auth-cache';
import { db } from '~/server/db';
import { getSession } from '~/server/session';
import { hasPassword } from '~/server/services/auth/has-password';

export const dynamic = 'force-dynamic';

export default async function AppLayout({ children }: { children: React.ReactNode }) {
  const session = await getSession();
  if (!session) redirect('/sign-in');
  // Every signed-in page decides the session's team from the authorization cache, so a page kept
  // for this session (server.mjs's fast path, shell-pages.ts) is answered only while that decision
  // is held, and each page that renders renews it.
  const [, passwordSet] = await Promise.all([
    cachedTeam(db, session.user.id, session.activeTeamId),
    hasPassword(db, session.user.id),
  ]);
  return <AppShell user={{ ...session.user, hasPassword: passwordSet }}>{children}</AppShell>;
}
