import { z } from 'zod';

/** The kinds of a script's own k6 metrics (`k6/metrics` Trend, Counter, Rate, Gauge). */
export const SCRIPT_METRIC_TYPES = ['trend', 'counter', 'rate', 'gauge'] as const;

/** The statistics a script metric is compared on, by kind (see the web app's `SCRIPT_METRIC_STATS`). */
export const SCRIPT_METRIC_STAT_KEYS = [
  'p50',
  'p95',
  'p99',
  'rate',
  'total',
  'ratio',
  'last',
  'max',
] as const;
export type ScriptMetricStat = (typeof SCRIPT_METRIC_STAT_KEYS)[number];

const metricName = z
  .string()
  .describe("the metric's name in the script, or group_duration{group:::login}");

/** One of the script's own metrics over a set of runs (a cell's measured runs). */
export const ScriptMetricSummarySchema = z.object({
  name: metricName,
  type: z.enum(SCRIPT_METRIC_TYPES),
  unit: z
    .enum(['ms', ''])
    .describe(
      "of p95 and mean: ms for a trend of times (k6's new Trend(name, true)), '' for a trend of plain numbers and every other kind",
    ),
  runs: z.number().int().describe('measured runs that recorded it'),
  count: z.number().describe('samples per run (median over the runs)'),
  negative: z
    .number()
    .int()
    .describe("a trend's samples below 0 in all the runs, left out of its statistics"),
  aboveTop: z
    .number()
    .int()
    .describe(
      "a trend's samples above its histogram's top in all the runs (1 h of ms; 3,600,000 of a plain number), held at the top",
    ),
  p95: z.number().nullable().describe("a trend's p95 (median over the runs); null for other kinds"),
  mean: z.number().nullable().describe("a trend's mean (median over the runs)"),
  sum: z.number().nullable().describe("a counter's sum (median over the runs)"),
  rate: z
    .number()
    .nullable()
    .describe("a rate's share of non-zero samples, 0..1 (median over the runs)"),
  last: z.number().nullable().describe("a gauge's last value (median over the runs)"),
  max: z.number().nullable().describe("a gauge's highest value (median over the runs)"),
});
export type ScriptMetricSummary = z.infer<typeof ScriptMetricSummarySchema>;

/** One statistic of one of the script's own metrics, a cell's candidate beside its baseline. */
export const ScriptMetricComparisonSchema = z.object({
  name: metricName,
  type: z.enum(SCRIPT_METRIC_TYPES),
  stat: z
    .enum(SCRIPT_METRIC_STAT_KEYS)
    .describe(
      "a trend's p50, p95, p99; a counter's rate (per second of load) and total; a rate's ratio (% of non-zero samples); a gauge's last and max",
    ),
  unit: z
    .enum(['ms', '/s', '%', ''])
    .describe(
      "ms only for a trend of times (k6's new Trend(name, true)); '' for a trend of plain numbers, a counter's total and a gauge",
    ),
  baselineMedian: z.number().nullable().describe("median over the baseline's runs"),
  baselineRuns: z.number().int().describe("the baseline's runs that recorded the metric"),
  candidateMedian: z.number().nullable(),
  candidateRuns: z.number().int(),
  difference: z
    .object({
      absolute: z
        .number()
        .describe("candidate minus baseline, in the metric's unit (a ratio's in points)"),
      percent: z.number().nullable().describe('of the baseline; null when the baseline is 0'),
    })
    .nullable()
    .describe('null where either side has no value'),
});
export type ScriptMetricComparison = z.infer<typeof ScriptMetricComparisonSchema>;
