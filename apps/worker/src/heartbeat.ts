import { hostname } from 'node:os';
import type { Db } from '@poolbench/db';

/**
 * Registers this worker in Postgres and refreshes lastSeenAt with what the worker itself sees of
 * its queue connection, so /api/health can tell a worker that lost Redis (and takes no jobs) from
 * a healthy one although both still reach Postgres.
 */
export async function startHeartbeat(
  db: Db,
  opts: {
    id: string;
    version: string;
    concurrency: number;
    intervalMs: number;
    queueConnected: () => Promise<boolean>;
    onError?: (err: unknown) => void;
  },
) {
  const now = new Date();
  const queueConnected = await opts.queueConnected();
  const state = {
    host: hostname(),
    pid: process.pid,
    version: opts.version,
    concurrency: opts.concurrency,
    startedAt: now,
    lastSeenAt: now,
    queueConnected,
    queueStateAt: now,
  };
  await db.worker.upsert({
    where: { id: opts.id },
    create: { id: opts.id, ...state },
    update: { ...state, stoppedAt: null },
  });
  let last = queueConnected;
  let beating: Promise<void> | null = null;
  const beat = async () => {
    const connected = await opts.queueConnected();
    const at = new Date();
    await db.worker.update({
      where: { id: opts.id },
      data: {
        lastSeenAt: at,
        queueConnected: connected,
        ...(connected !== last ? { queueStateAt: at } : {}),
      },
    });
    last = connected;
  };
  const tick = () =>
    (beating ??= beat()
      .catch((err) => opts.onError?.(err))
      .finally(() => {
        beating = null;
      }));
  const timer = setInterval(() => void tick(), opts.intervalMs);
  timer.unref();
  return {
    /** one heartbeat now, e.g. once the queue connections are up at start-up */
    beatNow: tick,
    async stop() {
      clearInterval(timer);
      await beating;
      // Only while the row is still this process's: a successor with the same WORKER_ID (a restart,
      // a pod replaced in place) may have registered while this one shut down, and must not read
      // as stopped, or distributed runs wait for a generator that is there.
      await db.worker
        .updateMany({
          where: { id: opts.id, host: hostname(), pid: process.pid },
          data: { stoppedAt: new Date() },
        })
        .catch(() => {});
    },
  };
}
