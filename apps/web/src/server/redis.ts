import type { Redis } from 'ioredis';
import {
  createPubSubHub,
  producerConnection,
  workerConnection,
  type PubSubHub,
} from '@poolbench/queue';
import { env } from './env';

const g = globalThis as unknown as { __poolbenchRedis?: Redis };

/** Producer-side connection (fails fast while Redis is down), one per server process. */
export function redis(): Redis {
  return (g.__poolbenchRedis ??= producerConnection(env.REDIS_URL).on('error', () => {
    // reported through /api/health; ioredis reconnects by itself
  }));
}

const h = globalThis as unknown as { __poolbenchPubSub?: PubSubHub };

/**
 * The process's one subscriber connection, shared by every live stream it serves (run events)
 * and by anything else that listens to Redis channels.
 */
export function pubSubHub(): PubSubHub {
  return (h.__poolbenchPubSub ??= createPubSubHub(() =>
    workerConnection(env.REDIS_URL).on('error', () => {
      // live streams pause while Redis is down; ioredis reconnects and re-subscribes
    }),
  ));
}
