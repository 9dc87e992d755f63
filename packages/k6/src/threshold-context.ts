import {
  canonicalSubMetric,
  type MetricKind,
  type ThresholdContext,
  type TrendStat,
} from '@poolbench/scenarios';
import {
  checkPassRate,
  decodeHistogram,
  percentileMs,
  type CustomMetricValue,
  type HdrStatsMs,
} from '@poolbench/stats';
import type { K6SubMetric } from './run-k6';
import { TREND_METRICS, type TrendMetric } from './ndjson-line';
import type { K6Summary } from './summary-accumulator';

const isTrend = (m: string): m is TrendMetric => (TREND_METRICS as readonly string[]).includes(m);

/** A trend statistic from a series' statistics and, for any percentile, its histogram. */
function trendStat(
  stats: HdrStatsMs | null | undefined,
  histogram: string | undefined,
  stat: TrendStat,
): number | undefined {
  if (!stats || !histogram) return undefined;
  if (typeof stat === 'object') return percentileMs(decodeHistogram(histogram), stat.p);
  return { avg: stats.mean, min: stats.min, max: stats.max, med: stats.p50 }[stat];
}

const kindOf = (v: { type: string; count: number } | undefined): MetricKind | undefined =>
  v && v.count > 0 && ['trend', 'rate', 'counter', 'gauge'].includes(v.type)
    ? (v.type as MetricKind)
    : undefined;

/**
 * A ThresholdContext over the tagged series of a run (K6RunResult.subMetrics), for thresholds on
 * sub-metrics; whole metrics are read from `whole`. Without the series (null) a sub-metric
 * threshold is not evaluated. A series without samples reads as undefined
 * (a trend or counter then compares 0, a rate is not evaluated, as in k6).
 */
function withSubMetrics(
  whole: ThresholdContext,
  series: readonly K6SubMetric[] | null,
): ThresholdContext {
  if (series === null) return { ...whole, known: (metric) => !metric.includes('{') };
  if (series.length === 0) return whole;
  const byName = new Map(series.map((s) => [canonicalSubMetric(s.name), s]));
  const find = (metric: string) => {
    const key = canonicalSubMetric(metric);
    const s = key === null ? undefined : byName.get(key);
    return s && s.count > 0 ? s : undefined;
  };
  const isSub = (metric: string) => metric.includes('{');
  return {
    trend: (metric, stat) => {
      if (!isSub(metric)) return whole.trend(metric, stat);
      const s = find(metric);
      return trendStat(s?.trend, s?.histogram, stat);
    },
    rate: (metric) => (isSub(metric) ? (find(metric)?.rate ?? undefined) : whole.rate(metric)),
    count: (metric) => (isSub(metric) ? find(metric)?.sum : whole.count(metric)),
    gauge: (metric) => (isSub(metric) ? find(metric)?.value : whole.gauge?.(metric)),
    kindOf: (metric) => (isSub(metric) ? kindOf(find(metric)) : whole.kindOf?.(metric)),
    durationSec: whole.durationSec,
  };
}

/**
 * A ThresholdContext over a run summary, for evaluateThresholds. Any percentile is
 * available (from the merged histograms). Pass the run's load time (RunSummary.durationMs / 1000)
 * as durationSec, so a counter's rate is the summary's rps (setup() and teardown() are in neither
 * the counts nor the time); the default, the number of seconds written, counts the partial first
 * and last seconds as whole ones.
 */
export function thresholdContextFromSummary(
  summary: K6Summary,
  durationSec = summary.seconds,
  /** the run's tagged series, for thresholds on sub-metrics; null: not known, not evaluated */
  subMetrics: readonly K6SubMetric[] | null = null,
): ThresholdContext {
  const counts: Partial<Record<string, number>> = {
    http_reqs: summary.requests,
    iterations: summary.iterations,
    dropped_iterations: summary.droppedIterations,
    data_sent: summary.dataSentBytes,
    data_received: summary.dataReceivedBytes,
  };
  const custom = (metric: string): CustomMetricValue | undefined => summary.custom?.[metric];
  return withSubMetrics(
    {
      trend: (metric, stat) => {
        if (!isTrend(metric))
          return trendStat(custom(metric)?.trend, custom(metric)?.histogram, stat);
        const t = summary.trends[metric];
        if (!t) return undefined;
        if (typeof stat === 'object') return summary.percentile(metric, stat.p);
        return { avg: t.mean, min: t.min, max: t.max, med: t.p50 }[stat];
      },
      rate: (metric) => {
        if (metric === 'checks') return checkPassRate(summary.checks) ?? undefined;
        if (metric === 'http_req_failed')
          return summary.requests > 0 ? summary.failed / summary.requests : undefined;
        return custom(metric)?.rate ?? undefined;
      },
      count: (metric) => counts[metric] ?? custom(metric)?.sum,
      gauge: (metric) => custom(metric)?.value,
      kindOf: (metric) => kindOf(custom(metric)),
      durationSec,
    },
    subMetrics,
  );
}
