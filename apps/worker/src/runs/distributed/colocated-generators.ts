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
