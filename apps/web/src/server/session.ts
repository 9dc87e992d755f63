import { cache } from 'react';
import { headers } from 'next/headers';
import { auth } from './auth';
import { cachedSession, type SessionInfo } from './auth-cache';
import { db } from './db';
import { hasPassword } from './services/auth/has-password';

async function loadSession(h: Headers): Promise<SessionInfo | null> {
  const s = await auth.api.getSession({ headers: h });
  if (!s) return null;
  return {
    hasPassword: await hasPassword(db, s.user.id),
    user: {
      id: s.user.id,
      name: s.user.name,
      email: s.user.email,
      emailVerified: s.user.emailVerified === true,
    },
    sessionId: s.session.id,
    activeTeamId: (s.session as { activeTeamId?: string | null }).activeTeamId ?? null,
  };
}

/**
 * The signed-in user and session for this request (cached per render, and across requests for
 * at most `AUTH_CACHE_MAX_MS` under a hash of the cookies), or null. Without cookies there is no
 * session to look up.
 */
export const getSession = cache(async (h?: Headers) => {
  const hs = h ?? (await headers());
  const cookie = hs.get('cookie');
  if (!cookie) return null;
  return cachedSession(cookie, () => loadSession(hs));
});

/**
 * The same answer outside a render (no per-render memo): a long-lived response asks it again
 * and again. It still goes through the authorization cache, bounded and forgotten on revocation.
 */
export async function getSessionUncached(h: Headers): Promise<SessionInfo | null> {
  const cookie = h.get('cookie');
  if (!cookie) return null;
  return cachedSession(cookie, () => loadSession(h));
}
