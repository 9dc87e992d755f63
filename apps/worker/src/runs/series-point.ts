import type { SeriesPoint } from '@poolbench/scenarios';
import type { ResourceRow } from '../sampling/resource-sampler';
import type { RunSecondRow } from '../metrics/metrics-writer';

/** Joins one second's load row with the target's summed resource row into what the charts draw. */
export function toSeriesPoint(s: RunSecondRow, r: ResourceRow | undefined): SeriesPoint {
  return {
    second: s.second,
    requests: s.requests,
    failed: s.failed,
    statusCounts: (s.statusCounts ?? {}) as Record<string, number>,
    droppedIterations: s.droppedIterations,
    vus: s.vus,
    p50Ms: s.p50Ms ?? null,
    p95Ms: s.p95Ms ?? null,
    p99Ms: s.p99Ms ?? null,
    maxMs: s.maxMs ?? null,
    meanMs: s.meanMs ?? null,
    connectingP95Ms: s.connectingP95Ms ?? null,
    blockedP95Ms: s.blockedP95Ms ?? null,
    cpuPercent: r?.cpuPercent ?? null,
    rssBytes: r?.rssBytes ?? null,
    poolInUse: r?.poolInUse ?? null,
    poolIdle: r?.poolIdle ?? null,
    poolTotal: r?.poolTotal ?? null,
    poolWaitCount: r?.poolWaitCount ?? null,
    poolWaitMs: r?.poolWaitMs ?? null,
    dbActive: r?.dbActive ?? null,
    dbIdle: r?.dbIdle ?? null,
    dbTotal: r?.dbTotal ?? null,
    dbNewConns: r?.dbNewConns ?? null,
  };
}
