import { z } from 'zod';
import { LIMITS } from '@poolbench/scenarios';
import {
  gateMetricsProblem,
  parseGateMetrics,
  ScriptMetricComparisonSchema,
  TESTED_RUN_METRIC_KEYS,
  type TestedRunMetricKey,
} from '@poolbench/contracts';
import { GATE_OUTCOMES } from '@poolbench/stats';
import {
  ChangeEstimateSchema,
  DirectionSchema,
  InvalidRunSchema,
  SecondsWindowSchema,
  VerdictSchema,
} from '~/server/api/routers/compare.types';
import { gateExperiment } from '~/server/services/ci/gate-experiment';
import { op, type Operation } from '../operation';
import { NullableRef, restName } from '../schemas';

const GateMetricsParam = z
  .string()
  .transform((s) =>
    s
      .split(',')
      .map((k) => k.trim())
      .filter(Boolean),
  )
  .superRefine((keys, ctx) => {
    const problem = gateMetricsProblem(keys);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  })
  .transform((keys) => parseGateMetrics(keys))
  .optional()
  .meta({
    pattern: `^ *(${TESTED_RUN_METRIC_KEYS.join('|')}) *(, *(${TESTED_RUN_METRIC_KEYS.join('|')}) *)*$`,
  })
  .describe(
    `comma-separated tested metrics to gate on, e.g. p99Ms,rps: only these are compared and their p-values adjusted together, which gives fewer runs the power to detect a regression in them (choose them before looking at results). Default: every tested metric. Keys: ${TESTED_RUN_METRIC_KEYS.join(', ')}`,
  );

/** no run lasts longer, so a window bound past it selects nothing a smaller bound would not */
const MAX_WINDOW_SECOND = LIMITS.maxDurationMs / 1000;

const WindowSecond = (what: string) =>
  z
    .preprocess(
      (v) => (v === '' ? undefined : v), // `from=` is absent, not 0
      z.coerce
        .number({ error: 'must be a whole number of seconds' })
        .min(0, { error: 'must be 0 or more', abort: true })
        // zod's int also refuses past 2^53: past the bound, the bound is the one problem to name
        .max(MAX_WINDOW_SECOND, {
          error: `must be at most ${MAX_WINDOW_SECOND} (a run lasts at most that many seconds)`,
          abort: true,
        })
        .int('must be a whole number of seconds')
        .optional(),
    )
    .describe(
      `${what} of the elapsed-seconds window [from, to) of every run that the comparison is over, e.g. from=10 to leave out a 10-second warm-up; give both or neither. Default: whole runs`,
    );

const CompareQuery = z
  .object({
    baseline: restName(64)
      .optional()
      .describe('baseline name, e.g. main (the default when `base` is not given)'),
    base: restName(200)
      .optional()
      .describe(
        'instead of a saved baseline: a pool config (id or name) of this experiment that every other pool config is compared with, scenario by scenario (gate config A against config B inside one experiment)',
      ),
    metrics: GateMetricsParam,
    from: WindowSecond('first second'),
    to: WindowSecond('end (exclusive)'),
  })
  .superRefine((q, ctx) => {
    if (q.base !== undefined && q.baseline !== undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['base'],
        message:
          'give baseline (a saved baseline) or base (a pool config of this experiment), not both',
      });
    if ((q.from === undefined) !== (q.to === undefined))
      ctx.addIssue({
        code: 'custom',
        path: [q.from === undefined ? 'from' : 'to'],
        message: 'give from and to together',
      });
    else if (q.from !== undefined && q.to !== undefined && q.to <= q.from)
      ctx.addIssue({ code: 'custom', path: ['to'], message: `must be after from (${q.from})` });
  });

export const ComparisonSchema = z.object({
  experimentId: z.string(),
  baseline: z
    .string()
    .describe('baseline name, e.g. main; with `base`: the name of that pool config'),
  base: NullableRef.describe(
    'the pool config of this experiment every other one was compared with (the `base` parameter); null: compared with the saved baseline `baseline`',
  ),
  gatedOn: z
    .array(z.enum(TESTED_RUN_METRIC_KEYS as [TestedRunMetricKey, ...TestedRunMetricKey[]]))
    .describe(
      'the tested metrics compared: every tested metric, or the ones the `metrics` parameter chose; `outcome` rests on these alone. p-values are adjusted with Holm across the primary metrics (rps, p95Ms, p99Ms, errorRate by default; every chosen metric when `metrics` is given) and with Benjamini–Hochberg across the rest (each metric says `primary`)',
    ),
  window: SecondsWindowSchema.nullable().describe(
    'the elapsed seconds [from, to) of every run the comparison is over; null: whole runs',
  ),
  outcome: z
    .enum(GATE_OUTCOMES)
    .describe(
      'the one outcome rule (docs/outcomes.md), in this order: regression: a tested metric of some cell is worse than its baseline, a measured run failed a threshold, or the candidate could not take the load the baseline took (`loadNotTaken`); suspected-regression: no verdict of worse, but some estimate is worse beyond the practical floor while the evidence is not enough (more repeats would settle it); no-baseline: some cell has none of this name for its pool config; incomplete: some cell has fewer than 2 valid measured runs on a side (the least Mann–Whitney needs), or more than a third of its candidate runs crashed (failed, timed out, aborted) or are invalid (the load was not offered: more than 1 % of iterations dropped or below 95 % of the target rate; more than 1 % of requests lost as late samples), or more than a third of its baseline runs are invalid; the `incomplete` of each cell says which, naming the invalid runs; pass: none of these',
    ),
  cells: z.array(
    z.object({
      poolConfig: NullableRef,
      scenario: NullableRef,
      baseline: z
        .object({
          id: z.string(),
          experimentId: z.string().nullable(),
          runId: z.string().nullable(),
          poolConfig: NullableRef,
          runs: z.number().int(),
        })
        .nullable()
        .describe('null: no baseline of this name for the target and scenario'),
      candidateRuns: z
        .number()
        .int()
        .describe('valid measured runs of the candidate (invalid ones are in `invalidRuns`)'),
      crashedRuns: z
        .number()
        .int()
        .describe(
          'runs of the candidate that crashed (failed, timed out, aborted by the system); counted, never dropped',
        ),
      state: z
        .enum(['regression', 'suspected-regression', 'incomplete', 'pass'])
        .describe("this cell's part of the outcome"),
      incomplete: z
        .string()
        .nullable()
        .describe(
          'why the cell cannot be judged, naming the count (too few valid measured runs on a side for the test or for any primary metric to reach p < 0.05, or too many crashed or invalid, each invalid run named with its reason); null when it can. A regression or suspicion outranks it in `state`',
        ),
      loadNotTaken: z
        .string()
        .nullable()
        .describe(
          "why the cell is a regression although its candidate's runs could not be measured: more than a third of them did not offer the load (k6 dropped iterations or fell short of the rate, its VUs all waiting on the target) while the baseline's runs, with the same scenario, all did; null otherwise (docs/outcomes.md); added in v1",
        ),
      invalidRuns: z
        .array(
          InvalidRunSchema.extend({
            side: z.enum(['baseline', 'candidate']),
          }),
        )
        .describe(
          "measured runs left out of this cell's verdicts because their numbers do not describe the load asked for (docs/outcomes.md), with the side and the reasons; counted in `incomplete` when they make the cell incomplete; added in v1",
        ),
      regression: z.boolean(),
      failedThresholds: z
        .array(
          z.object({
            runId: z.string(),
            metric: z.string(),
            expr: z.string(),
            observed: z.number().nullable(),
          }),
        )
        .describe('every threshold a measured run of this cell failed, with the run'),
      metrics: z.array(
        z.object({
          key: z.string(),
          label: z.string(),
          unit: z.string(),
          direction: DirectionSchema,
          verdict: VerdictSchema,
          suspected: z
            .boolean()
            .describe(
              'a primary metric that is inconclusive, with its estimate worse beyond the practical floor and its one-sided p of a worse change, Holm-adjusted among the primaries, below 0.05: more repeats would likely settle it',
            ),
          primary: z
            .boolean()
            .describe(
              'a primary metric: p adjusted with Holm among the primary metrics; a worse verdict makes a regression. Otherwise adjusted with Benjamini–Hochberg among the rest and reported: a secondary metric decides nothing',
            ),
          baselineMedian: z.number().nullable(),
          candidateMedian: z.number().nullable(),
          changePercent: ChangeEstimateSchema.nullable().describe(
            'Hodges–Lehmann change with its interval, in percent',
          ),
          confidence: z
            .number()
            .describe('the level the interval was asked for: 0.95 (since the first v1 release)'),
          achievedConfidence: z
            .number()
            .describe(
              "the coverage the interval really has: below 0.95 when there are too few runs for a 95 % interval (0.9 with 3 vs 3 runs); added in v1, 'confidence' keeps its meaning",
            ),
          pValue: z.number().nullable(),
          insufficient: z.boolean(),
          lowRequests: z.boolean(),
          noiseFloor: z
            .object({ unit: z.enum(['percent', 'absolute']), value: z.number() })
            .nullable()
            .describe(
              "the practical floor when it is the noise floor an A/A calibration measured for this target × scenario (larger than the metric's default, at most 4 times it): percent, or the metric's unit (docs/metrics.md); added in v1",
            ),
          noiseWarning: z
            .string()
            .nullable()
            .optional()
            .describe(
              "the calibration's run-to-run spread is so large that these run counts would miss a doubling ('p99 noise on this machine is ±48 % …: use longer runs or more repeats'); a primary metric's makes the cell incomplete; added in v1",
            ),
          reason: z.string(),
        }),
      ),
      scriptMetrics: z
        .array(ScriptMetricComparisonSchema)
        .describe(
          "the script's own k6 metrics (and its groups' durations) that the baseline and the candidate both recorded, of the same kind, by their statistics: medians over whole runs and the difference, as the compare view's Script metrics; descriptive, never part of a verdict or the outcome, and a window does not apply; empty without any; added in v1",
        ),
    }),
  ),
});

/** An experiment's cells compared with a baseline or with one of its pool configs. */
export const COMPARISON_OPERATIONS: Operation[] = [
  op({
    method: 'GET',
    path: '/experiments/{id}/compare',
    operationId: 'compareExperiment',
    scope: 'runs:read',
    status: 200,
    summary:
      'Compare every cell with a named baseline, or with one pool config of the same experiment',
    description:
      "Verdicts per metric from @poolbench/stats (Mann-Whitney U, Hodges-Lehmann interval, 5 % practical floor, p-values adjusted with Holm across the primary metrics (rps, p95Ms, p99Ms, errorRate, or every metric `metrics` chooses) and with Benjamini-Hochberg across the rest). With fewer than 2 measured runs on a side (the least Mann–Whitney needs), or more than a third of the candidate's runs crashed, a cell is `incomplete` with the reason, never `pass`; with the 4 default primary metrics, 5 runs per side can make a one-metric regression `worse` (smallest p 0.008, times 4). `metrics` limits the comparison to the metrics you gate on; `gatedOn` in the answer lists them. `from`/`to` compare only those seconds of every run (each run's metrics are recomputed from its stored seconds in the window); `window` in the answer says which. With `base=<pool config>` every other pool config is compared with that one inside this experiment (no saved baseline needed); `base` in the answer names it.",
    query: CompareQuery,
    queryRules: {
      not: { required: ['baseline', 'base'] },
      dependentRequired: { from: ['to'], to: ['from'] },
      description:
        'baseline or base, not both; from and to together, to after from (the last is checked by the server only)',
    },
    response: ComparisonSchema,
    responseName: 'Comparison',
    handle: ({ deps, principal, params, query }) => {
      const window =
        query.from !== undefined && query.to !== undefined
          ? { from: query.from, to: query.to }
          : null;
      return gateExperiment(
        deps.db,
        principal.teamId,
        params.id!,
        query.base !== undefined ? { base: query.base } : { baseline: query.baseline ?? 'main' },
        { metrics: query.metrics, window },
      );
    },
  }),
];
