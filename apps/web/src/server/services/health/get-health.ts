import type { Db } from '@poolbench/db';
import type { Redis } from 'ioredis';

export interface ComponentHealth {
  ok: boolean;
  detail?: string;
}
export interface Health {
  status: 'ok' | 'degraded';
  db: ComponentHealth;
  redis: ComponentHealth;
  worker: ComponentHealth & { count?: number };
}

const withTimeout = <T>(p: Promise<T>, ms: number) =>
  Promise.race([
    p,
    new Promise<never>((_, rej) => setTimeout(() => rej(new Error(`no answer in ${ms} ms`)), ms)),
  ]);

/** Health of what the app needs: the database, Redis, and at least one live worker heartbeat. */
export async function getHealth(deps: {
  db: Db;
  redis: Redis;
  staleAfterMs: number;
}): Promise<Health> {
  const [dbRes, redisRes] = await Promise.allSettled([
    withTimeout(deps.db.$queryRaw`SELECT 1`, 2000),
    // a fresh producer connection holds this ping until its first handshake is done
    withTimeout(deps.redis.ping(), 2000),
  ]);
  const dbH: ComponentHealth =
    dbRes.status === 'fulfilled'
      ? { ok: true }
      : { ok: false, detail: String(dbRes.reason?.message ?? dbRes.reason) };
  const redisH: ComponentHealth =
    redisRes.status === 'fulfilled'
      ? { ok: true }
      : { ok: false, detail: String(redisRes.reason?.message ?? redisRes.reason) };
  let workerH: Health['worker'] = { ok: false, detail: 'database unavailable' };
  if (dbH.ok) {
    // A worker counts when its heartbeat is fresh AND it saw its own queue connection up: a worker
    // that lost Redis still beats into Postgres but takes no jobs.
    const live = await deps.db.worker.findMany({
      where: { lastSeenAt: { gte: new Date(Date.now() - deps.staleAfterMs) }, stoppedAt: null },
      select: { id: true, queueConnected: true },
    });
    const count = live.filter((w) => w.queueConnected).length;
    const cut = live.filter((w) => !w.queueConnected).map((w) => w.id);
    const noQueue = cut.length
      ? `; ${cut.length} worker(s) cannot reach the queue (Redis): ${cut.join(', ')}`
      : '';
    workerH =
      count > 0
        ? { ok: true, count, ...(noQueue ? { detail: noQueue.slice(2) } : {}) }
        : {
            ok: false,
            count,
            detail: `no worker with a heartbeat in the last ${Math.round(deps.staleAfterMs / 1000)} s and a queue connection${noQueue}`,
          };
  }
  return {
    status: dbH.ok && redisH.ok && workerH.ok ? 'ok' : 'degraded',
    db: dbH,
    redis: redisH,
    worker: workerH,
  };
}
