import type { Redis } from 'ioredis';

export interface RateLimitResult {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** seconds until the window resets */
  resetSec: number;
}

/**
 * Fixed window per token in Redis: one INCR and, for the first request of a window, one PEXPIRE.
 * A fixed window allows up to 2x the limit across a window edge, which is fine for protecting
 * the app from a runaway CI loop and costs one key per token.
 */
export async function rateLimit(
  redis: Redis,
  key: string,
  limit: number,
  windowMs: number,
  now = Date.now(),
): Promise<RateLimitResult> {
  const window = Math.floor(now / windowMs);
  const k = `poolbench:rl:${key}:${window}`;
  const res = await redis
    .multi()
    .incr(k)
    .pexpire(k, windowMs + 1000)
    .exec();
  const count = Number(res?.[0]?.[1] ?? 0);
  const resetSec = Math.max(1, Math.ceil(((window + 1) * windowMs - now) / 1000));
  return { allowed: count <= limit, limit, remaining: Math.max(0, limit - count), resetSec };
}
