import { z } from 'zod';
import { INSIGHT_CODES, type InsightCode } from '@poolbench/stats';

/** Metrics a threshold may name, grouped by k6 metric type (which fixes the allowed aggregations). */
export const TREND_METRICS = [
  'http_req_duration',
  'http_req_waiting',
  'http_req_connecting',
  'http_req_tls_handshaking',
  'http_req_blocked',
  'iteration_duration',
] as const;
export const RATE_METRICS = ['http_req_failed', 'checks'] as const;
export const COUNTER_METRICS = ['http_reqs', 'iterations', 'dropped_iterations'] as const;
export const THRESHOLD_METRICS = [...TREND_METRICS, ...RATE_METRICS, ...COUNTER_METRICS] as const;

export type ThresholdMetric = (typeof THRESHOLD_METRICS)[number];
export type MetricKind = 'trend' | 'rate' | 'counter';

/**
 * A run insight as a threshold: `{ metric: 'insight:load-not-offered', expr: 'absent' }` fails the
 * run when that insight is found in it (evaluated by the worker once the run's data is in, not by
 * k6). The only expression is "absent".
 */
export const INSIGHT_THRESHOLD_METRICS = INSIGHT_CODES.map(
  (c): `insight:${InsightCode}` => `insight:${c}`,
);
export type InsightThresholdMetric = `insight:${InsightCode}`;
export const INSIGHT_THRESHOLD_EXPR = 'absent';
export type AnyThresholdMetric = ThresholdMetric | InsightThresholdMetric;
export const isInsightMetric = (m: string): m is InsightThresholdMetric =>
  (INSIGHT_THRESHOLD_METRICS as readonly string[]).includes(m);
export const insightCodeOf = (m: InsightThresholdMetric): InsightCode =>
  INSIGHT_CODES.find((c) => `insight:${c}` === m)!;

/**
 * A k6 sub-metric: a metric over the samples that carry certain tags, `http_req_duration{name:login}`
 * or `http_reqs{method:GET,status:200}` (any tag: name, scenario, group, method, status,
 * expected_response or the script's own). The k6 output keeps the series these name.
 */
export type SubMetricName = `${ThresholdMetric}{${string}}`;
const SUB_METRIC_RE = /^([A-Za-z_][A-Za-z0-9_]*)\{([^{}]*)\}$/;

/** A sub-metric's metric and tags (trimmed, as k6 reads them), or null for anything else. */
export function parseSubMetric(
  name: string,
): { metric: ThresholdMetric; tags: Array<[string, string]> } | null {
  // a schema's refinement may hand it whatever the request held
  if (typeof name !== 'string') return null;
  const m = SUB_METRIC_RE.exec(name.trim());
  const metric = THRESHOLD_METRICS.find((x) => x === m?.[1]);
  if (!m || !metric) return null;
  const tags: Array<[string, string]> = [];
  for (const part of m[2]!.split(',')) {
    const i = part.indexOf(':');
    const key = part.slice(0, i).trim();
    if (i < 0 || key === '') return null;
    tags.push([key, part.slice(i + 1).trim()]);
  }
  return { metric, tags };
}

/** One spelling per sub-metric (tags sorted by key, no spaces): how its series is looked up. */
export function canonicalSubMetric(name: string): string | null {
  const p = parseSubMetric(name);
  if (!p) return null;
  const tags = [...p.tags].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `${p.metric}{${tags.map(([k, v]) => `${k}:${v}`).join(',')}}`;
}

/** The metric a threshold is on: the metric itself, or a sub-metric's metric. */
export function baseMetric(metric: string): ThresholdMetric | undefined {
  return THRESHOLD_METRICS.find((m) => m === metric) ?? parseSubMetric(metric)?.metric;
}

export function metricKind(metric: ThresholdMetric): MetricKind {
  if ((TREND_METRICS as readonly string[]).includes(metric)) return 'trend';
  if ((RATE_METRICS as readonly string[]).includes(metric)) return 'rate';
  return 'counter';
}

const ALLOWED_AGGREGATIONS: Record<MetricKind, string> = {
  trend: 'avg, min, max, med, p(N)',
  rate: 'rate',
  counter: 'count, rate',
};

export type Aggregation = 'avg' | 'min' | 'max' | 'med' | 'rate' | 'count' | { p: number };
export type Operator = '<' | '<=' | '>' | '>=' | '==' | '!=';
export interface ParsedExpr {
  aggregation: Aggregation;
  op: Operator;
  value: number;
}

// The subset of k6's threshold grammar we accept: `<aggregation> <op> <number>`.
const EXPR_RE =
  /^\s*(avg|min|max|med|rate|count|p\(\s*(\d+(?:\.\d+)?)\s*\))\s*(<=|>=|==|!=|<|>)\s*(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)\s*$/;

export function parseThresholdExpr(expr: string): ParsedExpr | string {
  const m = EXPR_RE.exec(expr);
  if (!m)
    return 'must look like "<aggregation> <operator> <number>", e.g. "p(95)<500" or "rate<0.01"; operators < <= > >= == !=';
  const [, agg, pct, op, num] = m;
  let aggregation: Aggregation;
  if (pct !== undefined) {
    const p = Number(pct);
    if (!(p >= 0 && p <= 100)) return 'percentile must be between 0 and 100';
    aggregation = { p };
  } else {
    aggregation = agg as Exclude<Aggregation, { p: number }>;
  }
  return { aggregation, op: op as Operator, value: Number(num) };
}

function aggregationFits(kind: MetricKind, a: Aggregation): boolean {
  if (kind === 'trend') return typeof a === 'object' || ['avg', 'min', 'max', 'med'].includes(a);
  if (kind === 'rate') return a === 'rate';
  return a === 'count' || a === 'rate';
}

// The same grammar as JSON Schema patterns for the OpenAPI document, one per metric kind, so
// generated clients know what the server accepts. ASCII classes only ([0-9], spaces), since a
// pattern's \d and \s match more in some languages than in JavaScript; a bit stricter than
// EXPR_RE (percentiles written with at most two digits before the point).
const NUM_PATTERN = '-?[0-9]+(\\.[0-9]+)?([eE][+-]?[0-9]+)?';
const OP_PATTERN = '(<=|>=|==|!=|<|>)';
const PCT_PATTERN = 'p\\( *(100(\\.0+)?|[0-9]{1,2}(\\.[0-9]+)?) *\\)';
const exprPattern = (agg: string) => `^ *(${agg}) *${OP_PATTERN} *${NUM_PATTERN} *$`;
export const EXPR_PATTERNS: Record<MetricKind, string> = {
  trend: exprPattern(`avg|min|max|med|${PCT_PATTERN}`),
  rate: exprPattern('rate'),
  counter: exprPattern('count|rate'),
};
const METRICS_OF: Record<MetricKind, readonly string[]> = {
  trend: TREND_METRICS,
  rate: RATE_METRICS,
  counter: COUNTER_METRICS,
};

/** One k6 threshold, e.g. `{ metric: 'http_req_duration', expr: 'p(95)<500' }` (trend values in ms). */
const ALL_METRICS = [...THRESHOLD_METRICS, ...INSIGHT_THRESHOLD_METRICS];
const METRIC_PROBLEM = `must be one of ${ALL_METRICS.join(', ')}, or one of the k6 metrics with tags, e.g. http_req_duration{name:login}`;
const isMetricName = (m: string): m is AnyThresholdMetric | SubMetricName =>
  (ALL_METRICS as readonly string[]).includes(m) || parseSubMetric(m) !== null;
export const ThresholdSchema = z
  .strictObject({
    metric: z
      .string({ error: METRIC_PROBLEM })
      .max(128, 'must be at most 128 characters')
      .refine(isMetricName, METRIC_PROBLEM)
      .transform((m) => m as AnyThresholdMetric | SubMetricName),
    expr: z
      .string()
      .max(64, 'must be at most 64 characters')
      .meta({ pattern: exprPattern(`avg|min|max|med|count|rate|${PCT_PATTERN}`) }),
    abortOnFail: z.boolean().default(false),
  })
  .superRefine(
    (t, ctx) => {
      if (isInsightMetric(t.metric)) {
        if (t.expr.trim() !== INSIGHT_THRESHOLD_EXPR)
          ctx.addIssue({
            code: 'custom',
            path: ['expr'],
            message: `an insight threshold's expression is "${INSIGHT_THRESHOLD_EXPR}": the run fails when the insight is found`,
          });
        if (t.abortOnFail)
          ctx.addIssue({
            code: 'custom',
            path: ['abortOnFail'],
            message: 'an insight is found once the run has ended, so it cannot abort the run',
          });
        return;
      }
      const parsed = parseThresholdExpr(t.expr);
      if (typeof parsed === 'string') {
        ctx.addIssue({ code: 'custom', path: ['expr'], message: parsed });
        return;
      }
      const k6Metric = baseMetric(t.metric);
      if (!k6Metric) return;
      const kind = metricKind(k6Metric);
      if (!aggregationFits(kind, parsed.aggregation)) {
        ctx.addIssue({
          code: 'custom',
          path: ['expr'],
          message: `${t.metric} is a ${kind} metric: use ${ALLOWED_AGGREGATIONS[kind]}`,
        });
      }
    },
    { when: (p) => typeof (p.value as { expr?: unknown } | undefined)?.expr === 'string' },
  )
  .meta({
    // the aggregation must fit the metric's kind: one branch per kind, and one for insights
    oneOf: [
      ...(['trend', 'rate', 'counter'] as const).map((kind) => ({
        properties: {
          metric: { enum: [...METRICS_OF[kind]] },
          expr: { pattern: EXPR_PATTERNS[kind] },
        },
      })),
      // the same metrics with tags: a sub-metric
      ...(['trend', 'rate', 'counter'] as const).map((kind) => ({
        properties: {
          metric: {
            type: 'string',
            pattern: `^(${METRICS_OF[kind].join('|')})\\{[^{}:,]+:[^{},]*(,[^{}:,]+:[^{},]*)*\\}$`,
          },
          expr: { pattern: EXPR_PATTERNS[kind] },
        },
      })),
      {
        properties: {
          metric: { enum: [...INSIGHT_THRESHOLD_METRICS] },
          expr: { pattern: `^ *${INSIGHT_THRESHOLD_EXPR} *$` },
        },
      },
    ],
  });

export type Threshold = z.infer<typeof ThresholdSchema>;

export const ThresholdListSchema = z
  .array(ThresholdSchema)
  .max(32, 'at most 32 thresholds')
  .default([]);

/** k6 `options.thresholds` for a threshold list (insight thresholds are the worker's, not k6's). */
export function thresholdsToK6(
  thresholds: Threshold[],
): Record<string, Array<string | { threshold: string; abortOnFail: boolean }>> {
  const out: Record<string, Array<string | { threshold: string; abortOnFail: boolean }>> = {};
  for (const t of thresholds) {
    if (isInsightMetric(t.metric)) continue;
    const list = (out[t.metric] ??= []);
    list.push(t.abortOnFail ? { threshold: t.expr, abortOnFail: true } : t.expr);
  }
  return out;
}
