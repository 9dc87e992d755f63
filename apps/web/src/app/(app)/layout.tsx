import { redirect } from 'next/navigation';
import { AppShell } from '~/components/shell/app-shell';
import { cachedTeam } from '~/server/auth-cache';
import { db } from '~/server/db';
import { getSession } from '~/server/session';

export const dynamic = 'force-dynamic';

export default async function AppLayout({ children }: { children: React.ReactNode }) {
  const session = await getSession();
  if (!session) redirect('/sign-in');
  // Every signed-in page decides the session's team from the authorization cache, so a page kept
  // for this session (server.mjs's fast path, shell-pages.ts) is answered only while that decision
  // is held, and each page that renders renews it.
  await cachedTeam(db, session.user.id, session.activeTeamId);
  return (
    <AppShell user={{ ...session.user, hasPassword: session.hasPassword }}>{children}</AppShell>
  );
}
