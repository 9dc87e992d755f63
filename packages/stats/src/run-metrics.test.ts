import { describe, expect, it } from 'vitest';
import { compareRunGroups, RUN_METRICS } from './run-metrics';
import type { RunSummary } from './run-summary';

const stats = (p: number) => ({ count: 2000, min: p / 4, max: p * 3, mean: p, p50: p, p90: p * 1.5, p95: p * 1.8, p99: p * 2.5, p999: p * 2.9 });
function summary(rps: number, p50: number, errorRate = 0): RunSummary {
  return {
    requests: 2000, failed: Math.round(errorRate * 2000), errorRate, rps, durationMs: 10_000, seconds: 10, bytesSent: 0, bytesReceived: 0,
    iterations: 2000, droppedIterations: 0, vusMax: 10, statusCounts: { '200': 2000 }, latency: stats(p50), waiting: null, connecting: null,
    tlsHandshaking: null, blocked: stats(0.2), iteration: null,
    resources: { cpuMeanPercent: 50, cpuPeakPercent: 80, rssMeanBytes: 1e7, rssPeakBytes: 2e7, poolWaitMsMean: 1, poolWaitMsPeak: 3, poolInUsePeak: 4, poolAcquireTimeouts: 0, dbConnectionsPeak: 5, dbNewConnsTotal: 5, dbTooManyClients: 0 },
  };
}

describe('compareRunGroups', () => {
  it('calls a clearly faster candidate better on throughput and latency, and never tests max', () => {
    const base = { label: 'A', summaries: [100, 102, 98, 101, 99, 100].map((r) => summary(r, 10 + (r % 3) * 0.1)) };
    const cand = { label: 'B', summaries: [150, 152, 149, 151, 148, 150].map((r) => summary(r, 6 + (r % 3) * 0.1)) };
    const c = compareRunGroups(base, cand);
    const by = (k: string) => c.metrics.find((m) => m.name === k)!;
    expect(by('rps').verdict).toBe('better');
    expect(by('rps').changePercent!.estimate).toBeGreaterThan(40);
    expect(by('p50Ms').verdict).toBe('better');
    expect(c.metrics.find((m) => m.name === 'maxMs')).toBeUndefined();
    expect(RUN_METRICS.find((m) => m.key === 'maxMs')!.tested).toBe(false);
  });

  it('flags p99 from runs with fewer than 1000 requests', () => {
    const small = (r: number) => ({ ...summary(r, 10), requests: 500 });
    const c = compareRunGroups({ label: 'A', summaries: [1, 2, 3, 4].map(() => small(100)) }, { label: 'B', summaries: [1, 2, 3, 4].map(() => small(100)) });
    expect(c.metrics.find((m) => m.name === 'p99Ms')!.lowRequests).toBe(true);
    expect(c.metrics.find((m) => m.name === 'p50Ms')!.lowRequests).toBe(false);
  });
});
