import { Redis, type RedisOptions } from 'ioredis';

/**
 * BullMQ's production guidance: producers fail fast while Redis is down (no offline queue), so a
 * request that enqueues gets an error instead of hanging; workers and subscribers block and retry
 * forever (maxRetriesPerRequest: null).
 *
 * A producer that has never been connected is not "down": it is starting. During its first
 * connection attempt commands wait in the offline queue, so the first rate-limit count, revocation
 * or enqueue of a fresh process is not lost to a handshake still under way. Once that attempt has
 * ended, connected (`ready`) or not (`close`: refused, timed out), the offline queue is off: a
 * Redis that is down, from the start or later, fails commands at once. What waited during the
 * first attempt fails with it after one retry (maxRetriesPerRequest: 1).
 */
export function producerConnection(url: string, extra: RedisOptions = {}): Redis {
  const callerChose = extra.enableOfflineQueue !== undefined;
  const redis = new Redis(url, {
    maxRetriesPerRequest: 1,
    ...extra,
    enableOfflineQueue: extra.enableOfflineQueue ?? true,
  });
  if (!callerChose) {
    const failFast = () => {
      redis.options.enableOfflineQueue = false;
      redis.off('ready', failFast).off('close', failFast);
    };
    redis.once('ready', failFast).once('close', failFast);
  }
  return redis;
}

export function workerConnection(url: string, extra: RedisOptions = {}): Redis {
  return new Redis(url, { maxRetriesPerRequest: null, ...extra });
}
