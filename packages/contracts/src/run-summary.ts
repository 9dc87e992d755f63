// A run's summary as the worker stores it (Run.summary), packages/db parses it and every reader
// shows it: the statistics over the run, its checks, the script's own metrics and tagged series.
// Types only; @poolbench/stats builds and reads them.

/** Summary of one histogram; every field but `count` is in milliseconds. */
export interface HdrStatsMs {
  count: number;
  min: number;
  max: number;
  mean: number;
  p50: number;
  p90: number;
  p95: number;
  p99: number;
  p999: number;
}

/**
 * k6 checks (`check(res, { 'status is 200': … })`) as PoolBench keeps them: per check name in its
 * group (k6's `group` tag: '' for the root, '::outer::inner' nested), passes and fails. The k6
 * output keeps at most 64 names per run; samples of further names are counted as `overflow`.
 */
export interface K6Check {
  name: string;
  group: string;
  passes: number;
  fails: number;
}

export interface CheckCounts {
  passes: number;
  fails: number;
}

/** One second's checks, as RunSecond.checks stores them: only the checks that had samples. */
export interface SecondChecks {
  items: K6Check[];
  overflow?: CheckCounts;
}

/**
 * A run's (or a window's) checks: every check's totals in the order they first appeared, and
 * `passes` / `fails` over all of them, the overflow included, which is what k6's `checks` rate
 * metric is over.
 */
export interface RunChecks extends SecondChecks {
  passes: number;
  fails: number;
}

/**
 * A trend's top in its own unit (ms, or a plain number, kept times 1000 alike in a histogram of
 * 1 µs .. 1 h): a larger sample is held at the top and counted in `aboveTop`.
 */
export const TREND_TOP = 3_600_000;

/** "2 samples above 3,600,000 counted as 3,600,000": a trend's samples held at its top. */
export function aboveTopText(aboveTop: number, time: boolean): string {
  const top = time ? '1 h' : TREND_TOP.toLocaleString('en-US');
  return `${aboveTop.toLocaleString('en-US')} ${aboveTop === 1 ? 'sample' : 'samples'} above ${top} counted as ${top}`;
}

/**
 * One of a script's own metrics (`k6/metrics` Trend, Counter, Rate, Gauge) in a second or over a
 * run: a trend's statistics (ms) and, for merging, its histogram (base64 V2, µs); a counter's
 * sum; a rate's share of non-zero samples; a gauge's last and highest value.
 */
export interface CustomMetricValue {
  type: 'trend' | 'counter' | 'rate' | 'gauge';
  /** samples kept (a trend's: in its histogram) */
  count: number;
  /**
   * a trend's: whether it holds times (k6's `new Trend(name, true)`, group_duration) or plain
   * numbers (`new Trend(name)`); absent on values stored before the output wrote it (see
   * `isTimeTrend`)
   */
  time?: boolean;
  /** a trend's samples below 0, which its histogram cannot hold: in neither it nor `count` */
  negative?: number;
  /**
   * a trend's samples above its histogram's top (1 h of ms; 3.6e6 of a plain number): held at
   * the top and in `count`, so a percentile at the top means at least the top
   */
  aboveTop?: number;
  trend?: HdrStatsMs | null;
  histogram?: string;
  sum?: number;
  nonZero?: number;
  rate?: number | null;
  value?: number;
  max?: number;
}

export type CustomMetrics = Record<string, CustomMetricValue>;

/**
 * Run.summary as the worker stores it (from merged per-second histograms and counters) and as the
 * web app, the CLI and the demo read it. Times in ms, sizes in bytes.
 */
export interface RunSummary {
  requests: number;
  failed: number;
  /** of `failed`, requests with a success status that failed a scenario check; absent when none */
  checkFailed?: number;
  errorRate: number | null;
  rps: number | null;
  durationMs: number;
  seconds: number;
  bytesSent: number;
  bytesReceived: number;
  iterations: number;
  droppedIterations: number;
  vusMax: number | null;
  /** highest k6 vus_max (allocated VUs); arrival-rate runs show their size here, not in vusMax. Absent in older runs. */
  vusAllocatedMax?: number | null;
  statusCounts: Record<string, number>;
  latency: HdrStatsMs | null;
  waiting: HdrStatsMs | null;
  connecting: HdrStatsMs | null;
  tlsHandshaking: HdrStatsMs | null;
  blocked: HdrStatsMs | null;
  iteration: HdrStatsMs | null;
  resources: ResourceSummary;
  /**
   * The load phase, unix ms (see docs/metrics.md "Load time"): from the start of the first load
   * iteration to the end of the last load sample. Absent when k6 ended without its end line (the
   * run was then summarized from stored seconds) and in summaries stored before it existed.
   */
  loadStartMs?: number | null;
  loadEndMs?: number | null;
  /**
   * How samples reached k6's output (its end line): a sample arriving after its second was written
   * (`lateSamples`, `lateRequests` of them requests) is in no second and no total. `maxLagMs` is
   * the longest a load sample took from its timestamp to the output; `graceMs` how long a second
   * waited. Absent in distributed runs, runs whose k6 died, and older summaries.
   */
  delivery?: RunDelivery | null;
  /**
   * Per request name (a flow's steps, a mix's requests) over the load, in the scenario's order:
   * requests, failures (status or check) and latency. `stepsOverflow`: requests of names past the
   * output's cap of 32. Absent in distributed runs and older summaries.
   */
  steps?: RunStep[];
  stepsOverflow?: number;
  /**
   * k6 checks of the load (setup() and teardown() left out, as their requests are): per check
   * name and group, and over all of them, as k6's end-of-test summary counts them. Absent when
   * the run had no check.
   */
  checks?: RunChecks;
  /**
   * Tagged series over the load (`http_req_duration{name:login}`): those the scenario's thresholds
   * name, then the other values of the tags they name, at most 50 (`subMetricsDropped`: samples of
   * further series). Absent without a sub-metric threshold.
   */
  subMetrics?: RunSubMetric[];
  subMetricsDropped?: number;
  /**
   * The script's own metrics (`k6/metrics` Trend, Counter, Rate, Gauge) over the load, by name,
   * without histograms (those are per second in RunSecond.custom); at most 16 per run,
   * `customDropped` counts the samples of further ones. Absent without any.
   */
  custom?: CustomMetrics;
  customDropped?: number;
}

/** One tagged series of a k6 metric over a run's load. */
export interface RunSubMetric {
  /** `metric{tag:value,…}`, the tags in the order the threshold wrote them */
  name: string;
  metric: string;
  tags: Record<string, string>;
  /** the k6 metric type; `none` for a series a threshold names that had no sample */
  type: 'trend' | 'rate' | 'counter' | 'gauge' | 'none';
  /** samples (a trend's: those in its histogram) */
  count: number;
  /** a trend's: times or plain numbers, as a custom metric's (`isTimeTrend`) */
  time?: boolean;
  /** a trend's samples below 0, left out of its histogram and count */
  negative?: number;
  /** a trend's samples above its histogram's top, held at the top (as a custom metric's) */
  aboveTop?: number;
  /** a trend's statistics: ms for a trend of times, else the plain numbers */
  trend?: HdrStatsMs | null;
  /** a rate's share of non-zero samples, 0..1 */
  rate?: number | null;
  /** a counter's sum */
  sum?: number;
  /** a gauge's last value */
  value?: number;
}

export interface RunStep {
  name: string;
  requests: number;
  failed: number;
  latency: HdrStatsMs | null;
}

export interface RunDelivery {
  lateSamples: number;
  lateRequests: number;
  maxLagMs: number | null;
  graceMs: number | null;
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
  /** mean and peak wait for an upstream HTTP connection (ms/s); present only when the target reported its upstream pool */
  upstreamWaitMsMean?: number | null;
  upstreamWaitMsPeak?: number | null;
  upstreamInUsePeak?: number | null;
}
