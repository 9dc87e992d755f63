import { Redis, type RedisOptions } from 'ioredis';

/**
 * BullMQ's production guidance: producers fail fast while Redis is down (no offline queue), so a
 * request that enqueues gets an error instead of hanging; workers and subscribers block and retry
 * forever (maxRetriesPerRequest: null).
 */
export function producerConnection(url: string, extra: RedisOptions = {}): Redis {
  return new Redis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 1, ...extra });
}

export function workerConnection(url: string, extra: RedisOptions = {}): Redis {
  return new Redis(url, { maxRetriesPerRequest: null, ...extra });
}
