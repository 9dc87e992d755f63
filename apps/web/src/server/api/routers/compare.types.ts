import { z } from 'zod';
import { VALIDITY_CODES } from '@poolbench/stats';
import { RUN_METRIC_KEYS } from '@poolbench/contracts/run-metric-keys';
import { CompareItemSchema } from '~/lib/compare/selection';
import { SERIES_METRICS, type SeriesMetricKey } from '~/lib/compare/series-metrics';
import { RefSchema } from './shared.types';

/**
 * Response schemas of the compare procedures (documenso's `.types.ts` pattern). The building
 * blocks (verdicts, change estimates, directions) are the ones the REST comparison uses too.
 */
export const VERDICTS = ['better', 'worse', 'no-change', 'inconclusive'] as const;
export const VerdictSchema = z.enum(VERDICTS);
export const DirectionSchema = z.enum(['lower-is-better', 'higher-is-better']);
/** Hodges–Lehmann change with its interval, in percent */
export const ChangeEstimateSchema = z.object({
  estimate: z.number(),
  lower: z.number(),
  upper: z.number(),
});
export const SecondsWindowSchema = z.object({ from: z.number().int(), to: z.number().int() });

const n = z.number().nullable();

/** Why a measured run is invalid (`runValidity`). */
export const ValidityReasonSchema = z.object({
  /** the run insight that shows it */
  code: z.enum(VALIDITY_CODES),
  /** "load not offered (3.2 % of iterations dropped)" */
  message: z.string(),
});

/** A measured run left out of every statistic and verdict as invalid, with why. */
export const InvalidRunSchema = z.object({
  runId: z.string(),
  reasons: z.array(ValidityReasonSchema),
});
const HdrStatsMsSchema = z.object({
  count: z.number(),
  min: z.number(),
  max: z.number(),
  mean: z.number(),
  p50: z.number(),
  p90: z.number(),
  p95: z.number(),
  p99: z.number(),
  p999: z.number(),
});

const CandidateCellSchema = z.object({
  median: n,
  n: z.number().int(),
  changePercent: ChangeEstimateSchema.nullable(),
  /** the coverage the interval actually has: below the nominal 95 % when there are too few runs */
  achievedConfidence: n,
  pValue: n,
  verdict: VerdictSchema.nullable(),
  reason: z.string().nullable(),
  suspectedWorse: z.boolean(),
  /** adjusted with Holm among the primary metrics (else Benjamini–Hochberg among the rest) */
  primary: z.boolean(),
  insufficient: z.boolean(),
  lowRequests: z.boolean(),
  noiseFloor: z.object({ unit: z.enum(['percent', 'absolute']), value: z.number() }).nullable(),
  noiseWarning: z.string().nullable(),
  warnings: z.array(z.string()),
});

const BandSchema = z.object({ med: z.number(), min: z.number(), max: z.number() }).nullable();
const SeriesSchema = z.array(z.object({ second: z.number(), values: z.array(BandSchema) }));
const SERIES_KEYS = SERIES_METRICS.map((m) => m.key) as [SeriesMetricKey, ...SeriesMetricKey[]];

export const ComparisonViewSchema = z.object({
  groups: z.array(
    z.object({
      key: z.string(),
      label: z.string(),
      kind: z.enum(['run', 'cell']),
      poolConfigName: z.string(),
      strategy: z.string().nullable(),
      scenarioName: z.string(),
      experimentName: z.string(),
      experimentId: z.string(),
      targetId: z.string(),
      targetName: z.string(),
      poolConfigId: z.string().nullable(),
      scenarioId: z.string().nullable(),
      runIds: z.array(z.string()),
      repeats: z.number().int(),
      /** measured runs of the cell left out as invalid, with why */
      invalidRuns: z.array(InvalidRunSchema),
      /** all requests of all repeats (in the window), from merged per-second histograms */
      merged: HdrStatsMsSchema.nullable(),
      requests: z.number(),
      failed: z.number(),
      /** requests by name (a flow's steps) over whole runs: medians of the runs' percentiles */
      steps: z.array(
        z.object({
          name: z.string(),
          runs: z.number().int(),
          requests: z.number(),
          failed: z.number(),
          p50: n,
          p95: n,
          p99: n,
        }),
      ),
    }),
  ),
  baselineIndex: z.number().int(),
  rows: z.array(
    z.object({
      key: z.string(),
      label: z.string(),
      unit: z.string(),
      direction: DirectionSchema,
      tested: z.boolean(),
      cells: z.array(z.object({ median: n, min: n, max: n, n: z.number().int() })),
      /** one per group; null for the baseline itself */
      comparisons: z.array(CandidateCellSchema.nullable()),
    }),
  ),
  /** the script's own k6 metrics both sides recorded, over whole runs (descriptive) */
  scriptMetrics: z.array(
    z.object({
      name: z.string(),
      type: z.enum(['trend', 'counter', 'rate', 'gauge']),
      stat: z.enum(['p50', 'p95', 'p99', 'rate', 'total', 'ratio', 'last', 'max']),
      /** 'ms' only for a trend of times; '' for a trend of plain numbers, a total, a gauge */
      unit: z.enum(['ms', '/s', '%', '']),
      cells: z.array(z.object({ median: n, n: z.number().int() })),
      /** one per group; null for the baseline and where either side has no value */
      diffs: z.array(z.object({ absolute: z.number(), percent: n }).nullable()),
    }),
  ),
  warnings: z.array(
    z.object({
      code: z.enum([
        'few-repeats',
        'low-requests',
        'environment-differs',
        'not-tested',
        'run-insights',
        'invalid-runs',
        'load-not-taken',
      ]),
      message: z.string(),
    }),
  ),
  spectrum: z.array(z.object({ percentile: z.number(), values: z.array(n) })),
  series: z.record(z.enum(SERIES_KEYS), SeriesSchema),
  window: SecondsWindowSchema.nullable(),
  durationSeconds: z.number(),
  spanSeconds: z.number(),
  noiseFloors: z.array(
    z
      .object({ experimentId: z.string(), runsPerSide: z.number().int(), createdAt: z.string() })
      .nullable(),
  ),
  /** the saved baseline among the items that was used because none was chosen */
  savedBaseline: z.object({ index: z.number().int(), name: z.string() }).nullable(),
  /** saved baselines of the items' targets and scenarios that were not picked */
  availableBaselines: z.array(
    z.object({ id: z.string(), name: z.string(), label: z.string(), item: CompareItemSchema }),
  ),
});

export const PivotSchema = z.object({
  metric: z.string(),
  label: z.string(),
  unit: z.string(),
  direction: DirectionSchema,
  columns: z.array(RefSchema),
  rows: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      strategy: z.string().nullable(),
      cells: z.array(
        z.object({ median: n, n: z.number().int(), verdict: VerdictSchema.nullable() }),
      ),
    }),
  ),
});

export const CandidatesSchema = z.array(
  z.object({
    id: z.string(),
    name: z.string(),
    createdAt: z.date(),
    target: RefSchema,
    cells: z.array(
      z.object({
        experimentId: z.string(),
        poolConfigId: z.string(),
        scenarioId: z.string(),
        poolConfigName: z.string(),
        strategy: z.string().nullable(),
        scenarioName: z.string(),
        runs: z.number().int(),
      }),
    ),
    runs: z.array(
      z.object({
        id: z.string(),
        repeatIndex: z.number().int(),
        poolConfigName: z.string(),
        scenarioName: z.string(),
        finishedAt: z.date().nullable(),
      }),
    ),
  }),
);

export const RepeatsNeededSchema = z.object({
  baselineIndex: z.number().int(),
  /** one per candidate and metric of the table whose verdict is inconclusive (both sides with 2+ runs) */
  cells: z.array(
    z.object({
      groupKey: z.string(),
      metric: z.enum(RUN_METRIC_KEYS),
      /** repeats per side that would likely resolve it at the observed spread; null: even 50 would not */
      repeatsPerSide: z.number().int().nullable(),
    }),
  ),
  /** the compared cells' experiments, read on every call */
  experiments: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      repeats: z.number().int(),
      running: z.boolean(),
      maxAddRepeats: z.number().int(),
    }),
  ),
});
