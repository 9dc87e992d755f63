import { z } from 'zod';
import type { Prisma } from '../generated/prisma/client';
import {
  LabEnvironmentSchema,
  TESTED_RUN_METRIC_KEYS,
  type RunSummary,
} from '@poolbench/contracts';

/**
 * One zod schema per JSON column. Objects are loose (unknown keys kept): a field added by a newer
 * worker must survive a read by an older web app. Snapshot fields are optional because the
 * readers have always tolerated their absence (older rows, fixtures).
 */
const num = z.number();
const numOrNull = z.number().nullable();

const HdrStatsSchema = z.looseObject({
  count: num,
  min: num,
  max: num,
  mean: num,
  p50: num,
  p90: num,
  p95: num,
  p99: num,
  p999: num,
});
const ResourceSummarySchema = z.looseObject({
  cpuMeanPercent: numOrNull,
  cpuPeakPercent: numOrNull,
  rssMeanBytes: numOrNull,
  rssPeakBytes: numOrNull,
  poolWaitMsMean: numOrNull,
  poolWaitMsPeak: numOrNull,
  poolInUsePeak: numOrNull,
  poolAcquireTimeouts: numOrNull,
  dbConnectionsPeak: numOrNull,
  dbNewConnsTotal: numOrNull,
  dbTooManyClients: numOrNull,
});

const CheckCountsSchema = z.looseObject({ passes: num, fails: num });
const RunCheckSchema = z.looseObject({
  name: z.string(),
  group: z.string(),
  passes: num,
  fails: num,
});

/** RunSecond.checks: k6 checks of that second (`SecondChecks`); null when it had none. */
export const SecondChecksSchema = z.looseObject({
  items: z.array(RunCheckSchema),
  overflow: CheckCountsSchema.optional(),
});

/** RunSecond.custom (and the run summary's): a script's own k6 metrics by name (`CustomMetrics`). */
export const CustomMetricsSchema = z.record(
  z.string(),
  z.looseObject({
    type: z.enum(['trend', 'counter', 'rate', 'gauge']),
    count: num,
    /** a trend's: times (ms) or plain numbers; absent on rows stored before it (read as times) */
    time: z.boolean().optional(),
    /** a trend's samples below 0, left out of its histogram and count */
    negative: num.optional(),
    /** a trend's samples above its histogram's top, held at the top and in count */
    aboveTop: num.optional(),
    trend: HdrStatsSchema.nullable().optional(),
    histogram: z.string().optional(),
    sum: num.optional(),
    nonZero: num.optional(),
    rate: numOrNull.optional(),
    value: num.optional(),
    max: num.optional(),
  }),
);

/** How k6's samples reached the output: those after their second was written are in no second. */
export const DeliverySchema = z.looseObject({
  lateSamples: num,
  lateRequests: num,
  maxLagMs: numOrNull,
  graceMs: numOrNull,
});

/** Run.summary: parses to the contracts' `RunSummary` (the annotation is checked by the compiler). */
export const RunSummarySchema: z.ZodType<RunSummary> = z.looseObject({
  requests: num,
  failed: num,
  checkFailed: num.optional(),
  errorRate: numOrNull,
  rps: numOrNull,
  durationMs: num,
  seconds: num,
  bytesSent: num,
  bytesReceived: num,
  iterations: num,
  droppedIterations: num,
  vusMax: numOrNull,
  statusCounts: z.record(z.string(), num),
  latency: HdrStatsSchema.nullable(),
  waiting: HdrStatsSchema.nullable(),
  connecting: HdrStatsSchema.nullable(),
  tlsHandshaking: HdrStatsSchema.nullable(),
  blocked: HdrStatsSchema.nullable(),
  iteration: HdrStatsSchema.nullable(),
  resources: ResourceSummarySchema,
  loadStartMs: numOrNull.optional(),
  loadEndMs: numOrNull.optional(),
  delivery: DeliverySchema.nullable().optional(),
  steps: z
    .array(
      z.looseObject({
        name: z.string(),
        requests: num,
        failed: num,
        latency: HdrStatsSchema.nullable(),
      }),
    )
    .optional(),
  stepsOverflow: num.optional(),
  checks: SecondChecksSchema.extend({ passes: num, fails: num }).optional(),
  subMetrics: z
    .array(
      z.looseObject({
        name: z.string(),
        metric: z.string(),
        tags: z.record(z.string(), z.string()),
        type: z.enum(['trend', 'rate', 'counter', 'gauge', 'none']),
        count: num,
        time: z.boolean().optional(),
        negative: num.optional(),
        aboveTop: num.optional(),
        trend: HdrStatsSchema.nullable().optional(),
        rate: numOrNull.optional(),
        sum: num.optional(),
        value: num.optional(),
      }),
    )
    .optional(),
  subMetricsDropped: num.optional(),
  custom: CustomMetricsSchema.optional(),
  customDropped: num.optional(),
});

/** Run.thresholdResults (`evaluateThresholds`). */
export const ThresholdResultsSchema = z.array(
  z.looseObject({ metric: z.string(), expr: z.string(), observed: numOrNull, pass: z.boolean() }),
);

/**
 * What else used a load generator's machine while the run ran (apps/worker/src/runs/disturbance.ts);
 * a distributed run stores each generator's on its segment and its worst in the run's environment.
 */
export const DisturbanceSchema = z.looseObject({
  outsideCpuPercent: num,
  machineCpuPercent: num,
  stealPercent: num,
  cores: num,
  loadAvg1mAtEnd: num,
  seconds: num,
  /** the run's other load generators on the same machine, whose CPU counted as the run's own */
  sharedWith: num.optional(),
});
export const DisturbanceBeforeStartSchema = z.looseObject({ outsideCpuPercent: num, seconds: num });
export type DisturbanceRecord = z.output<typeof DisturbanceSchema>;
export type DisturbanceBeforeStartRecord = z.output<typeof DisturbanceBeforeStartSchema>;

/** Run.environment: what a reader needs to judge whether two runs are comparable (worker's fingerprint). */
export const RunEnvironmentSchema = z.looseObject({
  poolbenchVersion: z.string().optional(),
  k6Version: z.string().nullable().optional(),
  labTargetVersion: z.string().nullable().optional(),
  nodeVersion: z.string().optional(),
  workerId: z.string().optional(),
  host: z.string().optional(),
  kernel: z.string().optional(),
  cpuModel: z.string().optional(),
  cpuCount: num.optional(),
  memoryBytes: num.optional(),
  loadAvg1mAtStart: num.optional(),
  startedAt: z.string().optional(),
  network: z.unknown().optional(),
  /** what else used the machine's CPU during the run (apps/worker/src/runs/disturbance.ts) */
  disturbance: DisturbanceSchema.optional(),
  /** CPU used outside the run while it was prepared, just before its load started */
  disturbanceBeforeStart: DisturbanceBeforeStartSchema.optional(),
  /** the CPUs k6 and the target got (apps/worker/src/runs/cpu-isolation.ts), or why not */
  cpuIsolation: z
    .looseObject({
      mode: z.enum(['pinned', 'off', 'unavailable']),
      generatorCpus: z.string().optional(),
      targetCpus: z.string().optional(),
      database: z.string().optional(),
      reason: z.string().optional(),
    })
    .optional(),
  /** managed runs: the versions of what served the load (runtime, nginx, database server) */
  components: z
    .looseObject({
      labTarget: z.string().optional(),
      runtime: z.string().optional(),
      database: z.string().optional(),
      nginx: z.string().optional(),
    })
    .optional(),
});

/** PoolConfig.params and the params of a pool config snapshot: numbers by parameter name. */
export const PoolParamsSchema = z.record(z.string(), z.number());

/** Run.poolConfigSnapshot: the pool config as it was at launch. */
export const PoolConfigSnapshotSchema = z.looseObject({
  id: z.string().optional(),
  name: z.string().optional(),
  strategy: z.string().optional(),
  params: PoolParamsSchema.optional(),
  instanceCount: num.optional(),
  /** the pool config's overrides of the managed target's environment (absent on older runs) */
  environment: LabEnvironmentSchema.nullable().optional(),
});

/** PoolConfig.environment: overrides of the managed target's environment (SQL NULL when none). */
export const PoolEnvironmentColumnSchema = LabEnvironmentSchema;

/** Scenario.params: the scenario without its template id and thresholds (see scenario-row.ts). */
export const ScenarioParamsSchema = z.record(z.string(), z.unknown());
/** Scenario.thresholds, as stored (validated with the scenario by ScenarioSchema at save). */
export const ScenarioThresholdsSchema = z.array(
  z.looseObject({ metric: z.string(), expr: z.string() }),
);

/** Run.scenarioSnapshot: the scenario row as it was at launch. */
export const ScenarioSnapshotSchema = z.looseObject({
  id: z.string().optional(),
  name: z.string().optional(),
  templateId: z.string().optional(),
  params: ScenarioParamsSchema.optional(),
  thresholds: ScenarioThresholdsSchema.optional(),
});

export const LabSetupColumnSchema = z.object({
  rows: num,
  fields: num,
  roles: num,
  permissions: num,
  shards: num,
});

/** Target.managed: which program a managed target runs and its data-set flags. */
export const TargetManagedSchema = z.looseObject({
  program: z.string(),
  setup: LabSetupColumnSchema.partial().optional(),
  environment: LabEnvironmentSchema.optional(),
});

/** Target.requestDefaults: the default request of a target's scenarios. */
export const RequestDefaultsColumnSchema = z.looseObject({
  method: z.string().optional(),
  path: z.string().optional(),
  query: z.record(z.string(), z.string()).optional(),
  headers: z.record(z.string(), z.string()).optional(),
});

/** Run.targetSnapshot (`targetSnapshot()` in @poolbench/runs). */
export const TargetSnapshotSchema = z.looseObject({
  id: z.string().optional(),
  name: z.string().optional(),
  kind: z.string().optional(),
  baseUrls: z.array(z.string()).optional(),
  managed: TargetManagedSchema.nullable().optional(),
  requestDefaults: RequestDefaultsColumnSchema.optional(),
});

/** Any JSON value (IdempotencyKey.responseBody stores the answer as it was sent). */
export const JsonValueSchema: z.ZodType<Prisma.JsonValue> = z.lazy(() =>
  z.union([
    z.string(),
    z.number(),
    z.boolean(),
    z.null(),
    z.array(JsonValueSchema),
    z.record(z.string(), JsonValueSchema),
  ]),
);

/** RunSecond.statusCounts: responses per HTTP status in that second. */
export const StatusCountsSchema = z.record(z.string(), num);

export type StoredRunSummary = z.output<typeof RunSummarySchema>;
export type StoredThresholdResult = z.output<typeof ThresholdResultsSchema>[number];
export type RunEnvironment = z.output<typeof RunEnvironmentSchema>;
export type PoolConfigSnapshot = z.output<typeof PoolConfigSnapshotSchema>;
export type ScenarioSnapshot = z.output<typeof ScenarioSnapshotSchema>;
export type TargetSnapshot = z.output<typeof TargetSnapshotSchema>;
export type TargetManaged = z.output<typeof TargetManagedSchema>;
export type RequestDefaultsColumn = z.output<typeof RequestDefaultsColumnSchema>;

const EstimateSchema = z.looseObject({ estimate: num, lower: num, upper: num });

/** A firing on either side of a change point, as a webhook names it. */
const ChangePointFiringSchema = z.looseObject({
  experimentId: z.string(),
  name: z.string(),
  createdAt: z.string(),
  commit: z.string().nullable(),
  branch: z.string().nullable(),
});

/**
 * ScheduleNotification.payload: a scheduled experiment's outcome against its baseline, as the
 * generic webhook sends it (docs/notifications.md). Links are paths; the worker prefixes its
 * POOLBENCH_URL when it sends.
 */
export const NotificationPayloadSchema = z.looseObject({
  event: z.enum(['schedule.regression', 'schedule.suspected-regression', 'schedule.finished']),
  outcome: z.enum(['pass', 'regression', 'suspected-regression', 'no-baseline', 'incomplete']),
  schedule: z.looseObject({ id: z.string(), name: z.string() }),
  experiment: z.looseObject({ id: z.string(), name: z.string(), path: z.string() }),
  target: z.looseObject({ id: z.string(), name: z.string() }),
  baseline: z.string().nullable(),
  /** repeats per cell the outcome was decided on (more than the schedule's when it settled a suspicion) */
  repeats: num.optional(),
  /**
   * which evidence made the outcome a regression: the baseline comparison, a change point first
   * seen at this firing, or both; null when it is not a regression; absent in older payloads
   */
  decidedBy: z.enum(['baseline', 'change-point', 'both']).nullable().optional(),
  cells: z.array(
    z.looseObject({
      poolConfig: z.string(),
      scenario: z.string(),
      baselineRuns: num,
      candidateRuns: num,
      /** absent in payloads decided before suspicions and thresholds were part of the outcome */
      state: z.enum(['regression', 'suspected-regression', 'incomplete', 'pass']).optional(),
      /** runs of the candidate that crashed (failed, timed out, aborted); absent in older payloads */
      crashedRuns: num.optional(),
      /** why the cell cannot be judged (too few valid runs, too many crashed or invalid), or null */
      incomplete: z.string().nullable().optional(),
      /** why the cell is a regression although the candidate's runs fell behind the load the baseline took */
      loadNotTaken: z.string().nullable().optional(),
      /** measured runs left out of the verdicts as invalid, with why; absent in older payloads */
      invalidRuns: z
        .array(
          z.looseObject({
            runId: z.string(),
            side: z.enum(['baseline', 'candidate']),
            reasons: z.array(z.object({ code: z.string(), message: z.string() })),
          }),
        )
        .optional(),
      regression: z.boolean(),
      /**
       * what says this cell regressed: the comparison with the baseline, a change point of the
       * cell's history first seen at this firing, or both; absent in older payloads
       */
      evidence: z.array(z.enum(['baseline', 'change-point'])).optional(),
      /** change points of the cell's history first seen at this firing (docs/change-points.md) */
      changePoints: z
        .array(
          z.looseObject({
            metric: z.string(),
            kind: z.enum(['regression', 'improvement']),
            change: z.number(),
            interval: z
              .looseObject({ estimate: z.number(), lower: z.number(), upper: z.number() })
              .nullable(),
            pValue: z.number(),
            firingsBefore: num,
            firingsAfter: num,
            before: ChangePointFiringSchema,
            after: ChangePointFiringSchema,
          }),
        )
        .optional(),
      failedThresholds: z
        .array(
          z.looseObject({
            runId: z.string(),
            metric: z.string(),
            expr: z.string(),
            observed: numOrNull,
          }),
        )
        .optional(),
      metrics: z.array(
        z.looseObject({
          key: z.string(),
          label: z.string(),
          unit: z.string(),
          verdict: z.string(),
          suspected: z.boolean().optional(),
          /** adjusted with Holm among the primary metrics (else Benjamini–Hochberg among the rest) */
          primary: z.boolean().optional(),
          repeatsNeeded: z.number().int().nullable().optional(),
          baselineMedian: numOrNull,
          candidateMedian: numOrNull,
          changePercent: EstimateSchema.nullable(),
          confidence: numOrNull,
          pValue: numOrNull,
          reason: z.string(),
        }),
      ),
    }),
  ),
  decidedAt: z.string(),
});
export type NotificationPayload = z.output<typeof NotificationPayloadSchema>;

/** Experiment.sequentialState: the sequential rule's last answer (`nextSequentialStep`). */
export const SequentialStateSchema = z.looseObject({
  /** complete pairs looked at */
  pairs: z.number().int(),
  maxPairs: z.number().int(),
  stop: z.boolean(),
  decidedAt: z.string().nullable(),
  stoppedBecause: z
    .string()
    .optional()
    .describe("the rule asked for another round and the team's policy or limits refused it"),
  waitingBecause: z
    .string()
    .optional()
    .describe('the next round waits for a limit that lifts by itself (a full queue)'),
  metrics: z.array(
    z.looseObject({
      name: z.string(),
      decision: z.string(),
      reason: z.string(),
      change: z
        .looseObject({ estimate: z.number(), lower: z.number(), upper: z.number() })
        .nullable()
        .optional(),
      changeUnit: z.string().optional(),
      /** the hypothesis (its position) this entry decides, when the rule decides hypotheses */
      hypothesis: z.number().int().optional(),
      /** one-sided p of the decided direction (of the smaller one while undecided) */
      p: z.number().nullable().optional(),
      /** pairs the deciding look (or the latest one) used */
      lookPairs: z.number().int().optional(),
    }),
  ),
});
export type SequentialState = z.output<typeof SequentialStateSchema>;

/** NoiseFloor.metrics: per metric what an A/A calibration measured (`measureNoiseFloor`). */
export const NoiseFloorMetricsSchema = z.array(
  z.looseObject({
    key: z.enum(TESTED_RUN_METRIC_KEYS),
    unit: z.enum(['percent', 'absolute']),
    value: z.number().min(0),
    estimate: z.number(),
    n: z.number().int().min(1),
  }),
);
export type NoiseFloorMetrics = z.output<typeof NoiseFloorMetricsSchema>;

/** The advisor's objective: an SLO at the scenario's arrival rate, or the highest throughput. */
export const AdvisorObjectiveSchema = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('slo'),
    /** p99 latency limit, ms */
    p99Ms: z.number().positive(),
    /** error-rate limit as a fraction (0.001 = 0.1 %) */
    errorRate: z.number().min(0).max(1),
    /** the offered rate, req/s (the constant-arrival-rate scenario's) */
    rate: z.number().positive(),
  }),
  z.strictObject({ kind: z.literal('max-throughput') }),
]);
export type AdvisorObjective = z.output<typeof AdvisorObjectiveSchema>;

/** Experiment.advisor: what the advisor was asked (docs/advisor.md). */
export const AdvisorSpecSchema = z.looseObject({
  /** the pool-config parameter searched */
  knob: z.enum(['maxConns']),
  basePoolConfigId: z.string(),
  basePoolConfigName: z.string(),
  /** the base config as it was at the start; every setting's config is this with the knob set */
  base: z.looseObject({
    strategy: z.string(),
    params: PoolParamsSchema,
    instanceCount: z.number().int(),
    environment: PoolEnvironmentColumnSchema.nullable().optional(),
  }),
  scenarioId: z.string(),
  min: z.number().int(),
  max: z.number().int(),
  objective: AdvisorObjectiveSchema,
  budgetRuns: z.number().int(),
  repeatsPerSetting: z.number().int(),
});
export type AdvisorSpec = z.output<typeof AdvisorSpecSchema>;

const numOrNullish = z.number().nullable().optional();

/** Experiment.advisorState: the search's last answer, for the page, REST and the CLI. */
export const AdvisorStateSchema = z.looseObject({
  status: z.enum(['running', 'decided', 'no-setting-meets', 'budget-exhausted', 'stopped']),
  recommended: z.number().int().nullable(),
  /** one sentence: the answer and its evidence, or why there is none */
  summary: z.string(),
  evidence: z.array(z.string()),
  runsUsed: z.number().int(),
  budgetRuns: z.number().int(),
  /** the settings the search ran, ascending, each with its pool config and verdict */
  settings: z.array(
    z.looseObject({
      setting: z.number().int(),
      poolConfigId: z.string(),
      runs: z.number().int(),
      meets: z.number().int(),
      verdict: z.string(),
      /** further passing runs that could settle an in-doubt setting */
      runsToSettle: z.number().int().nullable().optional(),
      p99Median: numOrNullish,
      p99Low: numOrNullish,
      p99High: numOrNullish,
      rpsMedian: numOrNullish,
      rpsLow: numOrNullish,
      rpsHigh: numOrNullish,
      errorRateMedian: numOrNullish,
      dbConnectionsPeak: numOrNullish,
      rssPeakBytes: numOrNullish,
      poolInUseMean: numOrNullish,
      reasons: z.array(z.string()).optional(),
    }),
  ),
  /** Universal Scalability Law fit of throughput against the setting, when it could be fitted */
  usl: z
    .looseObject({
      lambda1: z.number(),
      sigma: z.number(),
      kappa: z.number(),
      peakN: z.number().nullable(),
      rSquared: z.number().nullable(),
      points: z.array(z.looseObject({ n: z.number(), observed: z.number(), fitted: z.number() })),
    })
    .nullable(),
  uslNote: z.string().nullable().optional(),
  /** Little's law per setting: mean in-use connections against throughput x mean hold time */
  littlesLaw: z
    .array(
      z.looseObject({
        setting: z.number().int(),
        expected: z.number(),
        observed: z.number(),
        relativeDifference: z.number().nullable(),
        agrees: z.boolean(),
      }),
    )
    .optional(),
  inDoubt: z
    .array(z.looseObject({ setting: z.number().int(), runsToSettle: z.number().int() }))
    .optional(),
  updatedAt: z.string(),
  decidedAt: z.string().nullable(),
});
export type AdvisorState = z.output<typeof AdvisorStateSchema>;
