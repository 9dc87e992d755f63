import { createRunQueue, producerConnection } from '@poolbench/queue';
import type { Queue } from 'bullmq';
import { env } from './env';

const g = globalThis as unknown as { __poolbenchRunQueue?: Queue };

/** One producer queue per server process. */
export function runQueue(): Queue {
  return (g.__poolbenchRunQueue ??= createRunQueue(
    producerConnection(env.REDIS_URL).on('error', () => {}),
  ));
}
