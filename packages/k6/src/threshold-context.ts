import type { ThresholdContext, ThresholdMetric } from '@poolbench/scenarios';
import { checkPassRate } from '@poolbench/stats';
import { TREND_METRICS, type TrendMetric } from './ndjson-line';
import type { K6Summary } from './summary-accumulator';

const isTrend = (m: ThresholdMetric): m is ThresholdMetric & TrendMetric =>
  (TREND_METRICS as readonly string[]).includes(m);

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
): ThresholdContext {
  const counts: Partial<Record<string, number>> = {
    http_reqs: summary.requests,
    iterations: summary.iterations,
    dropped_iterations: summary.droppedIterations,
    data_sent: summary.dataSentBytes,
    data_received: summary.dataReceivedBytes,
  };
  return {
    trend: (metric, stat) => {
      if (!isTrend(metric)) return undefined;
      const t = summary.trends[metric];
      if (!t) return undefined;
      if (typeof stat === 'object') return summary.percentile(metric, stat.p);
      return { avg: t.mean, min: t.min, max: t.max, med: t.p50 }[stat];
    },
    rate: (metric) => {
      if (metric === 'checks') return checkPassRate(summary.checks) ?? undefined;
      return metric === 'http_req_failed' && summary.requests > 0
        ? summary.failed / summary.requests
        : undefined;
    },
    count: (metric) => counts[metric],
    durationSec,
  };
}
