import type { Db, Prisma } from '@poolbench/db';
import { summarizeStored } from './summary';

/** Summary of whatever a run stored, for runs that ended without their worker (sweeper). */
export async function finalizeFromStored(db: Db, runId: string): Promise<Prisma.InputJsonValue | null> {
  const rows = await db.runSecond.findMany({ where: { runId, segment: 'all' }, orderBy: { second: 'asc' } });
  if (rows.length === 0) return null;
  const totals = await db.resourceSample.findMany({ where: { runId, instance: -1, second: { gte: 0 } } });
  return summarizeStored(
    rows.map((r) => ({ ...r, statusCounts: (r.statusCounts ?? {}) as Record<string, number> })),
    totals.map((t) => ({ ...t, rssBytes: t.rssBytes === null ? null : Number(t.rssBytes) })),
  ) as unknown as Prisma.InputJsonValue;
}
