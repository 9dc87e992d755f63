import type { Redis } from 'ioredis';
import { producerConnection } from '@poolbench/queue';
import { env } from './env';

const g = globalThis as unknown as { __poolbenchRedis?: Redis };

/** Producer-side connection (fails fast while Redis is down), one per server process. */
export function redis(): Redis {
  return (g.__poolbenchRedis ??= producerConnection(env.REDIS_URL).on('error', () => {
    // reported through /api/health; ioredis reconnects by itself
  }));
}
