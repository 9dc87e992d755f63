import { db } from '~/server/db';
import { env } from '~/server/env';
import { redis } from '~/server/redis';
import { healthResponse } from '~/server/services/health/health-response';

export const dynamic = 'force-dynamic';

export function GET() {
  return healthResponse({ db, redis: redis(), staleAfterMs: env.WORKER_STALE_AFTER_MS });
}
