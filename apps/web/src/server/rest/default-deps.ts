import { forgetAuth } from '~/server/auth-cache';
import { db } from '~/server/db';
import { env } from '~/server/env';
import { runQueue } from '~/server/queue';
import { redis } from '~/server/redis';
import { DEFAULT_RATE_LIMIT, type RestDeps } from './deps';

export function defaultRestDeps(): RestDeps {
  return {
    db,
    redis,
    queue: runQueue,
    baseUrl: env.BETTER_AUTH_URL.replace(/\/$/, ''),
    rateLimit: { ...DEFAULT_RATE_LIMIT, limit: env.API_RATE_LIMIT_PER_MINUTE },
    forgetAuth,
  };
}
