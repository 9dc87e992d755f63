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
export type MetricKind = 'trend' | 'rate' | 'counter' | 'gauge';

/**
 * A k6 metric name as k6 accepts one: a script's own metric (`new Trend('login_ms')`) is named so.
 * Its kind is known only once the run has its samples.
 */
const CUSTOM_METRIC_RE = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;

/** k6's own metrics the PoolBench output does not keep (the kept ones are THRESHOLD_METRICS). */
export const UNKEPT_K6_METRICS = [
  'vus',
  'vus_max',
  'data_sent',
  'data_received',
  'http_req_sending',
  'http_req_receiving',
  'group_duration',
  'ws_connecting',
  'ws_session_duration',
  'ws_msgs_sent',
  'ws_msgs_received',
  'ws_sessions',
  'ws_ping',
  'grpc_req_duration',
] as const;

/**
 * A group's duration, `group_duration{group:::login}`: k6's group_duration is kept per group only
 * (a trend), so a threshold on it must name exactly one group.
 */
export function isGroupDuration(metric: string): boolean {
  const p = parseSubMetric(metric);
  return p?.metric === 'group_duration' && p.tags.length === 1 && p.tags[0]![0] === 'group';
}

/** A metric of the script's own (not one of k6's): its kind is known once it has samples. */
export const isCustomMetricName = (m: string): boolean =>
  CUSTOM_METRIC_RE.test(m) &&
  !(THRESHOLD_METRICS as readonly string[]).includes(m) &&
  !(UNKEPT_K6_METRICS as readonly string[]).includes(m);

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
export type SubMetricName = `${string}{${string}}`;
const SUB_METRIC_RE = /^([A-Za-z_][A-Za-z0-9_]*)\{([^{}]*)\}$/;

/** A sub-metric's metric and tags (trimmed, as k6 reads them), or null for anything else. */
export function parseSubMetric(
  name: string,
): { metric: string; tags: Array<[string, string]> } | null {
  // a schema's refinement may hand it whatever the request held
  if (typeof name !== 'string') return null;
  const m = SUB_METRIC_RE.exec(name.trim());
  const metric = m?.[1];
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

/** The k6 metric PoolBench keeps a threshold is on (the metric itself, or a sub-metric's); undefined for a custom metric. */
export function baseMetric(metric: string): ThresholdMetric | undefined {
  const name = parseSubMetric(metric)?.metric ?? metric;
  return THRESHOLD_METRICS.find((m) => m === name);
}

/** The metric a threshold is on, kept or custom: `login_ms` for `login_ms{name:x}`. */
export const metricNameOf = (metric: string): string => parseSubMetric(metric)?.metric ?? metric;

export function metricKind(metric: ThresholdMetric): MetricKind {
  if ((TREND_METRICS as readonly string[]).includes(metric)) return 'trend';
  if ((RATE_METRICS as readonly string[]).includes(metric)) return 'rate';
  return 'counter';
}

const ALLOWED_AGGREGATIONS: Record<MetricKind, string> = {
  trend: 'avg, min, max, med, p(N)',
  rate: 'rate',
  counter: 'count, rate',
  gauge: 'value',
};

export type Aggregation =
  'avg' | 'min' | 'max' | 'med' | 'rate' | 'count' | 'value' | { p: number };
export type Operator = '<' | '<=' | '>' | '>=' | '==' | '!=';
export interface ParsedExpr {
  aggregation: Aggregation;
  op: Operator;
  value: number;
}

// The subset of k6's threshold grammar we accept: `<aggregation> <op> <number>`.
const EXPR_RE =
  /^\s*(avg|min|max|med|rate|count|value|p\(\s*(\d+(?:\.\d+)?)\s*\))\s*(<=|>=|==|!=|<|>)\s*(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)\s*$/;

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

export function aggregationFits(kind: MetricKind, a: Aggregation): boolean {
  if (kind === 'trend') return typeof a === 'object' || ['avg', 'min', 'max', 'med'].includes(a);
  if (kind === 'rate') return a === 'rate';
  if (kind === 'gauge') return a === 'value';
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
  gauge: exprPattern('value'),
};
const METRICS_OF: Record<Exclude<MetricKind, 'gauge'>, readonly string[]> = {
  trend: TREND_METRICS,
  rate: RATE_METRICS,
  counter: COUNTER_METRICS,
};

/** One k6 threshold, e.g. `{ metric: 'http_req_duration', expr: 'p(95)<500' }` (trend values in ms). */
const ALL_METRICS = [...THRESHOLD_METRICS, ...INSIGHT_THRESHOLD_METRICS];
const METRIC_PROBLEM = `must be one of ${ALL_METRICS.join(', ')}, a metric of the script (letters, digits and _), or one of them with tags, e.g. http_req_duration{name:login}`;
const isMetricName = (m: string): boolean => {
  if ((ALL_METRICS as readonly string[]).includes(m) || isCustomMetricName(m)) return true;
  if (isGroupDuration(m)) return true;
  const sub = parseSubMetric(m)?.metric;
  return sub !== undefined && (baseMetric(sub) !== undefined || isCustomMetricName(sub));
};
/** The reason a metric name is refused: one k6 has but the output does not keep, or none at all. */
const metricProblem = (m: unknown): string => {
  const name = typeof m === 'string' ? metricNameOf(m) : '';
  if (name === 'group_duration')
    return "k6's group_duration is kept per group only: name one, as in group_duration{group:::login}";
  return (UNKEPT_K6_METRICS as readonly string[]).includes(name)
    ? `k6's ${name} is not kept by PoolBench's output`
    : METRIC_PROBLEM;
};
export const ThresholdSchema = z
  .strictObject({
    metric: z
      .string({ error: METRIC_PROBLEM })
      .max(128, 'must be at most 128 characters')
      .refine(isMetricName, { error: (iss) => metricProblem(iss.input) })
      .transform((m): string => m),
    expr: z
      .string()
      .max(64, 'must be at most 64 characters')
      .meta({ pattern: exprPattern(`avg|min|max|med|count|rate|value|${PCT_PATTERN}`) }),
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
      if (!k6Metric && !isGroupDuration(t.metric)) return;
      const kind = k6Metric ? metricKind(k6Metric) : 'trend';
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
      // a metric of the script's own, with or without tags: its kind is known once it ran
      {
        properties: {
          // not one of k6's own (those have their own branches): `not` rather than a lookahead,
          // which JSON Schema tools that generate data (Schemathesis) cannot handle
          metric: {
            type: 'string',
            pattern: `^[A-Za-z_][A-Za-z0-9_]{0,127}(\\{[^{}:,]+:[^{},]*(,[^{}:,]+:[^{},]*)*\\})?$`,
            not: { pattern: `^(${THRESHOLD_METRICS.join('|')})(\\{|$)` },
          },
        },
      },
      // the trend metrics with tags: a sub-metric. Rate and counter sub-metrics are accepted too
      // (the refinement above checks them) but not described here: a second sub-metric branch
      // makes the document one that Schemathesis cannot generate requests from
      ...(['trend'] as const).map((kind) => ({
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
