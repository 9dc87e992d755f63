import { db } from '~/server/db';
import { pubSubHub } from '~/server/redis';
import { getSessionUncached } from '~/server/session';
import { routeViewer } from '~/server/route-viewer';
import { cachedTeam } from '~/server/auth-cache';
import { runEventStream } from '~/server/services/runs/run-event-stream';
import { watchViewer } from '~/server/services/runs/watch-viewer';

import { problem } from '~/server/services/exports/http';
import { isId } from '~/lib/schemas/ids';

export const dynamic = 'force-dynamic';

/**
 * Live events of one run as SSE; authorized by session and team like every procedure, and again
 * while it streams: the stream ends once its viewer signs out, loses the session, leaves the team
 * or switches to another one (`watchViewer`).
 */
export async function GET(req: Request, { params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const viewer = await routeViewer(req);
  if (viewer instanceof Response) return viewer;
  const { session, team } = viewer;
  const run =
    team && isId(id)
      ? await db.run.findFirst({ where: { id, teamId: team.id }, select: { id: true } })
      : null;
  if (!team || !run) return problem(404, 'not_found', 'run not found');
  const live = new AbortController();
  req.signal.addEventListener('abort', () => live.abort(), { once: true });
  watchViewer({
    userId: session.user.id,
    sessionId: session.sessionId,
    teamId: team.id,
    controller: live,
    stillAllowed: async () => {
      const now = await getSessionUncached(req.headers);
      if (!now || now.sessionId !== session.sessionId) return false;
      return (await cachedTeam(db, now.user.id, now.activeTeamId))?.id === team.id;
    },
  });
  const stream = runEventStream({ db, hub: pubSubHub() }, team.id, id, live.signal, () =>
    live.abort(),
  );
  return new Response(stream, {
    headers: {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-cache, no-transform',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no',
    },
  });
}
