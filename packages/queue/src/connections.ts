import { Redis, type RedisOptions } from 'ioredis';

/**
 * BullMQ's production guidance: producers fail fast while Redis is down (no offline queue), so a
 * request that enqueues gets an error instead of hanging; workers and subscribers block and retry
 * forever (maxRetriesPerRequest: null).
 *
 * A producer that has never been connected is not "down": it is starting. Until its first
 * `ready`, commands wait in the offline queue, bounded by the connect attempt and one retry
 * (maxRetriesPerRequest: 1), so the first rate-limit count, revocation or enqueue of a fresh
 * process is not lost to a connection still in its handshake. After that first `ready` the
 * offline queue is off and a lost connection fails commands at once.
 */
export function producerConnection(url: string, extra: RedisOptions = {}): Redis {
  const callerChose = extra.enableOfflineQueue !== undefined;
  const redis = new Redis(url, {
    maxRetriesPerRequest: 1,
    ...extra,
    enableOfflineQueue: extra.enableOfflineQueue ?? true,
  });
  if (!callerChose) {
    redis.once('ready', () => {
      redis.options.enableOfflineQueue = false;
    });
  }
  return redis;
}

export function workerConnection(url: string, extra: RedisOptions = {}): Redis {
  return new Redis(url, { maxRetriesPerRequest: null, ...extra });
}
