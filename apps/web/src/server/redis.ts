import { Redis } from 'ioredis';
import { env } from './env';

const g = globalThis as unknown as { __poolbenchRedis?: Redis };

/** Producer-side connection: fail fast instead of queueing commands while Redis is down. */
export function redis(): Redis {
  return (g.__poolbenchRedis ??= new Redis(env.REDIS_URL, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    lazyConnect: false,
  }).on('error', () => {
    // reported through /api/health; ioredis reconnects by itself
  }));
}
