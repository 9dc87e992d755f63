import type { RunSummary } from '../run-summary';

/** A run summary of 2000 requests whose latency percentiles scale with p50, for tests. */
const stats = (p: number) => ({
  count: 2000,
  min: p / 4,
  max: p * 3,
  mean: p,
  p50: p,
  p90: p * 1.5,
  p95: p * 1.8,
  p99: p * 2.5,
  p999: p * 2.9,
});
export function summary(rps: number, p50: number, errorRate = 0): RunSummary {
  return {
    requests: 2000,
    failed: Math.round(errorRate * 2000),
    errorRate,
    rps,
    durationMs: 10_000,
    seconds: 10,
    bytesSent: 0,
    bytesReceived: 0,
    iterations: 2000,
    droppedIterations: 0,
    vusMax: 10,
    statusCounts: { '200': 2000 },
    latency: stats(p50),
    waiting: null,
    connecting: null,
    tlsHandshaking: null,
    blocked: stats(0.2),
    iteration: null,
    resources: {
      cpuMeanPercent: 50,
      cpuPeakPercent: 80,
      rssMeanBytes: 1e7,
      rssPeakBytes: 2e7,
      poolWaitMsMean: 1,
      poolWaitMsPeak: 3,
      poolInUsePeak: 4,
      poolAcquireTimeouts: 0,
      dbConnectionsPeak: 5,
      dbNewConnsTotal: 5,
      dbTooManyClients: 0,
    },
  };
}
