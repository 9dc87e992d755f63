/**
 * Keys of the per-run metrics (`RUN_METRICS`), in display order. This file has no imports, so the
 * CLI bundle can check `--metrics` before it starts a load test without carrying the statistics.
 */
export const RUN_METRIC_KEYS = [
  'rps',
  'p50Ms',
  'p95Ms',
  'p99Ms',
  'maxMs',
  'errorRate',
  'checkPassRate',
  'connectP95Ms',
  'cpuMeanPercent',
  'cpuPeakPercent',
  'rssMeanBytes',
  'rssPeakBytes',
  'poolWaitMsMean',
] as const;
export type RunMetricKey = (typeof RUN_METRIC_KEYS)[number];

/** Shown but never tested: one extreme request says nothing about a config. */
export const UNTESTED_RUN_METRIC_KEYS = ['maxMs'] as const satisfies readonly RunMetricKey[];
export type TestedRunMetricKey = Exclude<RunMetricKey, (typeof UNTESTED_RUN_METRIC_KEYS)[number]>;

/**
 * The primary metrics a comparison is gated on by default: latency tail, throughput and errors,
 * adjusted with Holm among themselves; the other tested metrics are a second family (`compareMetrics`).
 */
export const PRIMARY_RUN_METRIC_KEYS = [
  'rps',
  'p95Ms',
  'p99Ms',
  'errorRate',
] as const satisfies readonly TestedRunMetricKey[];

/** The practical floor of a comparison in percent (log-scale metrics), unless a metric has an absolute one. */
export const DEFAULT_FLOOR_PERCENT = 5;

/**
 * Metrics compared on the linear scale with a floor in their own units (they can be 0, so a ratio
 * would flip). In percent of a small baseline such a floor is wider than 5 %: 0.001 points of a
 * 0.008 % error rate is ±12.5 %. Reports name these so the band they print explains itself.
 */
export const ABSOLUTE_FLOORS = {
  errorRate: { floor: 0.001, unit: 'percentage points' },
  checkPassRate: { floor: 0.001, unit: 'percentage points' },
  connectP95Ms: { floor: 0.05, unit: 'ms' },
  poolWaitMsMean: { floor: 0.1, unit: 'ms' },
} as const satisfies Partial<Record<TestedRunMetricKey, { floor: number; unit: string }>>;

const untested = (k: RunMetricKey): k is (typeof UNTESTED_RUN_METRIC_KEYS)[number] =>
  (UNTESTED_RUN_METRIC_KEYS as readonly string[]).includes(k);
export const TESTED_RUN_METRIC_KEYS: readonly TestedRunMetricKey[] = RUN_METRIC_KEYS.filter(
  (k): k is TestedRunMetricKey => !untested(k),
);

/**
 * Why a list of metric keys cannot choose which tested metrics a comparison is gated on, or null
 * when it can. The reason lists the valid keys, so a typo is fixed without reading the docs.
 */
export function gateMetricsProblem(keys: readonly string[]): string | null {
  const valid = `valid keys: ${TESTED_RUN_METRIC_KEYS.join(', ')}`;
  if (keys.length === 0) return `choose at least one metric; ${valid}`;
  for (const k of keys) {
    if ((UNTESTED_RUN_METRIC_KEYS as readonly string[]).includes(k))
      return `"${k}" is shown but never tested (one extreme request says nothing about a config); ${valid}`;
    if (!(TESTED_RUN_METRIC_KEYS as readonly string[]).includes(k))
      return `unknown metric "${k}"; ${valid}`;
  }
  return null;
}

/**
 * The tested metrics a comparison is gated on, deduplicated and in `RUN_METRIC_KEYS` order.
 * Throws a RangeError naming `metrics` and listing the valid keys.
 */
export function parseGateMetrics(keys: readonly string[]): TestedRunMetricKey[] {
  const problem = gateMetricsProblem(keys);
  if (problem) throw new RangeError(`metrics: ${problem}`);
  return TESTED_RUN_METRIC_KEYS.filter((k) => keys.includes(k));
}
