import { z } from 'zod';
import { RefSchema as Ref } from './shared.types';
import { InvalidRunSchema } from './compare.types';

const Verdict = z.enum(['better', 'worse', 'no-change', 'inconclusive']);
const MetricPoint = z.object({
  median: z.number().nullable(),
  n: z.number().int(),
  verdict: Verdict.nullable(),
  /** inconclusive, but worse beyond the floor by its estimate */
  suspected: z.boolean(),
});
const TrendMetrics = z.object({
  p95Ms: MetricPoint,
  p99Ms: MetricPoint,
  rps: MetricPoint,
  errorRate: MetricPoint,
});
const Medians = z.object({
  p95Ms: z.number().nullable(),
  p99Ms: z.number().nullable(),
  rps: z.number().nullable(),
  errorRate: z.number().nullable(),
});

/** Response schemas of the trend procedures (documenso's `.types.ts` pattern). */
export const TrendSeriesSchema = z.object({
  target: Ref,
  scenario: Ref,
  poolConfig: Ref,
  baseline: z
    .object({
      name: z.string(),
      experimentId: z.string(),
      runs: z.number().int(),
      medians: Medians,
    })
    .nullable(),
  baselineNames: z.array(z.string()),
  points: z.array(
    z.object({
      experimentId: z.string(),
      name: z.string(),
      createdAt: z.date(),
      commit: z.string().nullable(),
      branch: z.string().nullable(),
      buildUrl: z.string().nullable(),
      scheduled: z.boolean(),
      runs: z.number().int(),
      /** runs that crashed (failed, timed out, aborted by the system) */
      crashedRuns: z.number().int(),
      /** measured runs left out as invalid (the load was not offered, samples were lost), with why */
      invalidRuns: z.array(InvalidRunSchema),
      /** why the point cannot be judged against the baseline (too few, crashed or invalid runs), or null */
      incomplete: z.string().nullable(),
      /** why the point is a regression: its runs fell behind the load the baseline's runs took */
      loadNotTaken: z.string().nullable(),
      isBaseline: z.boolean(),
      /** the one outcome rule for this point: regression, suspected-regression, incomplete or pass */
      state: z.enum(['regression', 'suspected-regression', 'incomplete', 'pass']),
      regression: z.boolean(),
      failedThresholds: z.array(
        z.object({
          runId: z.string(),
          metric: z.string(),
          expr: z.string(),
          observed: z.number().nullable(),
        }),
      ),
      metrics: TrendMetrics,
    }),
  ),
});

export const TrendCellsSchema = z.array(
  z.object({
    targetId: z.string(),
    targetName: z.string(),
    scenarioId: z.string(),
    scenarioName: z.string(),
    poolConfigId: z.string(),
    poolConfigName: z.string(),
    runs: z.number().int(),
  }),
);
