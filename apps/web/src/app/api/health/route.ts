import { db } from '~/server/db';
import { env } from '~/server/env';
import { redis } from '~/server/redis';
import { getHealth } from '~/server/services/health/get-health';

export const dynamic = 'force-dynamic';

export async function GET() {
  const health = await getHealth({ db, redis: redis(), staleAfterMs: env.WORKER_STALE_AFTER_MS });
  return Response.json(health, {
    status: health.status === 'ok' ? 200 : 503,
    headers: { 'Cache-Control': 'no-store' },
  });
}
