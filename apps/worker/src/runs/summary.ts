import {
  buildRunSummary,
  loadTimeMs,
  type ResourceTotalsRow,
  type RunSummary,
} from '@poolbench/stats';
import type { K6RunResult, K6Second } from '@poolbench/k6';
import type { RunDelivery } from '@poolbench/contracts';
import type { RunSecondRow } from '../metrics/metrics-writer';
import { runSecondHistEntries } from '@poolbench/db';
import { runSecondRow, type RunSecondParts } from '@poolbench/runs';

// The stored-row summary (runs whose worker died) is @poolbench/runs' finalizeFromStored, with the same builder.
export const b64ToBytes = (s: string | undefined) =>
  s ? new Uint8Array(Buffer.from(s, 'base64')) : null;

/** One decoded k6 second as a RunSecond row; `second` counts from the unix second k6 started in. */
export function bucketToRow(runId: string, t0: number, s: K6Second): RunSecondRow {
  return runSecondRow({
    runId,
    second: s.ts - t0,
    segment: 'all',
    ts: new Date(s.ts * 1000),
    counts: {
      requests: s.requests,
      failed: s.failed,
      statusCounts: s.status,
      bytesSent: BigInt(s.dataSentBytes),
      bytesReceived: BigInt(s.dataReceivedBytes),
      iterations: s.iterations,
      droppedIterations: s.droppedIterations,
      checkFailed: s.checkFailed ?? 0,
      vus: s.vus ?? 0,
      vusMax: s.vusMax ?? 0,
      vusAllocated: s.vusAllocated ?? null,
    },
    duration: s.trends.http_req_duration,
    connectingP95Ms: s.trends.http_req_connecting?.p95,
    blockedP95Ms: s.trends.http_req_blocked?.p95,
    hists: Object.fromEntries(
      runSecondHistEntries().map(([metric, col]) => [col, b64ToBytes(s.histograms[metric])]),
    ) as RunSecondParts['hists'],
    checks: s.checks,
    custom: s.custom,
    subMetrics: s.subMetrics,
  });
}

/** Summary of a finished run from the load engine's merged histograms and counters, over its load phase. */
export function buildSummary(
  k6: Pick<K6RunResult, 'summary' | 'load'> &
    Partial<
      Pick<
        K6RunResult,
        'steps' | 'stepsOverflow' | 'subMetrics' | 'subMetricsDropped' | 'customDropped'
      >
    >,
  /** late samples: a single run's from its output, a distributed run's summed over generators */
  delivery: RunDelivery | null,
  resourceTotals: readonly ResourceTotalsRow[],
  /** the scenario's request names in its order: steps are listed in it, others after by name */
  stepOrder: readonly string[] = [],
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
    delivery,
    steps: orderSteps(k6.steps ?? [], stepOrder),
    stepsOverflow: k6.stepsOverflow,
    checks: s.checks,
    // the series without their histograms: thresholds read those from the run's result
    subMetrics: (k6.subMetrics ?? []).map(({ histogram: _h, ...series }) => series),
    subMetricsDropped: k6.subMetricsDropped,
    custom: s.custom,
    customDropped: k6.customDropped,
  });
}

function orderSteps<S extends { name: string }>(steps: S[], order: readonly string[]): S[] {
  const rank = (name: string) => {
    const i = order.indexOf(name);
    return i < 0 ? order.length : i;
  };
  return [...steps].sort((a, b) => rank(a.name) - rank(b.name) || a.name.localeCompare(b.name));
}
