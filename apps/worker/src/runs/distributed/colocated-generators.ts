import { hostname } from 'node:os';
import type { Db } from '@poolbench/db';

/**
 * The worker processes on this machine that run another load generator of the run: their k6
 * (and the first one's managed target) is the run's own load, so the CPU measured beside this
 * generator must not count it as a disturbance. Read once every generator has joined.
 */
export async function colocatedGeneratorPids(db: Db, runId: string): Promise<number[]> {
  const segments = await db.runSegment.findMany({
    where: { runId, workerId: { not: null } },
    select: { workerId: true },
  });
  const workers = await db.worker.findMany({
    where: { id: { in: segments.map((s) => s.workerId!) }, host: hostname() },
    select: { pid: true },
  });
  return [...new Set(workers.map((w) => w.pid))].filter((pid) => pid !== process.pid);
}

/**
 * Whether the run's leading worker (segment 0, which started a managed target) runs on this
 * machine: a generator here then keeps its k6 off the target's CPUs as the leader's own does.
 */
export async function besideLeader(db: Db, runId: string): Promise<boolean> {
  const leader = await db.runSegment.findFirst({
    where: { runId, index: 0 },
    select: { workerId: true },
  });
  if (!leader?.workerId) return false;
  return (await db.worker.count({ where: { id: leader.workerId, host: hostname() } })) > 0;
}
