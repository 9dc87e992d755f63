import { db } from '~/server/db';
import { pubSubHub } from '~/server/redis';
import { getSession } from '~/server/session';
import { cachedTeam } from '~/server/auth-cache';
import { runEventStream } from '~/server/services/runs/run-event-stream';

import { problem } from '~/server/services/exports/http';

export const dynamic = 'force-dynamic';

/** Live events of one run as SSE; authorized by session and team like every procedure. */
export async function GET(req: Request, { params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const session = await getSession(req.headers);
  if (!session) return problem(401, 'unauthorized', 'sign in first');
  const team = await cachedTeam(db, session.user.id, session.activeTeamId);
  const run =
    team && /^[A-Za-z0-9_-]{1,64}$/.test(id)
      ? await db.run.findFirst({ where: { id, teamId: team.id }, select: { id: true } })
      : null;
  if (!team || !run) return problem(404, 'not_found', 'run not found');
  const stream = runEventStream({ db, hub: pubSubHub() }, team.id, id, req.signal);
  return new Response(stream, {
    headers: {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-cache, no-transform',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no',
    },
  });
}
