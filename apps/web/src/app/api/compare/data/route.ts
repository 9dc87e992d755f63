import { db } from '~/server/db';
import { cachedTeam } from '~/server/auth-cache';
import { getSession } from '~/server/session';
import {
  COMPARE_DATA_DEFAULT_POINTS,
  COMPARE_DATA_MAX_POINTS,
  maxPointsParam,
  pageBytesResponse,
} from '~/server/services/cache/page-bytes-response';
import { comparePageBytes } from '~/server/services/compare/compare-view';
import { NotFoundError } from '~/server/services/errors';
import { parseSelectionQuery } from '~/server/services/exports/selection-from-query';

import { problem } from '~/server/services/exports/http';

export const dynamic = 'force-dynamic';

/**
 * The compare view's data in one request, outside tRPC (what `compare.get` answers), for the
 * compare page's own query string (`items`, `baseline`, `from`, `to`, `floor`). A comparison of
 * finished runs answers the same compressed bytes from memory under a strong ETag (304 on
 * revalidation). Authorized by session and team like every procedure.
 */
export async function GET(req: Request) {
  const session = await getSession(req.headers);
  if (!session) return problem(401, 'unauthorized', 'sign in first');
  const q = new URL(req.url).searchParams;
  const { selection, error } = parseSelectionQuery(q);
  if (!selection) return problem(400, 'invalid_input', error);
  const maxPoints = maxPointsParam(
    q.get('maxPoints'),
    COMPARE_DATA_DEFAULT_POINTS,
    COMPARE_DATA_MAX_POINTS,
  );
  if (maxPoints === null)
    return problem(
      400,
      'invalid_input',
      `maxPoints: must be a whole number from 20 to ${COMPARE_DATA_MAX_POINTS}`,
    );
  const team = await cachedTeam(db, session.user.id, session.activeTeamId);
  if (!team) return problem(404, 'not_found', 'comparison not found');
  let page;
  try {
    page = await comparePageBytes(db, team.id, selection, maxPoints);
  } catch (e) {
    if (e instanceof NotFoundError) return problem(404, 'not_found', e.message);
    throw e;
  }
  return pageBytesResponse(req, page);
}
