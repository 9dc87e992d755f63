import { db } from '~/server/db';
import { cachedTeam } from '~/server/auth-cache';
import { getSession } from '~/server/session';
import {
  maxPointsParam,
  pageBytesResponse,
  RUN_DATA_MAX_POINTS,
} from '~/server/services/cache/page-bytes-response';
import { NotFoundError } from '~/server/services/errors';
import { RUN_CHART_MAX_POINTS } from '~/server/services/runs/downsample';
import { runPageBytes } from '~/server/services/runs/run-page-data';

import { problem } from '~/server/services/exports/http';

export const dynamic = 'force-dynamic';

/**
 * The run page's data in one request, outside tRPC's batching: `{ run, series }` as superjson.
 * A finished run answers the same compressed bytes from memory with a strong ETag (304 on
 * revalidation); a live run is computed per request and never stored by the browser. Authorized
 * by session and team like every procedure (cached for at most AUTH_CACHE_MAX_MS).
 */
export async function GET(req: Request, { params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const session = await getSession(req.headers);
  if (!session) return problem(401, 'unauthorized', 'sign in first');
  const maxPoints = maxPointsParam(
    new URL(req.url).searchParams.get('maxPoints'),
    RUN_CHART_MAX_POINTS,
    RUN_DATA_MAX_POINTS,
  );
  if (maxPoints === null)
    return problem(
      400,
      'invalid_input',
      `maxPoints: must be a whole number from 20 to ${RUN_DATA_MAX_POINTS}`,
    );
  const team = await cachedTeam(db, session.user.id, session.activeTeamId);
  if (!team || !/^[A-Za-z0-9_-]{1,64}$/.test(id)) return problem(404, 'not_found', 'run not found');
  let page;
  try {
    page = await runPageBytes(db, team.id, id, maxPoints);
  } catch (e) {
    if (e instanceof NotFoundError) return problem(404, 'not_found', 'run not found');
    throw e;
  }
  return pageBytesResponse(req, page);
}
