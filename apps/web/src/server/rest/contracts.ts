import { z } from 'zod';
import { ScenarioSchema } from '@poolbench/scenarios';
import { DEFAULT_RUN_ORDER, RunOrderSchema, RunStatusSchema } from '@poolbench/contracts';
import { GATE_OUTCOMES, INSIGHT_CODES } from '@poolbench/stats';
import { TESTED_RUN_METRIC_KEYS, type TestedRunMetricKey } from '@poolbench/contracts';
import { IdSchema } from '~/lib/schemas/ids';
import { RunProgressSchema } from '~/server/api/routers/experiment.types';
import { HypothesisFields } from '~/server/api/routers/hypothesis.types';
import { hasUrlCredentials } from '@poolbench/contracts/net';
import { AdvisorSpecSchema, AdvisorStateSchema } from '@poolbench/db';
import {
  HYPOTHESIS_BAND_UNITS,
  HYPOTHESIS_EXPECTS,
  HYPOTHESIS_METRIC_KEYS,
  MAX_HYPOTHESES,
} from '@poolbench/scenarios';
import {
  ChangeEstimateSchema,
  DirectionSchema,
  InvalidRunSchema,
  SecondsWindowSchema,
  VerdictSchema,
} from '~/server/api/routers/compare.types';

/** What makes a run's numbers suspect, with a fix (`runInsights` of @poolbench/stats). */
export const RunInsightSchema = z.object({
  code: z.enum(INSIGHT_CODES),
  severity: z.enum(['critical', 'warning', 'info']),
  message: z.string(),
  fix: z.string(),
});

/**
 * Request and response contracts of the REST API. The OpenAPI document is generated from these
 * same schemas (z.toJSONSchema), and the scenario is the app's own ScenarioSchema, so the
 * document cannot drift from what the server accepts. Parts that are the same as a tRPC
 * procedure's answer (run progress, verdicts, change estimates, windows) are its schemas from
 * `~/server/api/routers/*.types.ts`.
 */

export const ProblemSchema = z.object({
  type: z.string().describe('URI naming the problem type: https://poolbench.dev/problems/<code>'),
  title: z.string(),
  status: z.number().int(),
  detail: z.string(),
  code: z
    .string()
    .describe('stable machine-readable code, e.g. token_revoked, scope_missing, validation_failed'),
  problems: z
    .array(z.object({ path: z.string(), message: z.string() }))
    .optional()
    .describe('one entry per invalid field'),
});

/**
 * For JSON Schema: a string that is not blank once trimmed (the server trims, then needs a
 * character) and has no control characters. ASCII and Unicode spaces, and the BOM, count as
 * blank, as String.prototype.trim says.
 */
const NOT_BLANK =
  '^[^\\u0000-\\u001f\\u007f]*[^\\s\\ufeff\\u0000-\\u001f\\u007f][^\\u0000-\\u001f\\u007f]*$';
/**
 * The server side of NOT_BLANK's "no control characters" (trim and min(1) are the rest): a NUL
 * would otherwise reach Postgres, which cannot store it in text, and fail as a server error.
 */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;
const noControlCharacters = (s: string) => !CONTROL.test(s);
const CONTROL_MESSAGE = 'must not contain control characters';
/** A name or id as the API reads it: trimmed, not blank, at most `max` characters, no control characters. */
export const restName = (max: number, empty = 'is required') =>
  z
    .string()
    .trim()
    .min(1, empty)
    .max(max, `must be at most ${max} characters`)
    .refine(noControlCharacters, CONTROL_MESSAGE)
    .meta({ pattern: NOT_BLANK });
const IdOrName = restName(120).describe('id or exact name');
const LoadGeneratorsSchema = z
  .number()
  .int('must be a whole number')
  .min(1, 'must be at least 1')
  .max(16, 'must be at most 16')
  .describe(
    'workers (load generators) each run is split across with k6 execution segments; merged exactly',
  );
const HypothesisCellRef = z.strictObject({
  poolConfig: IdOrName.describe('a pool config of the experiment, by id or exact name'),
  scenario: IdOrName.optional().describe(
    'a scenario of the experiment, by id or exact name; may be left out when it has one',
  ),
});
export const RestHypothesisSchema = z
  .strictObject({
    base: HypothesisCellRef,
    candidate: HypothesisCellRef,
    metric: z.enum(HYPOTHESIS_METRIC_KEYS, {
      error: `must be one of ${HYPOTHESIS_METRIC_KEYS.join(', ')}`,
    }),
    expect: z
      .enum(HYPOTHESIS_EXPECTS, { error: 'must be better, worse or equivalent' })
      .describe('candidate against base'),
    band: z
      .number()
      .min(0, 'must be at least 0')
      .max(1000, 'must be at most 1000')
      .describe('better/worse by at least this much, or equivalent within ±this'),
    bandUnit: z
      .enum(HYPOTHESIS_BAND_UNITS)
      .optional()
      .describe(
        "percent of the base (default) or absolute in the metric's unit; error rates are percentage points",
      ),
    window: z
      .object({ from: z.number().int().min(0), to: z.number().int().min(1) })
      .nullish()
      .describe("elapsed seconds [from, to) of every run, as the compare view's window"),
    claim: z.string().trim().max(500).optional().describe('the claim in your own words'),
  })
  .describe(
    'a claim stated before the runs start and decided when the experiment ends (docs/hypotheses.md)',
  );
export type RestHypothesis = z.output<typeof RestHypothesisSchema>;
const RestHypothesesSchema = z
  .array(RestHypothesisSchema)
  .max(MAX_HYPOTHESES, `at most ${MAX_HYPOTHESES} hypotheses per experiment`);

/** Where a CI-started experiment came from; the CLI fills these from the CI's own variables. */
const CiOriginFields = {
  commit: z
    .string()
    .trim()
    .min(1, 'is empty')
    .max(64, 'must be at most 64 characters')
    .regex(/^[A-Za-z0-9._/-]+$/, 'must be a commit id or ref (letters, digits, . _ / -)')
    .optional()
    .describe('the commit the experiment tests, e.g. a git SHA'),
  branch: restName(255, 'is empty')
    .optional()
    .describe('the branch (or merge request ref) it came from'),
  buildUrl: z
    .string()
    .trim()
    .max(2048, 'must be at most 2048 characters')
    .url('must be a URL')
    .refine((u) => /^https?:\/\//i.test(u), 'must start with http:// or https://')
    .refine((u) => !hasUrlCredentials(u), 'must not contain credentials (user:password@)')
    .optional()
    .describe('the CI job that started it (linked from the experiment list)'),
};

const RepeatsSchema = z
  .number()
  .int('must be a whole number')
  .min(1, 'must be at least 1')
  .max(50, 'must be at most 50');

export const StartSavedSchema = z.strictObject({
  kind: z.literal('saved'),
  experiment: IdOrName.describe(
    'id or exact name of a saved experiment; its definition starts again as a new experiment',
  ),
  name: restName(120).optional().describe("name of the new experiment (default: the saved one's)"),
  repeats: RepeatsSchema.optional().describe('override the saved number of repeats'),
  loadGenerators: LoadGeneratorsSchema.optional().describe(
    'override the saved number of load generators per run',
  ),
  hypotheses: RestHypothesesSchema.optional().describe(
    "override the saved experiment's hypotheses (default: the same claims)",
  ),
  ...CiOriginFields,
});

export const UntilDecidedSchema = z
  .strictObject({
    maxRepeats: RepeatsSchema.describe('at most this many repeats per side'),
    metrics: z
      .array(z.enum(TESTED_RUN_METRIC_KEYS))
      .min(1)
      .optional()
      .describe(
        'the metrics decided on (default p95Ms, rps, errorRate); fewer decide sooner. Not with hypotheses: they say what is decided',
      ),
  })
  .describe(
    'with hypotheses: after each round the sequential rule (docs/metrics.md) decides each hypothesis, or one more round runs, up to maxRepeats; without: two pool configs, one scenario, the second config decided against the first',
  );

export const StartInlineSchema = z
  .strictObject({
    kind: z.literal('inline'),
    name: restName(120).default('CI run'),
    target: IdOrName.describe('id or exact name of a target of the team'),
    poolConfigs: z
      .array(IdOrName)
      .min(1, 'choose at least one pool config')
      .max(20)
      .describe('ids or names of pool configs of that target'),
    scenarioId: IdSchema.optional().describe('a saved scenario; or give `scenario`'),
    scenario: ScenarioSchema.optional().describe(
      'template and parameters; saved as a scenario row, reused when the same scenario was sent before',
    ),
    scenarioName: restName(120)
      .optional()
      .describe(
        'name of the scenario row for an inline scenario (default: made from its content, e.g. "Constant arrival rate 40 req/s · GET /work · 3 s · a51a6d")',
      ),
    repeats: RepeatsSchema.default(5).describe(
      'default 5: with the 4 default primary metrics fewer than 5 per side can never give a verdict (the cell is incomplete)',
    ),
    order: RunOrderSchema.default(DEFAULT_RUN_ORDER).describe(
      'how the pool configs take turns within each repeat (docs/metrics.md, "Run order"): counterbalanced (default) turns their order every repeat (A B, B A, …) so each runs first equally often; interleaved keeps it (A B, A B, …); blocked runs each config\'s repeats together (A A, B B)',
    ),
    loadGenerators: LoadGeneratorsSchema.default(1),
    hypotheses: RestHypothesesSchema.optional(),
    untilDecided: UntilDecidedSchema.optional(),
    ...CiOriginFields,
  })
  .refine((v) => (v.scenarioId === undefined) !== (v.scenario === undefined), {
    message: 'give exactly one of scenarioId and scenario',
    path: ['scenario'],
  })
  .meta({ oneOf: [{ required: ['scenarioId'] }, { required: ['scenario'] }] });

export const StartExperimentSchema = z.discriminatedUnion('kind', [
  StartSavedSchema,
  StartInlineSchema,
]);
export type StartExperiment = z.output<typeof StartExperimentSchema>;

export const StartAdvisorSchema = z
  .strictObject({
    name: restName(120).optional(),
    target: IdOrName.describe('id or exact name of a target of the team'),
    poolConfig: IdOrName.describe(
      "id or name of the target's pool config whose max pool size is searched; everything else of it stays",
    ),
    scenarioId: IdSchema.optional().describe('a saved scenario; or give `scenario`'),
    scenario: ScenarioSchema.optional().describe(
      'template and parameters (constant-arrival-rate for an SLO); saved as a scenario row',
    ),
    scenarioName: restName(120).optional(),
    knob: z.enum(['maxConns']).default('maxConns').describe('the pool-config parameter searched'),
    min: z.number().int('must be a whole number').min(1).max(1000).describe('smallest setting'),
    max: z.number().int('must be a whole number').min(2).max(1000).describe('largest setting'),
    objective: z
      .discriminatedUnion('kind', [
        z.strictObject({
          kind: z.literal('slo'),
          p99Ms: z.number().positive().max(600_000).describe('p99 latency limit, ms'),
          errorRate: z
            .number()
            .min(0)
            .max(1)
            .describe('error-rate limit as a fraction (0.001 = 0.1 %)'),
        }),
        z.strictObject({ kind: z.literal('max-throughput') }),
      ])
      .describe(
        "an SLO at the scenario's arrival rate (recommends the smallest setting that meets it), or the highest throughput (the smallest setting not below the best)",
      ),
    budgetRuns: z
      .number()
      .int('must be a whole number')
      .min(4)
      .max(200)
      .default(24)
      .describe('the most runs the search may spend'),
    repeatsPerSetting: z
      .number()
      .int('must be a whole number')
      .min(2)
      .max(10)
      .default(3)
      .describe('runs per setting in each step'),
    ...CiOriginFields,
  })
  .refine((v) => (v.scenarioId === undefined) !== (v.scenario === undefined), {
    message: 'give exactly one of scenarioId and scenario',
    path: ['scenario'],
  })
  .refine((v) => v.max > v.min, { message: 'must be greater than min', path: ['max'] })
  .meta({ oneOf: [{ required: ['scenarioId'] }, { required: ['scenario'] }] });
export type StartAdvisor = z.output<typeof StartAdvisorSchema>;

const Ref = z.object({ id: z.string(), name: z.string() });
const NullableRef = Ref.nullable();
const Iso = z.string().describe('UTC timestamp, ISO 8601');
const PositionInRoundSchema = z
  .number()
  .int()
  .describe(
    "the run's place in its round, 0 = first: among its experiment's runs of the same scenario and repeat, by sequence; with two configs counterbalanced, each is first in half the repeats",
  );

export const ExperimentSchema = z.object({
  id: z.string(),
  name: z.string(),
  status: z.enum(['queued', 'running', 'completed', 'failed', 'canceled']),
  finished: z.boolean().describe('every run reached a terminal status'),
  repeats: z.number().int(),
  order: RunOrderSchema.describe(
    'how the pool configs take turns within each repeat (docs/metrics.md, "Run order"); experiments launched before counterbalanced existed are interleaved',
  ),
  createdAt: Iso,
  finishedAt: Iso.nullable(),
  target: Ref,
  poolConfigs: z.array(Ref),
  scenarios: z.array(Ref),
  progress: RunProgressSchema,
  runs: z.array(
    z.object({
      id: z.string(),
      status: RunStatusSchema,
      poolConfigId: z.string().nullable(),
      scenarioId: z.string().nullable(),
      repeatIndex: z.number().int(),
      sequence: z.number().int(),
      positionInRound: PositionInRoundSchema,
      startedAt: Iso.nullable(),
      finishedAt: Iso.nullable(),
      errorMessage: z.string().nullable(),
      insights: z
        .array(RunInsightSchema)
        .describe(
          "what makes the run's numbers suspect, from its stored data (GET /runs/{id} adds the per-second checks)",
        ),
    }),
  ),
  sequential: z
    .object({
      maxRepeats: z.number().int(),
      metrics: z.array(z.string()),
      state: z
        .object({
          pairs: z.number().int(),
          maxPairs: z.number().int(),
          stop: z.boolean(),
          decidedAt: z.string().nullable(),
          stoppedBecause: z
            .string()
            .optional()
            .describe("the rule stopped because the team's policy or limits refused a round"),
          waitingBecause: z
            .string()
            .optional()
            .describe('the next round waits for a limit that lifts by itself (a full queue)'),
          metrics: z.array(
            z.object({
              name: z.string(),
              decision: z.string(),
              reason: z.string(),
              change: z
                .object({ estimate: z.number(), lower: z.number(), upper: z.number() })
                .nullable()
                .optional(),
              changeUnit: z.string().optional(),
            }),
          ),
        })
        .nullable()
        .describe("the sequential rule's last answer (null before the first look)"),
    })
    .nullable()
    .describe('an "until decided" experiment: its budget, metrics and decisions; null otherwise'),
  advisor: z
    .object({ spec: AdvisorSpecSchema, state: AdvisorStateSchema.nullable() })
    .nullable()
    .describe(
      'a pool-size advisor (docs/advisor.md): what it was asked and its last answer (recommended setting, per-setting verdicts, model fits); null otherwise',
    ),
  commit: z.string().nullable(),
  branch: z.string().nullable(),
  buildUrl: z.string().nullable(),
  hypotheses: z
    .array(z.object({ ...HypothesisFields, decidedAt: Iso.nullable() }))
    .describe('pre-registered claims and their decisions (pending until the experiment ends)'),
  webUrl: z.string(),
  notice: z
    .string()
    .optional()
    .describe(
      'set on start when the run queue was unavailable: the runs are stored as queued and start when it is back',
    ),
  warnings: z
    .array(
      z.object({
        code: z
          .enum(['no_worker_online'])
          .describe(
            'no_worker_online: no worker has a recent heartbeat, so nothing takes the runs',
          ),
        message: z
          .string()
          .describe('what it means and what to do, e.g. the command that starts a worker'),
      }),
    )
    .optional()
    .describe('set on start when something keeps the runs from starting; the launch stands'),
});

const LatencySchema = z.looseObject({
  p50: z.number(),
  p95: z.number(),
  p99: z.number(),
  max: z.number(),
});
const CheckTotalsSchema = z.looseObject({ passes: z.number(), fails: z.number() });
export const RunSummarySchema = z
  .looseObject({
    requests: z.number(),
    failed: z.number(),
    errorRate: z.number().nullable(),
    rps: z.number().nullable(),
    durationMs: z.number(),
    latency: LatencySchema.nullable(),
    checks: CheckTotalsSchema.extend({
      items: z.array(
        CheckTotalsSchema.extend({
          name: z.string(),
          group: z.string().describe("k6's group path: '' for the root, '::outer::inner' nested"),
        }),
      ),
      overflow: CheckTotalsSchema.optional().describe(
        'results of check names past the 64 kept per run, counted together',
      ),
    })
      .optional()
      .describe(
        'k6 check() results of the load (setup() and teardown() left out), per check and in all (passes / (passes + fails) is what a checks threshold reads); absent when the run had no check; added in v1',
      ),
    subMetrics: z
      .array(
        z.looseObject({
          name: z.string().describe('metric{tag:value,…}'),
          metric: z.string(),
          tags: z.record(z.string(), z.string()),
          type: z.string().describe('trend, rate, counter, gauge, or none without samples'),
          count: z.number(),
          time: z
            .boolean()
            .optional()
            .describe("a trend's: whether it holds times (ms), as a custom metric's time"),
        }),
      )
      .optional()
      .describe(
        'tagged series the thresholds name and the other values of their tags, over the load, at most 50 (subMetricsDropped: samples of further series); absent without a sub-metric threshold; added in v1',
      ),
    custom: z
      .record(
        z.string(),
        z.looseObject({
          type: z.string().describe('trend, counter, rate or gauge'),
          count: z.number().describe("samples (a trend's: those in its statistics)"),
          time: z
            .boolean()
            .optional()
            .describe(
              "a trend's: true when it holds times (k6's new Trend(name, true), group_duration), its statistics in ms; false when it holds plain numbers, its statistics in the script's own unit; absent on runs stored before it was kept (those read as times)",
            ),
          negative: z
            .number()
            .optional()
            .describe(
              "a trend's samples below 0, which its histogram cannot hold: in neither its statistics nor count; absent when none",
            ),
          aboveTop: z
            .number()
            .optional()
            .describe(
              "a trend's samples above its histogram's top (1 h of ms; 3,600,000 of a plain number): held at the top and in count, so a statistic at the top means at least the top; absent when none",
            ),
        }),
      )
      .optional()
      .describe(
        "the script's own k6 metrics over the load by name: a trend's statistics (ms for a trend of times, see time), a counter's sum, a rate, a gauge's value; at most 16; absent without any; added in v1",
      ),
  })
  .describe(
    'Run.summary from merged per-second histograms (times in ms); more fields than listed may be present',
  );

export const ThresholdResultSchema = z.object({
  metric: z.string(),
  expr: z.string(),
  observed: z.number().nullable(),
  pass: z.boolean(),
});

export const RunSchema = z.object({
  id: z.string(),
  experimentId: z.string(),
  status: RunStatusSchema,
  poolConfig: NullableRef,
  scenario: NullableRef,
  repeatIndex: z.number().int(),
  positionInRound: PositionInRoundSchema,
  queuedAt: Iso,
  startedAt: Iso.nullable(),
  finishedAt: Iso.nullable(),
  errorCode: z.string().nullable(),
  errorMessage: z.string().nullable(),
  summary: RunSummarySchema.nullable(),
  thresholdResults: z.array(ThresholdResultSchema).nullable(),
  loadGenerators: z.number().int().describe('workers the run was split across; 1 = one k6'),
  segments: z
    .array(
      z.object({
        index: z.number().int().describe('k6 execution segment index/loadGenerators'),
        workerId: z.string().nullable(),
        status: z.string(),
        requests: z.number().int(),
        startSkewMs: z
          .number()
          .nullable()
          .describe("this generator's load start minus the earliest generator's"),
        cpuMaxPercent: z
          .number()
          .nullable()
          .describe(
            "the generator's own k6 CPU, % of one core (> 80: the numbers may be the generator's)",
          ),
        rssMaxBytes: z.number().nullable(),
        cpuAvgPercent: z
          .number()
          .nullable()
          .describe("the generator's own k6 CPU over its load, % of one core"),
        loadMs: z.number().nullable().describe("the generator's load phase, ms"),
        errorMessage: z
          .string()
          .nullable()
          .describe('why the generator ended other than succeeded; null when it succeeded'),
        lateSamples: z
          .number()
          .int()
          .nullable()
          .describe(
            "samples that reached this generator's k6 output after their second was written; null when its output did not end cleanly or it has not ended",
          ),
        outsideCpuPercent: z
          .number()
          .nullable()
          .describe(
            'CPU used beside this generator while its k6 ran, % of one core (other work on its machine); null until measured',
          ),
      }),
    )
    .describe(
      'one entry per load generator of a distributed run; empty for a run on one generator',
    ),
  insights: z
    .array(RunInsightSchema)
    .describe(
      "what makes the run's numbers suspect (critical: the run is invalid), most severe first; empty when nothing does",
    ),
  validity: z
    .object({
      valid: z.boolean(),
      reasons: InvalidRunSchema.shape.reasons,
    })
    .nullable()
    .describe(
      'whether the numbers describe the load asked for (docs/outcomes.md): an invalid run (more than 1 % of its iterations dropped, below 95 % of its arrival rate, or more than 1 % of its requests lost as late samples) is left out of every verdict, with these reasons; null for a run without a summary; added in v1',
    ),
  webUrl: z.string(),
});

const SCRIPT_METRIC_TYPES = ['trend', 'counter', 'rate', 'gauge'] as const;

/** One statistic of one of the script's own metrics, a cell's candidate beside its baseline. */
const ScriptMetricComparisonSchema = z.object({
  name: z.string().describe("the metric's name in the script, or group_duration{group:::login}"),
  type: z.enum(SCRIPT_METRIC_TYPES),
  stat: z
    .enum(['p50', 'p95', 'p99', 'rate', 'total', 'ratio', 'last', 'max'])
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

/** One of the script's own metrics over a cell's measured runs. */
const ScriptMetricSummarySchema = z.object({
  name: z.string().describe("the metric's name in the script, or group_duration{group:::login}"),
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

const MetricValueSchema = z.object({
  key: z.string(),
  label: z.string(),
  unit: z.string(),
  n: z.number().int(),
  median: z.number().nullable(),
  min: z.number().nullable(),
  max: z.number().nullable(),
});

export const ExperimentSummarySchema = z.object({
  experimentId: z.string(),
  status: z.string(),
  finished: z.boolean(),
  cells: z.array(
    z.object({
      poolConfig: NullableRef,
      scenario: NullableRef,
      runs: z.number().int(),
      succeeded: z
        .number()
        .int()
        .describe(
          'runs that measured: succeeded, or ran to their end with a failed threshold (status thresholds_failed)',
        ),
      metrics: z
        .array(MetricValueSchema)
        .describe('one value per measured run, summarized across repeats'),
      scriptMetrics: z
        .array(ScriptMetricSummarySchema)
        .describe(
          "the script's own k6 metrics (Trend, Counter, Rate, Gauge) and its groups' durations over the measured runs, in the order first seen; empty without any; added in v1",
        ),
      thresholds: z.object({
        passed: z.number().int(),
        failed: z.number().int(),
        failures: z.array(ThresholdResultSchema.extend({ runId: z.string() })),
      }),
    }),
  ),
  thresholdsFailed: z.boolean(),
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

export const SaveBaselineSchema = z.strictObject({
  name: z
    .string()
    .trim()
    .min(1)
    .max(64)
    .regex(/^[A-Za-z0-9._/-]+$/, 'letters, digits, . _ / - only')
    .default('main'),
  experimentId: IdSchema,
  poolConfig: IdOrName.optional().describe(
    'save only this pool config of the experiment; without it every config becomes its own baseline',
  ),
});

const BaselineRow = z.object({
  id: z.string(),
  name: z.string(),
  target: Ref,
  scenario: Ref,
  experimentId: z.string().nullable(),
  poolConfig: NullableRef,
});

export const BaselinesSchema = z.object({ baselines: z.array(BaselineRow) });

/** A saved baseline as the list and the removal show it. */
const SavedBaseline = BaselineRow.extend({
  runId: z
    .string()
    .nullable()
    .describe('a baseline saved from one run in the web app names it; null for an experiment'),
  updatedAt: Iso.describe('when the baseline was last saved or moved'),
});

export const BaselineListQuery = z.object({
  target: IdOrName.optional().describe('only the baselines of this target (id or exact name)'),
  scenario: IdOrName.optional().describe('only the baselines of this scenario (id or exact name)'),
  name: z
    .string()
    .min(1)
    .max(64)
    // the characters a baseline's name may have, wherever it was saved
    .regex(/^[\w./-]+$/, 'letters, digits, - _ . / only')
    .optional()
    .describe('only the baselines of this name, e.g. main'),
});

export const BaselineListSchema = z.object({
  baselines: z.array(SavedBaseline).describe('newest first'),
});

export const BaselineRemovedSchema = z.object({
  removed: SavedBaseline.describe('the baseline that was removed'),
});

export const ExtendExperimentSchema = z.strictObject({
  addRepeats: z
    .number({ error: 'is required (a whole number)' })
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .max(49, 'must be at most 49')
    .describe('repeats of every cell to add'),
});

export const CreateShareSchema = z.strictObject({
  expiresInDays: z.number().int().min(1).max(365).optional(),
});

export const ShareLinkSchema = z.object({ url: z.string(), expiresAt: Iso.nullable() });

export const ExperimentCancelSchema = z.object({
  canceled: z.number().int().describe('queued runs canceled at once'),
  cancelRequested: z
    .number()
    .int()
    .describe('runs already preparing or running: flagged, their worker stops them within seconds'),
  alreadyFinished: z.number().int().describe('runs that had already ended, left as they were'),
});
