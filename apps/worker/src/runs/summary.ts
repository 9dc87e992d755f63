import {
  buildRunSummary,
  histogramStatsMs,
  loadTimeMs,
  sumStoredSeconds,
  type Histogram,
  type ResourceTotalsRow,
  type RunSummary,
  type StoredSecondCounters,
  type SummaryTrends,
} from '@poolbench/stats';
import { mergeStoredHistograms } from '@poolbench/stats/stored';
import type { K6RunResult, K6Second, TrendMetric } from '@poolbench/k6';
import type { RunSecondRow } from '../metrics/metrics-writer';

/** Histogram columns of RunSecond, by k6 metric. */
export const HIST_COLUMNS = {
  http_req_duration: 'durationHist',
  http_req_waiting: 'waitingHist',
  http_req_connecting: 'connectingHist',
  http_req_tls_handshaking: 'tlsHist',
  http_req_blocked: 'blockedHist',
  iteration_duration: 'iterationHist',
} as const satisfies Record<TrendMetric, keyof RunSecondRow>;

export const b64ToBytes = (s: string | undefined) => (s ? new Uint8Array(Buffer.from(s, 'base64')) : null);

/** One decoded k6 second as a RunSecond row; `second` counts from the unix second k6 started in. */
export function bucketToRow(runId: string, t0: number, s: K6Second): RunSecondRow {
  const d = s.trends.http_req_duration;
  return {
    runId,
    second: s.ts - t0,
    segment: 'all',
    ts: new Date(s.ts * 1000),
    requests: s.requests,
    failed: s.failed,
    statusCounts: s.status,
    bytesSent: BigInt(s.dataSentBytes),
    bytesReceived: BigInt(s.dataReceivedBytes),
    iterations: s.iterations,
    droppedIterations: s.droppedIterations,
    vus: s.vus ?? 0,
    vusMax: s.vusMax ?? 0,
    p50Ms: d?.p50 ?? null,
    p90Ms: d?.p90 ?? null,
    p95Ms: d?.p95 ?? null,
    p99Ms: d?.p99 ?? null,
    p999Ms: d?.p999 ?? null,
    maxMs: d?.max ?? null,
    meanMs: d?.mean ?? null,
    connectingP95Ms: s.trends.http_req_connecting?.p95 ?? null,
    blockedP95Ms: s.trends.http_req_blocked?.p95 ?? null,
    durationHist: b64ToBytes(s.histograms.http_req_duration),
    waitingHist: b64ToBytes(s.histograms.http_req_waiting),
    connectingHist: b64ToBytes(s.histograms.http_req_connecting),
    tlsHist: b64ToBytes(s.histograms.http_req_tls_handshaking),
    blockedHist: b64ToBytes(s.histograms.http_req_blocked),
    iterationHist: b64ToBytes(s.histograms.iteration_duration),
  };
}

/** Summary of a finished run from the load engine's merged histograms and counters, over its load phase. */
export function buildSummary(k6: Pick<K6RunResult, 'summary' | 'load'>, resourceTotals: readonly ResourceTotalsRow[]): RunSummary {
  const s = k6.summary;
  // Without the end line's load phase (k6 killed) the load seconds' span is the best we have.
  return buildRunSummary({
    counters: s, trends: s.trends, seconds: s.seconds, vusMax: s.vusMax, loadMs: loadTimeMs(k6.load, null, s.loadSeconds ?? []), load: k6.load, resources: resourceTotals,
  });
}

type HistColumn = (typeof HIST_COLUMNS)[TrendMetric];
type StoredSecond = StoredSecondCounters & { ts: Date | string } & Partial<Record<HistColumn, Uint8Array | null>>;

/** Exact merge of one histogram column over stored seconds, or null when none has data. */
export function mergeStoredColumn(rows: Partial<Record<HistColumn, Uint8Array | null>>[], col: HistColumn): Histogram | null {
  const stored = rows.map((r) => r[col]).filter((b): b is Uint8Array => !!b && b.length > 0);
  return stored.length ? mergeStoredHistograms(stored) : null;
}

/**
 * The same summary from stored rows, for a run whose worker died (no end line, so no load
 * phase: load time is the span of the seconds that carried load): counters add, histograms
 * merge exactly.
 */
export function summarizeStored(rows: StoredSecond[], resourceTotals: readonly ResourceTotalsRow[]): RunSummary {
  const { counters, vusMax, loadSeconds } = sumStoredSeconds(rows);
  const trends: SummaryTrends = {};
  for (const [metric, col] of Object.entries(HIST_COLUMNS) as [TrendMetric, HistColumn][]) {
    const merged = mergeStoredColumn(rows, col);
    if (merged) trends[metric] = histogramStatsMs(merged);
  }
  return buildRunSummary({ counters, trends, seconds: rows.length, vusMax, loadMs: loadTimeMs(null, null, loadSeconds), resources: resourceTotals });
}
