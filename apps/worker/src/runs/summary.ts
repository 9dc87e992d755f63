import { histogramStatsMs, type HdrStatsMs, type Histogram, type ResourceSummary, type RunSummary } from '@poolbench/stats';
import { mergeStoredHistograms } from '@poolbench/stats/stored';
import type { K6Counters, K6Second, K6Summary, TrendMetric } from '@poolbench/k6';
import type { RunSecondRow } from '../metrics/metrics-writer';
import type { ResourceRow } from '../sampling/resource-sampler';

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

const nums = (xs: (number | null | undefined)[]) => xs.filter((x): x is number => typeof x === 'number' && Number.isFinite(x));
const meanOf = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null);
const maxOf = (xs: number[]) => (xs.length ? Math.max(...xs) : null);
const sumOf = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) : null);

export function summarizeResources(totals: Pick<ResourceRow, 'cpuPercent' | 'rssBytes' | 'poolWaitMs' | 'poolInUse' | 'poolAcquireTimeouts' | 'dbTotal' | 'dbNewConns' | 'dbTooManyClients'>[]): ResourceSummary {
  const cpu = nums(totals.map((t) => t.cpuPercent));
  const rss = nums(totals.map((t) => t.rssBytes));
  const wait = nums(totals.map((t) => t.poolWaitMs));
  return {
    cpuMeanPercent: meanOf(cpu),
    cpuPeakPercent: maxOf(cpu),
    rssMeanBytes: meanOf(rss),
    rssPeakBytes: maxOf(rss),
    poolWaitMsMean: meanOf(wait),
    poolWaitMsPeak: maxOf(wait),
    poolInUsePeak: maxOf(nums(totals.map((t) => t.poolInUse))),
    poolAcquireTimeouts: sumOf(nums(totals.map((t) => t.poolAcquireTimeouts))),
    dbConnectionsPeak: maxOf(nums(totals.map((t) => t.dbTotal))),
    dbNewConnsTotal: sumOf(nums(totals.map((t) => t.dbNewConns))),
    dbTooManyClients: sumOf(nums(totals.map((t) => t.dbTooManyClients))),
  };
}

interface SummaryInput {
  counters: K6Counters;
  /** load duration measured by the load engine (ms precision), when known */
  testDurationMs?: number | null;
  seconds: number;
  firstTs: number | null;
  lastTs: number | null;
  vusMax: number | null;
  trends: Partial<Record<TrendMetric, HdrStatsMs | null>>;
}

function shape(i: SummaryInput, resources: ResourceSummary): RunSummary {
  // Whole seconds overstate short runs (1 001 requests in 1.2 s would read as 2 s); prefer the
  // engine's own measurement and fall back to the span of stored seconds.
  const durationMs = i.testDurationMs && i.testDurationMs > 0 ? i.testDurationMs : i.firstTs !== null && i.lastTs !== null ? (i.lastTs - i.firstTs + 1) * 1000 : 0;
  return {
    requests: i.counters.requests,
    failed: i.counters.failed,
    errorRate: i.counters.requests > 0 ? i.counters.failed / i.counters.requests : null,
    rps: durationMs > 0 ? i.counters.requests / (durationMs / 1000) : null,
    durationMs,
    seconds: i.seconds,
    bytesSent: i.counters.dataSentBytes,
    bytesReceived: i.counters.dataReceivedBytes,
    iterations: i.counters.iterations,
    droppedIterations: i.counters.droppedIterations,
    vusMax: i.vusMax,
    statusCounts: i.counters.status,
    latency: i.trends.http_req_duration ?? null,
    waiting: i.trends.http_req_waiting ?? null,
    connecting: i.trends.http_req_connecting ?? null,
    tlsHandshaking: i.trends.http_req_tls_handshaking ?? null,
    blocked: i.trends.http_req_blocked ?? null,
    iteration: i.trends.iteration_duration ?? null,
    resources,
  };
}

/** Summary of a finished run from the load engine's merged histograms and counters. */
export function buildSummary(k6: K6Summary, resourceTotals: ResourceRow[], testDurationMs?: number | null): RunSummary {
  return shape(
    { counters: k6, testDurationMs, seconds: k6.seconds, firstTs: k6.firstTs, lastTs: k6.lastTs, vusMax: k6.vusMax, trends: k6.trends },
    summarizeResources(resourceTotals),
  );
}

type StoredSecond = Pick<RunSecondRow, 'second' | 'requests' | 'failed' | 'statusCounts' | 'bytesSent' | 'bytesReceived' | 'iterations' | 'droppedIterations' | 'vusMax' | 'ts'> &
  Partial<Record<(typeof HIST_COLUMNS)[TrendMetric], Uint8Array | null>>;

/** Exact merge of one histogram column over stored seconds, or null when none has data. */
export function mergeStoredColumn(rows: Partial<Record<(typeof HIST_COLUMNS)[TrendMetric], Uint8Array | null>>[], col: (typeof HIST_COLUMNS)[TrendMetric]): Histogram | null {
  const stored = rows.map((r) => r[col]).filter((b): b is Uint8Array => !!b && b.length > 0);
  return stored.length ? mergeStoredHistograms(stored) : null;
}

/**
 * The same summary from stored rows (a run whose worker died, or any window of seconds): counters
 * add, histograms merge exactly. The integration tests check both paths agree.
 */
export function summarizeStored(rows: StoredSecond[], resourceTotals: Parameters<typeof summarizeResources>[0]): RunSummary {
  const counters: K6Counters = { requests: 0, failed: 0, status: {}, dataSentBytes: 0, dataReceivedBytes: 0, iterations: 0, droppedIterations: 0 };
  let vusMax: number | null = null;
  for (const r of rows) {
    counters.requests += r.requests;
    counters.failed += r.failed;
    counters.dataSentBytes += Number(r.bytesSent);
    counters.dataReceivedBytes += Number(r.bytesReceived);
    counters.iterations += r.iterations;
    counters.droppedIterations += r.droppedIterations;
    for (const [k, n] of Object.entries((r.statusCounts ?? {}) as Record<string, number>)) counters.status[k] = (counters.status[k] ?? 0) + n;
    vusMax = Math.max(vusMax ?? 0, r.vusMax);
  }
  const trends: Partial<Record<TrendMetric, HdrStatsMs | null>> = {};
  for (const [metric, col] of Object.entries(HIST_COLUMNS) as [TrendMetric, (typeof HIST_COLUMNS)[TrendMetric]][]) {
    const merged = mergeStoredColumn(rows, col);
    if (merged) trends[metric] = histogramStatsMs(merged);
  }
  const ts = rows.map((r) => Math.floor(new Date(r.ts as Date).getTime() / 1000));
  return shape(
    { counters, seconds: rows.length, firstTs: ts.length ? Math.min(...ts) : null, lastTs: ts.length ? Math.max(...ts) : null, vusMax, trends },
    summarizeResources(resourceTotals),
  );
}

