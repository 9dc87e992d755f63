import { INSIGHT_CODES } from '@poolbench/stats';
import { z } from 'zod';
import {
  PoolConfigSnapshotSchema,
  RunEnvironmentSchema,
  RunSegmentStatus,
  RunSummarySchema,
  ScenarioSnapshotSchema,
  TargetKind,
  TargetSnapshotSchema,
  ThresholdResultsSchema,
} from '@poolbench/db';
import { SeriesPointSchema } from '@poolbench/contracts';
import { RefSchema as Ref, RunRowFields } from './shared.types';
import { ValidityReasonSchema } from './compare.types';
import { ByIdSchema } from '~/lib/schemas/ids';

/** Response schemas of the run procedures (documenso's `.types.ts` pattern). */
export const RunListSchema = z.object({
  items: z.array(
    z.object({
      ...RunRowFields,
      createdAt: z.date(),
      experiment: Ref,
      target: Ref,
      poolConfigName: z.string(),
      strategy: z.string().nullable(),
      scenarioName: z.string(),
      rps: z.number().nullable(),
      p95Ms: z.number().nullable(),
      errorRate: z.number().nullable(),
    }),
  ),
  nextCursor: z.string().nullable(),
});

/** One load generator of a distributed run. */
export const RunSegmentViewSchema = z.object({
  index: z.number().int().describe('k6 execution segment index/loadGenerators'),
  workerId: z.string().nullable(),
  status: z.enum(RunSegmentStatus),
  requests: z.number().int(),
  loadMs: z.number().nullable().describe("the generator's load phase, ms"),
  startSkewMs: z
    .number()
    .nullable()
    .describe("this generator's load start minus the earliest generator's"),
  cpuAvgPercent: z
    .number()
    .nullable()
    .describe("the generator's own k6 CPU over its load, % of one core"),
  cpuMaxPercent: z
    .number()
    .nullable()
    .describe(
      "the generator's own k6 CPU, % of one core (> 80: the numbers may be the generator's)",
    ),
  /** bigint in the row; a number here because bigint does not travel as JSON */
  rssMaxBytes: z.number().nullable(),
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
  errorMessage: z
    .string()
    .nullable()
    .describe('why the generator ended other than succeeded; null when it succeeded'),
});

/** What makes a run's numbers suspect, with a fix (`runInsights` of @poolbench/stats). */
export const RunInsightSchema = z.object({
  code: z.enum(INSIGHT_CODES),
  severity: z.enum(['critical', 'warning', 'info']),
  message: z.string(),
  fix: z.string(),
});

/**
 * Whether a measured run's numbers describe the load asked for (`runValidity`): an invalid run is
 * left out of every verdict, with these reasons. Null for a run without a summary.
 */
export const RunValiditySchema = z.object({
  valid: z.boolean(),
  reasons: z.array(ValidityReasonSchema),
});

export const RunDetailSchema = z.object({
  ...RunRowFields,
  createdAt: z.date(),
  preparingAt: z.date().nullable(),
  cancelRequestedAt: z.date().nullable(),
  workerId: z.string().nullable(),
  environment: RunEnvironmentSchema.nullable(),
  errorCode: z.string().nullable(),
  summary: RunSummarySchema.nullable(),
  thresholdResults: ThresholdResultsSchema.nullable(),
  notes: z.string().nullable(),
  /** the k6 script the worker ran, or the one the snapshot generates before it starts */
  script: z.string().nullable(),
  secondsPrunedAt: z.date().nullable(),
  poolConfigSnapshot: PoolConfigSnapshotSchema,
  scenarioSnapshot: ScenarioSnapshotSchema,
  targetSnapshot: TargetSnapshotSchema,
  loadGenerators: z.number().int(),
  segments: z.array(RunSegmentViewSchema),
  insights: z.array(RunInsightSchema),
  validity: RunValiditySchema.nullable(),
  /** managed runs: the pool config's params the runtime did not apply (null for URL targets) */
  poolParamsNotApplied: z.object({ runtime: z.string(), keys: z.array(z.string()) }).nullable(),
  experiment: Ref.extend({ repeats: z.number().int() }),
  target: Ref.extend({ kind: z.enum(TargetKind) }),
});

const nullableNum = z.number().nullable();
export const SweepStepsSchema = z
  .object({
    steps: z.array(
      z.object({
        index: z.number().int(),
        targetRatePerSec: z.number(),
        fromSec: z.number(),
        toSec: z.number(),
        includesEdges: z.boolean(),
        seconds: z.number().int(),
        requests: z.number().int(),
        achievedRatePerSec: nullableNum,
        droppedIterations: z.number().int(),
        errorRate: nullableNum,
        p50Ms: nullableNum,
        p95Ms: nullableNum,
        p99Ms: nullableNum,
        breaks: z.array(z.enum(['throughput', 'errors', 'latency'])),
      }),
    ),
    breakingStep: z.number().int().nullable(),
    sustainedRatePerSec: nullableNum,
  })
  .nullable();

/**
 * What `customSeries` reads: the script's own metrics, or its tagged series (`subMetrics`; only
 * the series `names` lists when given, as a run keeps up to 50).
 */
export const CustomSeriesInputSchema = ByIdSchema.extend({
  source: z.enum(['custom', 'subMetrics']).default('custom'),
  names: z.array(z.string().max(300)).max(50).optional(),
});

/** A script's own metrics per second (`customSeries`): a trend's percentiles, others' value. */
export const CustomSeriesSchema = z.array(
  z.object({
    name: z.string(),
    type: z.enum(['trend', 'counter', 'rate', 'gauge']),
    /** a trend of times (ms); false for a trend of plain numbers and for the other kinds */
    time: z.boolean(),
    /** a trend's samples below 0 over the run, left out of its percentiles */
    negative: z.number().int(),
    /** a trend's samples above its histogram's top over the run, held at the top */
    aboveTop: z.number().int(),
    points: z.array(
      z.object({
        second: z.number().int(),
        p50: nullableNum,
        p95: nullableNum,
        p99: nullableNum,
        max: nullableNum,
        value: nullableNum,
      }),
    ),
  }),
);

export const RunSeriesSchema = z.object({
  points: z.array(SeriesPointSchema),
  totalSeconds: z.number().int(),
  downsampled: z.boolean(),
});
export const RunCanceledSchema = z.object({ status: z.enum(['canceled', 'cancel_requested']) });
export const RunNotesSavedSchema = z.void();
