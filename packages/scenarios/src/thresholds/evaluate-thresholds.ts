import type { InsightCode } from '@poolbench/stats';
import {
  aggregationFits,
  baseMetric,
  insightCodeOf,
  isInsightMetric,
  metricKind,
  parseThresholdExpr,
  ThresholdSchema,
  type Operator,
  type MetricKind,
  type Threshold,
} from './threshold-schema';

export type TrendStat = 'avg' | 'min' | 'max' | 'med' | { p: number };

/**
 * What threshold evaluation needs from a finished run. Trend values are in milliseconds, as in
 * k6 thresholds. Return undefined when the metric has no samples. `metric` is a k6 metric or a
 * sub-metric of one (`http_req_duration{name:login}`, see canonicalSubMetric).
 */
export interface ThresholdContext {
  trend(metric: string, stat: TrendStat): number | undefined;
  /** Rate metrics (http_req_failed, checks): fraction of non-zero samples, 0..1 */
  rate(metric: string): number | undefined;
  /** Counter metrics: total over the run */
  count(metric: string): number | undefined;
  /** run duration, for a counter's `rate` (count per second) as k6 computes it */
  durationSec: number;
  /**
   * Whether the run kept this metric at all (a sub-metric's series is not merged across a
   * distributed run's generators); a threshold on one it did not keep is not evaluated and passes.
   * Absent: every metric is known.
   */
  known?(metric: string): boolean;
  /** The kind of a script's own metric (or a sub-metric of one), from its samples; undefined without any */
  kindOf?(metric: string): MetricKind | undefined;
  /** Gauge metrics (a script's own): the last value */
  gauge?(metric: string): number | undefined;
}

export interface ThresholdResult {
  metric: string;
  expr: string;
  /** null when there was nothing to compare (see evaluateThresholds) */
  observed: number | null;
  pass: boolean;
}

function compare(a: number, op: Operator, b: number): boolean {
  switch (op) {
    case '<':
      return a < b;
    case '<=':
      return a <= b;
    case '>':
      return a > b;
    case '>=':
      return a >= b;
    case '==':
      return a === b;
    case '!=':
      return a !== b;
  }
}

/**
 * Evaluates thresholds with k6's meaning. Metrics without samples behave as in k6 v1.8: trends
 * and counters count as 0, a rate metric without samples is not evaluated and passes. Insight
 * thresholds are judged on `insights`, the codes `runInsights` found in the run (observed 1 when
 * found, 0 when not); without them (null) they are not evaluated and pass.
 */
export function evaluateThresholds(
  thresholds: readonly Threshold[],
  ctx: ThresholdContext,
  insights: readonly InsightCode[] | null = null,
): ThresholdResult[] {
  return thresholds.map((input) => {
    const t = ThresholdSchema.parse(input);
    if (isInsightMetric(t.metric)) {
      if (insights === null) return { metric: t.metric, expr: t.expr, observed: null, pass: true };
      const found = insights.includes(insightCodeOf(t.metric));
      return { metric: t.metric, expr: t.expr, observed: found ? 1 : 0, pass: !found };
    }
    const metric = t.metric;
    const notEvaluated = { metric: t.metric, expr: t.expr, observed: null, pass: true };
    if (ctx.known && !ctx.known(metric)) return notEvaluated;
    const parsed = parseThresholdExpr(t.expr);
    if (typeof parsed === 'string') throw new Error(`threshold ${t.metric} "${t.expr}": ${parsed}`);
    const { aggregation: agg, op, value } = parsed;
    // a script's own metric has the kind its samples had; without any, k6 would have refused it
    const base = baseMetric(metric);
    const kind = base ? metricKind(base) : ctx.kindOf?.(metric);
    if (!kind || !aggregationFits(kind, agg)) return notEvaluated;
    let observed: number | undefined;
    switch (kind) {
      case 'trend':
        observed = ctx.trend(metric, agg as TrendStat) ?? 0;
        break;
      case 'rate':
        observed = ctx.rate(metric);
        if (observed === undefined) return notEvaluated;
        break;
      case 'counter': {
        const count = ctx.count(metric) ?? 0;
        observed = agg === 'count' ? count : ctx.durationSec > 0 ? count / ctx.durationSec : 0;
        break;
      }
      case 'gauge':
        observed = ctx.gauge?.(metric);
        if (observed === undefined) return notEvaluated;
        break;
    }
    return { metric: t.metric, expr: t.expr, observed, pass: compare(observed, op, value) };
  });
}
