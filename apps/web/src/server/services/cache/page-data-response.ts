import { db } from '../../db';
import { cachedTeam } from '../../auth-cache';
import { getSession } from '../../session';
import { NotFoundError } from '../errors';
import { problem } from '../exports/http';
import { pageBytesResponse } from './page-bytes-response';
import type { PageData } from './page-data';

/**
 * A page-data route's answer: signed in (401), a valid request (400, naming the field), the
 * session's team (cached for at most AUTH_CACHE_MAX_MS), then the page's bytes under their ETag
 * (304 on revalidation); a page that is not the team's is 404, with what was not found.
 */
export async function pageDataResponse<K>(
  req: Request,
  page: PageData<K>,
  pathId: string | null = null,
): Promise<Response> {
  const session = await getSession(req.headers);
  if (!session) return problem(401, 'unauthorized', 'sign in first');
  const ask = page.ask(pathId, new URL(req.url).searchParams);
  if (ask !== 'not-found' && 'error' in ask) return problem(400, 'invalid_input', ask.error);
  const team = await cachedTeam(db, session.user.id, session.activeTeamId);
  if (!team || ask === 'not-found') return problem(404, 'not_found', page.notFound);
  try {
    return pageBytesResponse(req, await page.read(db, team.id, ask));
  } catch (e) {
    if (e instanceof NotFoundError) return problem(404, 'not_found', e.message);
    throw e;
  }
}
