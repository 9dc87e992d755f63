import { encodeHistogram } from '@poolbench/stats';
import type { Db, Prisma } from '@poolbench/db';
import { b64ToBytes, mergeStoredColumn, summarizeStored } from './summary';

export interface StoredFinal {
  summary: Prisma.InputJsonValue;
  durationHist: Uint8Array<ArrayBuffer> | null;
  blockedHist: Uint8Array<ArrayBuffer> | null;
}

const mergeColumn = (rows: Parameters<typeof mergeStoredColumn>[0], col: 'durationHist' | 'blockedHist') => {
  const merged = mergeStoredColumn(rows, col);
  return merged ? b64ToBytes(encodeHistogram(merged)) : null;
};

/** Summary and merged histograms of whatever a run stored, for runs that ended without their worker. */
export async function finalizeFromStored(db: Db, runId: string): Promise<StoredFinal | null> {
  const rows = await db.runSecond.findMany({ where: { runId, segment: 'all' }, orderBy: { second: 'asc' } });
  if (rows.length === 0) return null;
  const totals = await db.resourceSample.findMany({ where: { runId, instance: -1, second: { gte: 0 } } });
  const summary = summarizeStored(rows, totals) as unknown as Prisma.InputJsonValue;
  return { summary, durationHist: mergeColumn(rows, 'durationHist'), blockedHist: mergeColumn(rows, 'blockedHist') };
}
