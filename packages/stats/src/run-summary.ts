import type { HdrStatsMs } from './hdr';

/**
 * Run.summary as the worker stores it (from merged per-second histograms and counters) and as the
 * web app, the CLI and the demo read it. Times in ms, sizes in bytes.
 */
export interface RunSummary {
  requests: number;
  failed: number;
  errorRate: number | null;
  rps: number | null;
  durationMs: number;
  seconds: number;
  bytesSent: number;
  bytesReceived: number;
  iterations: number;
  droppedIterations: number;
  vusMax: number | null;
  statusCounts: Record<string, number>;
  latency: HdrStatsMs | null;
  waiting: HdrStatsMs | null;
  connecting: HdrStatsMs | null;
  tlsHandshaking: HdrStatsMs | null;
  blocked: HdrStatsMs | null;
  iteration: HdrStatsMs | null;
  resources: ResourceSummary;
}

export interface ResourceSummary {
  cpuMeanPercent: number | null;
  cpuPeakPercent: number | null;
  rssMeanBytes: number | null;
  rssPeakBytes: number | null;
  poolWaitMsMean: number | null;
  poolWaitMsPeak: number | null;
  poolInUsePeak: number | null;
  poolAcquireTimeouts: number | null;
  dbConnectionsPeak: number | null;
  dbNewConnsTotal: number | null;
  dbTooManyClients: number | null;
}
