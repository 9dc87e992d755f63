import { cache } from 'react';
import { headers } from 'next/headers';
import { auth } from './auth';

/** The signed-in user and session for this request (cached per render), or null. */
export const getSession = cache(async (h?: Headers) => {
  const s = await auth.api.getSession({ headers: h ?? (await headers()) });
  if (!s) return null;
  return {
    user: {
      id: s.user.id,
      name: s.user.name,
      email: s.user.email,
      emailVerified: s.user.emailVerified === true,
    },
    sessionId: s.session.id,
    activeTeamId: (s.session as { activeTeamId?: string | null }).activeTeamId ?? null,
  };
});
