import {
  emptySummaryCounters,
  createHistogram,
  decodeHistogram,
  encodeHistogram,
  histogramStatsMs,
  percentileMs,
  customMetricFromLine,
  sumChecks,
  sumCustomMetrics,
  type CustomMetrics,
  type HdrStatsMs,
  type Histogram,
  type RunChecks,
  type SecondChecks,
} from '@poolbench/stats';
import { TREND_METRICS, type K6Counters, type SecondLine, type TrendMetric } from './ndjson-line';

/** One second of a run, decoded. Trend statistics are in ms. */
export interface K6Second extends K6Counters {
  /** unix second (UTC) the bucket covers: [ts, ts+1) by each sample's own timestamp */
  ts: number;
  /** last and highest `vus` gauge value seen in the second, null if k6 sent none */
  vus: number | null;
  vusMax: number | null;
  /** k6's vus_max gauge: VUs allocated (arrival-rate executors keep most idle), null if k6 sent none */
  vusAllocated: number | null;
  trends: Partial<Record<TrendMetric, HdrStatsMs>>;
  /** the histograms exactly as written (base64 V2-compressed, µs), for storage */
  histograms: Partial<Record<TrendMetric, string>>;
  /** k6 checks of the second; null without any */
  checks: SecondChecks | null;
  /** the script's own metrics with samples in the second (trends with their histograms); null without any */
  custom: CustomMetrics | null;
  /**
   * the tagged series the thresholds name (and the other values of their tags) with samples in
   * the second, by series name (`http_req_duration{name:login}`), shaped as custom metrics; null
   * without any
   */
  subMetrics: CustomMetrics | null;
}

/** The whole run, from merging every second's histograms and adding its counters. */
export interface K6Summary extends K6Counters {
  seconds: number;
  firstTs: number | null;
  lastTs: number | null;
  /** first and last second that carried requests or iterations (not only the vus gauge) */
  loadSeconds: [number, number] | null;
  vusMax: number | null;
  /** the highest number of allocated VUs (k6's vus_max) */
  vusAllocatedMax: number | null;
  trends: Partial<Record<TrendMetric, HdrStatsMs>>;
  /** merged histograms, base64 V2-compressed, µs */
  histograms: Partial<Record<TrendMetric, string>>;
  /** any percentile (0..100) of a trend metric over the run, in ms; undefined without samples */
  percentile(metric: TrendMetric, p: number): number | undefined;
  /** k6 checks over the seconds, per name and in all; null without any */
  checks: RunChecks | null;
  /** the script's own metrics over the seconds (trends with their merged histograms); null without any */
  custom: CustomMetrics | null;
}

export const emptyCounters: () => K6Counters = emptySummaryCounters;

export function addCounters(into: K6Counters, from: K6Counters): void {
  into.requests += from.requests;
  into.failed += from.failed;
  into.dataSentBytes += from.dataSentBytes;
  into.dataReceivedBytes += from.dataReceivedBytes;
  into.iterations += from.iterations;
  into.droppedIterations += from.droppedIterations;
  if (from.checkFailed) into.checkFailed = (into.checkFailed ?? 0) + from.checkFailed;
  for (const [code, n] of Object.entries(from.status))
    into.status[code] = (into.status[code] ?? 0) + n;
}

/** Keeps one merged histogram per metric, so memory does not grow with run length. */
export class SummaryAccumulator {
  private readonly merged = new Map<TrendMetric, Histogram>();
  private readonly counters = emptyCounters();
  private seconds = 0;
  private firstTs: number | null = null;
  private lastTs: number | null = null;
  private loadSeconds: [number, number] | null = null;
  private vusMax: number | null = null;
  private vusAllocatedMax: number | null = null;
  private checks: RunChecks | null = null;
  private custom: CustomMetrics | null = null;

  add(line: SecondLine): K6Second {
    const {
      v: _v,
      type: _type,
      hist,
      vus,
      vusMax,
      vusAllocated,
      ts,
      checks: checkItems,
      checksOverflow,
      custom: customLines,
      subMetrics: subLines,
      ...counters
    } = line;
    const decode = (lines: typeof customLines): CustomMetrics | null =>
      lines
        ? Object.fromEntries(
            Object.entries(lines).map(([name, l]) => [name, customMetricFromLine(l)]),
          )
        : null;
    const custom = decode(customLines);
    const subMetrics = decode(subLines);
    if (custom) this.custom = sumCustomMetrics([this.custom, custom]);
    const checks: SecondChecks | null =
      checkItems?.length || checksOverflow
        ? {
            items: checkItems ?? [],
            ...(checksOverflow ? { overflow: checksOverflow } : {}),
          }
        : null;
    // a running total: the sum so far and this second
    if (checks) this.checks = sumChecks([this.checks, checks]);
    const trends: K6Second['trends'] = {};
    for (const metric of TREND_METRICS) {
      const encoded = hist[metric];
      if (encoded === undefined) continue;
      const h = decodeHistogram(encoded);
      const stats = histogramStatsMs(h);
      if (stats) trends[metric] = stats;
      let m = this.merged.get(metric);
      if (!m) this.merged.set(metric, (m = createHistogram()));
      m.add(h);
    }
    addCounters(this.counters, counters);
    this.seconds++;
    this.firstTs ??= ts;
    this.lastTs = ts;
    if (counters.requests > 0 || counters.iterations > 0)
      this.loadSeconds = [this.loadSeconds?.[0] ?? ts, ts];
    if (vusMax !== undefined) this.vusMax = Math.max(this.vusMax ?? 0, vusMax);
    if (vusAllocated !== undefined)
      this.vusAllocatedMax = Math.max(this.vusAllocatedMax ?? 0, vusAllocated);
    return {
      ts,
      ...counters,
      vus: vus ?? null,
      vusMax: vusMax ?? null,
      vusAllocated: vusAllocated ?? null,
      trends,
      histograms: { ...hist },
      checks,
      custom,
      subMetrics,
    };
  }

  summary(): K6Summary {
    const trends: K6Summary['trends'] = {};
    const histograms: K6Summary['histograms'] = {};
    const merged = new Map(this.merged);
    for (const [metric, h] of merged) {
      const stats = histogramStatsMs(h);
      if (stats) trends[metric] = stats;
      histograms[metric] = encodeHistogram(h);
    }
    return {
      ...structuredClone(this.counters),
      seconds: this.seconds,
      firstTs: this.firstTs,
      lastTs: this.lastTs,
      loadSeconds: this.loadSeconds,
      vusMax: this.vusMax,
      vusAllocatedMax: this.vusAllocatedMax,
      trends,
      histograms,
      percentile: (metric, p) => {
        const h = merged.get(metric);
        return h ? percentileMs(h, p) : undefined;
      },
      checks: structuredClone(this.checks),
      custom: structuredClone(this.custom),
    };
  }
}
