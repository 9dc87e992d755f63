import { gunzipSync } from 'node:zlib';
import { db } from '~/server/db';
import { cachedTeam } from '~/server/auth-cache';
import { getSession } from '~/server/session';
import { notModified } from '~/server/services/cache/finished-data-cache';
import { NotFoundError } from '~/server/services/errors';
import { RUN_CHART_MAX_POINTS } from '~/server/services/runs/downsample';
import { runPageBytes } from '~/server/services/runs/run-page-data';

export const dynamic = 'force-dynamic';

const problem = (status: number, code: string, detail: string) =>
  Response.json(
    { type: 'about:blank', title: code, status, detail },
    { status, headers: { 'Content-Type': 'application/problem+json' } },
  );

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
  const raw = new URL(req.url).searchParams.get('maxPoints');
  const maxPoints = raw === null ? RUN_CHART_MAX_POINTS : Number(raw);
  if (!Number.isInteger(maxPoints) || maxPoints < 20 || maxPoints > 5000)
    return problem(400, 'invalid_input', 'maxPoints: must be a whole number from 20 to 5000');
  const team = await cachedTeam(db, session.user.id, session.activeTeamId);
  if (!team || !/^[A-Za-z0-9_-]{1,64}$/.test(id)) return problem(404, 'not_found', 'run not found');
  let page;
  try {
    page = await runPageBytes(db, team.id, id, maxPoints);
  } catch (e) {
    if (e instanceof NotFoundError) return problem(404, 'not_found', 'run not found');
    throw e;
  }
  const headers: Record<string, string> = page.finished
    ? { ETag: page.etag, 'Cache-Control': 'private, no-cache', Vary: 'Cookie, Accept-Encoding' }
    : { 'Cache-Control': 'no-store' };
  if (page.finished && notModified(req.headers, page.etag))
    return new Response(null, { status: 304, headers });
  const gzip = /\bgzip\b/.test(req.headers.get('accept-encoding') ?? '');
  return new Response(gzip ? new Uint8Array(page.gzip) : new Uint8Array(gunzipSync(page.gzip)), {
    headers: {
      ...headers,
      'Content-Type': 'application/json; charset=utf-8',
      ...(gzip ? { 'Content-Encoding': 'gzip' } : {}),
    },
  });
}
