import { z } from 'zod';
import { TREND_METRICS } from '@poolbench/scenarios';

/** Trend metrics the poolbench output keeps as per-second HDR histograms (µs): exactly the trend
 * metrics a threshold may name, so the list lives once, in the scenarios contract. */
export { TREND_METRICS };
export type TrendMetric = (typeof TREND_METRICS)[number];

const count = z.number().int().nonnegative();

const CountersSchema = z.object({
  requests: count,
  failed: count,
  status: z.record(z.string(), count),
  dataSentBytes: count,
  dataReceivedBytes: count,
  iterations: count,
  droppedIterations: count,
  /** requests with a success status that failed a scenario check; already in `failed` */
  checkFailed: count.optional(),
});
export type K6Counters = z.infer<typeof CountersSchema>;

const CheckCountsSchema = z.object({ passes: count, fails: count });
/** k6 checks by name in their group ('' for the root), in the order they first appeared */
const ChecksSchema = z
  .array(CheckCountsSchema.extend({ name: z.string(), group: z.string().default('') }))
  .optional();

/**
 * A trend's extras (see README "NDJSON lines"): `time` whether it holds times (k6's
 * `new Trend(name, true)`, group_duration) or plain numbers; absent from outputs older than the
 * flag. `negative`: samples below 0, which its histogram cannot hold, in neither `hist` nor `count`.
 * `aboveTop`: samples above the histogram's top (1 h of ms; 3.6e6 of a plain number), held at the
 * top and counted in `count`, so a percentile at the top means at least the top.
 */
const TrendFlags = {
  time: z.boolean().optional(),
  negative: count.optional(),
  aboveTop: count.optional(),
};

/** One of the script's own metrics, or one tagged series, in a second or over the run. */
const CustomValueSchema = z.object({
  type: z.enum(['trend', 'counter', 'rate', 'gauge']),
  count,
  ...TrendFlags,
  hist: z.string().optional(),
  sum: z.number().optional(),
  nonZero: count.optional(),
  value: z.number().optional(),
  max: z.number().optional(),
});

/** The script's own metrics (or tagged series) by name (see README "NDJSON lines"). */
const CustomSchema = z.record(z.string(), CustomValueSchema).optional();
export type CustomLine = NonNullable<z.infer<typeof CustomSchema>>[string];

/** One closed second, as written by the Go output (see README "NDJSON lines"). */
export const SecondLineSchema = CountersSchema.extend({
  v: z.literal(1),
  type: z.literal('second'),
  ts: z.number().int(),
  vus: z.number().int().optional(),
  vusMax: z.number().int().optional(),
  /** k6's vus_max gauge (allocated VUs), highest in the second */
  vusAllocated: z.number().int().optional(),
  hist: z.partialRecord(z.enum(TREND_METRICS), z.string()),
  checks: ChecksSchema,
  /** checks of names past the output's cap (64 per run), counted together */
  checksOverflow: CheckCountsSchema.optional(),
  /** the script's own metrics (k6/metrics) with samples in the second, by name */
  custom: CustomSchema,
  /** the tagged series (the end line's subMetrics) with samples in the second, by series name */
  subMetrics: CustomSchema,
});
export type SecondLine = z.infer<typeof SecondLineSchema>;

/** The last line: totals over the written seconds, late samples and k6's test error. */
export const EndLineSchema = z.object({
  v: z.literal(1),
  type: z.literal('end'),
  seconds: count,
  lateSamples: count,
  lateRequests: count,
  /** the longest a load sample took from its timestamp to the output, and how long a second waited */
  maxLagMs: count.optional(),
  graceMs: count.optional(),
  /** per request name (k6's `name` tag) over the load; at most 32 names, the rest in stepsOverflow */
  steps: z
    .record(z.string(), z.object({ requests: count, failed: count, hist: z.string() }))
    .optional(),
  stepsOverflow: count.optional(),
  firstTs: z.number().int().optional(),
  lastTs: z.number().int().optional(),
  /** from the output's start to its stop: setup(), load and teardown() together (not a rate's denominator) */
  durationMs: count,
  /** the load phase, unix ms: start of the first load iteration .. end of the last load sample */
  loadStartMs: z.number().int().optional(),
  loadEndMs: z.number().int().optional(),
  totals: CountersSchema,
  /** the checks over the written seconds */
  checks: ChecksSchema,
  checksOverflow: CheckCountsSchema.optional(),
  /**
   * the tagged series the script's thresholds name and the other values of their tags, over the
   * load, at most 50; `subMetricsDropped`: samples of further series
   */
  subMetrics: z
    .array(
      CustomValueSchema.extend({
        name: z.string(),
        metric: z.string(),
        tags: z.record(z.string(), z.string()),
        /** `none`: a named series that saw no sample (a count of 0 and nothing else) */
        type: z.enum(['trend', 'rate', 'counter', 'gauge', 'none']),
      }),
    )
    .optional(),
  subMetricsDropped: count.optional(),
  /** the script's own metrics over the written seconds; samples of metrics past the cap of 16 */
  custom: CustomSchema,
  customDropped: count.optional(),
  error: z.string().optional(),
});
export type EndLine = z.infer<typeof EndLineSchema>;

export const OutputLineSchema = z.discriminatedUnion('type', [SecondLineSchema, EndLineSchema]);

export function parseOutputLine(text: string): SecondLine | EndLine {
  return OutputLineSchema.parse(JSON.parse(text));
}
