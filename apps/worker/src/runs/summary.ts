import {
  buildRunSummary,
  loadTimeMs,
  type ResourceTotalsRow,
  type RunSummary,
} from '@poolbench/stats';
import type { K6RunResult, K6Second } from '@poolbench/k6';
import type { RunSecondRow } from '../metrics/metrics-writer';

// The stored-row summary (runs whose worker died) is @poolbench/runs' finalizeFromStored, with the same builder.
export const b64ToBytes = (s: string | undefined) =>
  s ? new Uint8Array(Buffer.from(s, 'base64')) : null;

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
    vusAllocated: s.vusAllocated ?? null,
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
export function buildSummary(
  k6: Pick<K6RunResult, 'summary' | 'load'>,
  resourceTotals: readonly ResourceTotalsRow[],
): RunSummary {
  const s = k6.summary;
  // Without the end line's load phase (k6 killed) the load seconds' span is the best we have.
  return buildRunSummary({
    counters: s,
    trends: s.trends,
    seconds: s.seconds,
    vusMax: s.vusMax,
    vusAllocatedMax: s.vusAllocatedMax,
    loadMs: loadTimeMs(k6.load, null, s.loadSeconds ?? []),
    load: k6.load,
    resources: resourceTotals,
  });
}
