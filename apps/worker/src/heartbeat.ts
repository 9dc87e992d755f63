import { hostname } from 'node:os';
import type { Db } from '@poolbench/db';

/** Registers this worker in Postgres and refreshes lastSeenAt, which /api/health reads. */
export async function startHeartbeat(db: Db, opts: { id: string; version: string; concurrency: number; intervalMs: number; onError?: (err: unknown) => void }) {
  const now = new Date();
  await db.worker.upsert({
    where: { id: opts.id },
    create: { id: opts.id, host: hostname(), pid: process.pid, version: opts.version, concurrency: opts.concurrency, startedAt: now, lastSeenAt: now },
    update: { host: hostname(), pid: process.pid, version: opts.version, concurrency: opts.concurrency, startedAt: now, lastSeenAt: now, stoppedAt: null },
  });
  const timer = setInterval(() => {
    db.worker.update({ where: { id: opts.id }, data: { lastSeenAt: new Date() } }).catch((err) => opts.onError?.(err));
  }, opts.intervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await db.worker.update({ where: { id: opts.id }, data: { stoppedAt: new Date() } }).catch(() => {});
    },
  };
}
