import type { Db } from '@poolbench/db';
import { publishCancel } from '@poolbench/queue';
import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { ConflictError, NotFoundError } from '../errors';

/**
 * Queued runs are canceled right here (conditional update, so a worker that claims the run at the
 * same moment wins or loses cleanly) and their job removed; active runs get the durable flag and
 * a pub/sub nudge to the worker that runs them.
 */
export async function cancelRun(deps: { db: Db; queue: Queue; redis: Redis }, teamId: string, runId: string): Promise<{ status: 'canceled' | 'cancel_requested' }> {
  const run = await deps.db.run.findFirst({ where: { id: runId, teamId }, select: { id: true, status: true } });
  if (!run) throw new NotFoundError('run');
  const now = new Date();
  const queued = await deps.db.run.updateMany({ where: { id: runId, status: 'queued' }, data: { status: 'canceled', cancelRequestedAt: now, finishedAt: now } });
  if (queued.count === 1) {
    await deps.queue.remove(runId).catch(() => 0); // a job already locked by a worker finds the run canceled
    return { status: 'canceled' };
  }
  const active = await deps.db.run.updateMany({ where: { id: runId, status: { in: ['preparing', 'running'] } }, data: { cancelRequestedAt: now } });
  if (active.count === 1) {
    await publishCancel(deps.redis, runId);
    return { status: 'cancel_requested' };
  }
  throw new ConflictError('this run has already finished');
}
