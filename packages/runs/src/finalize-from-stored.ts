import {
  parseRunSecond,
  runSecondHistEntries,
  type Db,
  type RunSecondHistColumn,
} from '@poolbench/db';
import {
  buildRunSummary,
  encodeHistogram,
  histogramStatsMs,
  loadTimeMs,
  sumChecks,
  sumCustomMetrics,
  sumStoredSeconds,
  type CustomMetrics,
  type SecondChecks,
  type Histogram,
  type ResourceTotalsRow,
  type RunSummary,
  type StoredSecondCounters,
  type SummaryTrends,
} from '@poolbench/stats';
import { mergeStoredHistograms } from '@poolbench/stats/stored';
import { mergeSegmentSeconds } from './segments/merge-segment-seconds';

type StoredSecond = StoredSecondCounters & {
  ts: Date | string;
  checks?: SecondChecks | null;
  custom?: CustomMetrics | null;
} & Partial<Record<RunSecondHistColumn, Uint8Array | null>>;

/** What a run stored before its worker died, turned into its summary (see finalize-from-stored). */
export interface StoredFinal {
  summary: RunSummary;
  durationHist: Uint8Array<ArrayBuffer> | null;
  blockedHist: Uint8Array<ArrayBuffer> | null;
}
export type FinalizeStored = (db: Db, runId: string) => Promise<StoredFinal | null>;

/** Exact merge of one histogram column over stored seconds, or null when none has data. */
function mergeStoredColumn(
  rows: Partial<Record<RunSecondHistColumn, Uint8Array | null>>[],
  col: RunSecondHistColumn,
): Histogram | null {
  const stored = rows.map((r) => r[col]).filter((b): b is Uint8Array => !!b && b.length > 0);
  return stored.length ? mergeStoredHistograms(stored) : null;
}

/**
 * The run summary from stored rows, for a run whose worker died (no end line, so no load phase:
 * load time is the span of the seconds that carried load): counters add, histograms merge exactly.
 */
function summarizeStored(
  rows: StoredSecond[],
  resourceTotals: readonly ResourceTotalsRow[],
): RunSummary {
  const { counters, vusMax, vusAllocatedMax, loadSeconds } = sumStoredSeconds(rows);
  const trends: SummaryTrends = {};
  for (const [metric, col] of runSecondHistEntries()) {
    const merged = mergeStoredColumn(rows, col);
    if (merged) trends[metric] = histogramStatsMs(merged);
  }
  return buildRunSummary({
    counters,
    trends,
    seconds: rows.length,
    vusMax,
    vusAllocatedMax,
    loadMs: loadTimeMs(null, null, loadSeconds),
    resources: resourceTotals,
    checks: sumChecks(rows.map((r) => r.checks)),
    custom: sumCustomMetrics(rows.map((r) => r.custom)),
  });
}

const mergeColumn = (rows: StoredSecond[], col: 'durationHist' | 'blockedHist') => {
  const merged = mergeStoredColumn(rows, col);
  return merged ? new Uint8Array(Buffer.from(encodeHistogram(merged), 'base64')) : null;
};

/** Summary and merged histograms of whatever a run stored, for runs that ended without their worker. */
export async function finalizeFromStored(db: Db, runId: string): Promise<StoredFinal | null> {
  // A distributed run's generators stored their own rows: the run's rows are their exact merge.
  if ((await db.runSegment.count({ where: { runId } })) > 0) await mergeSegmentSeconds(db, runId);
  const rows = (
    await db.runSecond.findMany({ where: { runId, segment: 'all' }, orderBy: { second: 'asc' } })
  ).map(parseRunSecond);
  if (rows.length === 0) return null;
  const totals = await db.resourceSample.findMany({
    where: { runId, instance: -1, second: { gte: 0 } },
  });
  const summary = summarizeStored(rows, totals);
  return {
    summary,
    durationHist: mergeColumn(rows, 'durationHist'),
    blockedHist: mergeColumn(rows, 'blockedHist'),
  };
}
