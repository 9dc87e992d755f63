import type { CompareOptions } from './compare-options';
import { compareMetrics, type MetricComparison } from './compare-metrics';
import type { Direction } from './verdict';
import { noiseWarning, withNoiseFloor, type NoiseFloors } from './noise-floor-options';
import type { RunSummary } from './run-summary';
import { checkPassRate } from './run-checks';
import {
  ABSOLUTE_FLOORS,
  parseGateMetrics,
  PRIMARY_RUN_METRIC_KEYS,
  TESTED_RUN_METRIC_KEYS,
  type RunMetricKey,
  type TestedRunMetricKey,
} from '@poolbench/contracts';

export interface RunMetricDef {
  key: RunMetricKey;
  label: string;
  unit: 'ms' | 'req/s' | '%' | 'bytes' | 'count';
  direction: Direction;
  /** max is shown but never tested: one extreme sample says nothing about a config */
  tested: boolean;
  /** p99 needs enough requests per run to mean anything */
  minRequests?: number;
  options?: CompareOptions;
  value(s: RunSummary): number | null;
}

const lower: Direction = 'lower-is-better';

/**
 * The metrics a comparison shows, one value per run each (statistics are per run, not per
 * request: requests inside a run are correlated). Error rate is compared on the linear scale with
 * an absolute floor, so a run with zero errors does not flip the scale.
 */
export const RUN_METRICS: readonly RunMetricDef[] = [
  {
    key: 'rps',
    label: 'Throughput',
    unit: 'req/s',
    direction: 'higher-is-better',
    tested: true,
    value: (s) => s.rps,
  },
  {
    key: 'p50Ms',
    label: 'Latency p50',
    unit: 'ms',
    direction: lower,
    tested: true,
    value: (s) => s.latency?.p50 ?? null,
  },
  {
    key: 'p95Ms',
    label: 'Latency p95',
    unit: 'ms',
    direction: lower,
    tested: true,
    value: (s) => s.latency?.p95 ?? null,
  },
  {
    key: 'p99Ms',
    label: 'Latency p99',
    unit: 'ms',
    direction: lower,
    tested: true,
    minRequests: 1000,
    value: (s) => s.latency?.p99 ?? null,
  },
  {
    key: 'maxMs',
    label: 'Latency max',
    unit: 'ms',
    direction: lower,
    tested: false,
    value: (s) => s.latency?.max ?? null,
  },
  {
    key: 'errorRate',
    label: 'Error rate',
    unit: '%',
    direction: lower,
    tested: true,
    options: { scale: 'linear', absoluteFloor: ABSOLUTE_FLOORS.errorRate.floor },
    value: (s) => (s.errorRate === null ? null : s.errorRate * 100),
  },
  {
    // k6's checks rate; runs without checks have no value, so their comparisons leave it out
    key: 'checkPassRate',
    label: 'Check pass rate',
    unit: '%',
    direction: 'higher-is-better',
    tested: true,
    options: { scale: 'linear', absoluteFloor: ABSOLUTE_FLOORS.checkPassRate.floor },
    value: (s) => {
      const rate = checkPassRate(s.checks);
      return rate === null ? null : rate * 100;
    },
  },
  {
    key: 'connectP95Ms',
    label: 'Connection set-up p95',
    unit: 'ms',
    direction: lower,
    tested: true,
    options: { scale: 'linear', absoluteFloor: ABSOLUTE_FLOORS.connectP95Ms.floor },
    value: (s) => s.blocked?.p95 ?? null,
  },
  {
    key: 'cpuMeanPercent',
    label: 'Target CPU mean',
    unit: '%',
    direction: lower,
    tested: true,
    value: (s) => s.resources?.cpuMeanPercent ?? null,
  },
  {
    key: 'cpuPeakPercent',
    label: 'Target CPU peak',
    unit: '%',
    direction: lower,
    tested: true,
    value: (s) => s.resources?.cpuPeakPercent ?? null,
  },
  {
    key: 'rssMeanBytes',
    label: 'Target RSS mean',
    unit: 'bytes',
    direction: lower,
    tested: true,
    value: (s) => s.resources?.rssMeanBytes ?? null,
  },
  {
    key: 'rssPeakBytes',
    label: 'Target RSS peak',
    unit: 'bytes',
    direction: lower,
    tested: true,
    value: (s) => s.resources?.rssPeakBytes ?? null,
  },
  {
    key: 'poolWaitMsMean',
    label: 'Pool wait mean',
    unit: 'ms',
    direction: lower,
    tested: true,
    options: { scale: 'linear', absoluteFloor: ABSOLUTE_FLOORS.poolWaitMsMean.floor },
    value: (s) => s.resources?.poolWaitMsMean ?? null,
  },
];

export function runMetric(key: string): RunMetricDef | undefined {
  return RUN_METRICS.find((m) => m.key === key);
}

export interface RunGroup {
  label: string;
  summaries: (RunSummary | null)[];
}

export interface GroupComparison {
  baseline: string;
  candidate: string;
  /** the tested metrics this comparison was asked for; their p-values are adjusted together */
  gatedOn: TestedRunMetricKey[];
  /**
   * noiseFloor: the practical floor is the A/A calibration's measured noise floor, which was
   * larger than the metric's default floor
   */
  metrics: (MetricComparison & {
    def: RunMetricDef;
    lowRequests: boolean;
    noiseFloor: boolean;
    /**
     * the calibration's run-to-run spread is so large that these run counts would miss a doubling
     * (`noiseWarning`): shown beside the verdict; a primary metric's makes a check incomplete
     */
    noiseWarning: string | null;
  })[];
}

export interface RunGroupScope {
  /**
   * Compare only these tested metrics (default: every tested metric). Chosen metrics are all
   * primary unless `primary` says otherwise: the gate named what it is gated on. Fewer hypotheses
   * mean more power for the ones that matter, provided they are chosen before the results are
   * seen. Unknown or untested keys throw a RangeError.
   */
  metrics?: readonly RunMetricKey[];
  /**
   * The primary metrics, adjusted with Holm among themselves; the rest are adjusted with
   * Benjamini–Hochberg among themselves (`compareMetrics`). Default: `scope.metrics` when given,
   * else `PRIMARY_RUN_METRIC_KEYS` (p95, p99, throughput, error rate).
   */
  primary?: readonly RunMetricKey[];
  /**
   * Noise floors an A/A calibration measured (`measureNoiseFloor`): a metric's practical floor is
   * the larger of its own and the measured one.
   */
  noiseFloors?: NoiseFloors;
}

/** A group's values of one metric, one per run that has it: the sample compareRunGroups tests. */
export function runMetricValues(group: RunGroup, def: RunMetricDef): number[] {
  return group.summaries
    .map((s) => (s ? def.value(s) : null))
    .filter((v): v is number => v !== null && Number.isFinite(v));
}

/** The options compareRunGroups tests one metric with: the shared ones under the metric's own. */
export function runMetricOptions(def: RunMetricDef, shared: CompareOptions = {}): CompareOptions {
  return { ...shared, direction: def.direction, ...def.options };
}

/**
 * Compares a candidate group of runs with a baseline group over every tested metric, or over the
 * tested metrics `scope.metrics` chooses.
 */
export function compareRunGroups(
  baseline: RunGroup,
  candidate: RunGroup,
  shared: CompareOptions = {},
  scope: RunGroupScope = {},
): GroupComparison {
  const gatedOn = scope.metrics ? parseGateMetrics(scope.metrics) : [...TESTED_RUN_METRIC_KEYS];
  const primary: readonly string[] = scope.primary ?? scope.metrics ?? PRIMARY_RUN_METRIC_KEYS;
  const defs = RUN_METRICS.filter(
    (d) => d.tested && (gatedOn as readonly string[]).includes(d.key),
  );
  const usable = defs.filter(
    (d) => runMetricValues(baseline, d).length > 0 && runMetricValues(candidate, d).length > 0,
  );
  const floored = usable.map((d) =>
    withNoiseFloor(runMetricOptions(d, shared), scope.noiseFloors?.[d.key as TestedRunMetricKey]),
  );
  // compareMetrics spreads the shared options under these again: the same options either way
  const results = compareMetrics(
    usable.map((d, i) => ({
      name: d.key,
      baseline: runMetricValues(baseline, d),
      candidate: runMetricValues(candidate, d),
      options: floored[i]!.options,
      primary: primary.includes(d.key),
    })),
    shared,
  );
  const fewRequests = (g: RunGroup, d: RunMetricDef) =>
    d.minRequests !== undefined && g.summaries.some((s) => s && s.requests < d.minRequests!);
  const primaries = results.filter((r) => r.primary).length;
  return {
    baseline: baseline.label,
    candidate: candidate.label,
    gatedOn,
    metrics: results.map((r, i) => ({
      ...r,
      def: usable[i]!,
      lowRequests: fewRequests(baseline, usable[i]!) || fewRequests(candidate, usable[i]!),
      noiseFloor: floored[i]!.raised,
      noiseWarning: noiseWarning(
        usable[i]!.label,
        scope.noiseFloors?.[usable[i]!.key as TestedRunMetricKey],
        { baseline: r.baseline.n, candidate: r.candidate.n },
        { alpha: r.alpha, primaryMetrics: Math.max(1, primaries) },
      ),
    })),
  };
}
