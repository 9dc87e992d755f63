import type { Db } from '@poolbench/db';
import type { Redis } from 'ioredis';
import { getHealth, type Health } from './get-health';

/** What anyone may read: which component is down, never why (errors and worker ids stay in the log). */
export interface PublicHealth {
  status: Health['status'];
  db: { ok: boolean };
  redis: { ok: boolean };
  worker: { ok: boolean; count?: number };
}

export function publicHealth(h: Health): PublicHealth {
  return {
    status: h.status,
    db: { ok: h.db.ok },
    redis: { ok: h.redis.ok },
    worker: { ok: h.worker.ok, ...(h.worker.count !== undefined ? { count: h.worker.count } : {}) },
  };
}

/**
 * GET /api/health: 200 or 503 with the public body. The details (a database error's text, ids of
 * workers that lost Redis) go to the log, where whoever runs the app reads them; an anonymous
 * caller learns nothing about the internals from them.
 */
export async function healthResponse(
  deps: { db: Db; redis: Redis; staleAfterMs: number },
  log: (message: string) => void = (m) => console.error(m),
): Promise<Response> {
  const health = await getHealth(deps);
  if (health.status !== 'ok') {
    const details = (['db', 'redis', 'worker'] as const)
      .filter((c) => !health[c].ok || health[c].detail)
      .map(
        (c) =>
          `${c}: ${health[c].ok ? 'ok' : 'down'}${health[c].detail ? ` (${health[c].detail})` : ''}`,
      );
    log(`health degraded: ${details.join('; ')}`);
  }
  return Response.json(publicHealth(health), {
    status: health.status === 'ok' ? 200 : 503,
    headers: { 'Cache-Control': 'no-store' },
  });
}
