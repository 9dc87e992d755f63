import { createDb } from '@poolbench/db';
import { Redis } from 'ioredis';
import pino from 'pino';
import { loadEnv } from './env';
import { startHeartbeat } from './heartbeat';

// Wiring only: configuration, connections, shutdown. Behaviour lives in the modules.
const env = loadEnv();
const log = pino({ level: env.LOG_LEVEL, base: { worker: env.WORKER_ID } });
const db = createDb({ url: env.DATABASE_URL, applicationName: 'poolbench-worker' });
const redis = new Redis(env.REDIS_URL, { maxRetriesPerRequest: null });
redis.on('error', (err) => log.warn({ err: err.message }, 'redis connection error'));

const heartbeat = await startHeartbeat(db, {
  id: env.WORKER_ID,
  version: '0.1.0',
  concurrency: env.WORKER_CONCURRENCY,
  intervalMs: env.WORKER_HEARTBEAT_MS,
  onError: (err) => log.warn({ err: String(err) }, 'heartbeat failed'),
});
log.info('worker started');

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  log.info({ signal }, 'shutting down');
  await heartbeat.stop();
  redis.disconnect();
  await db.$disconnect();
  process.exit(0);
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));
