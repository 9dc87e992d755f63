import { db } from './db';
import { cachedTeam } from './auth-cache';
import { getSession } from './session';
import { problem } from './services/exports/http';

/**
 * Who asks a route handler, authorized as every procedure is (session, then active team from the
 * authorization cache): the session and the team (null when they are in none), or the 401 answer
 * to return when nobody is signed in.
 */
export async function routeViewer(req: Request) {
  const session = await getSession(req.headers);
  if (!session) return problem(401, 'unauthorized', 'sign in first');
  return { session, team: await cachedTeam(db, session.user.id, session.activeTeamId) };
}
