import { toJson, type Prisma, type RunSecondHistColumn } from '@poolbench/db';
import type { CustomMetrics, HdrStatsMs, SecondChecks } from '@poolbench/stats';

/** What one stored second is made of, from k6 directly or from the generators' merge. */
export interface RunSecondParts {
  runId: string;
  second: number;
  segment: string;
  ts: Date;
  counts: {
    requests: number;
    failed: number;
    statusCounts: Record<string, number>;
    bytesSent: bigint;
    bytesReceived: bigint;
    iterations: number;
    droppedIterations: number;
    /** of `failed`, requests with a success status that failed a scenario check */
    checkFailed: number;
    vus: number;
    vusMax: number;
    /** unknown when the load engine did not report it */
    vusAllocated: number | null;
  };
  /** http_req_duration's percentiles of this second */
  duration: HdrStatsMs | null | undefined;
  connectingP95Ms: number | null | undefined;
  blockedP95Ms: number | null | undefined;
  /** the encoded HDR histogram of each column, null when it has no sample */
  hists: Record<RunSecondHistColumn, Uint8Array<ArrayBuffer> | null>;
  /** k6 checks of the second; absent or null when it had none */
  checks?: SecondChecks | null;
  /** the script's own metrics of the second, trends with their histograms; absent or null without any */
  custom?: CustomMetrics | null;
  /** the tagged series of the second by series name, shaped as custom; absent or null without any */
  subMetrics?: CustomMetrics | null;
}

/** The RunSecond row: the one place its percentile columns are named. */
export function runSecondRow(p: RunSecondParts): Prisma.RunSecondCreateManyInput {
  const d = p.duration;
  return {
    runId: p.runId,
    second: p.second,
    segment: p.segment,
    ts: p.ts,
    ...p.counts,
    p50Ms: d?.p50 ?? null,
    p90Ms: d?.p90 ?? null,
    p95Ms: d?.p95 ?? null,
    p99Ms: d?.p99 ?? null,
    p999Ms: d?.p999 ?? null,
    maxMs: d?.max ?? null,
    meanMs: d?.mean ?? null,
    connectingP95Ms: p.connectingP95Ms ?? null,
    blockedP95Ms: p.blockedP95Ms ?? null,
    ...p.hists,
    ...(p.checks?.items.length || p.checks?.overflow
      ? { checks: toJson.secondChecks(p.checks) }
      : {}),
    ...(p.custom && Object.keys(p.custom).length ? { custom: toJson.customMetrics(p.custom) } : {}),
    ...(p.subMetrics && Object.keys(p.subMetrics).length
      ? { subMetrics: toJson.subMetricSeconds(p.subMetrics) }
      : {}),
  };
}
