import type { z } from 'zod';
import { readJson } from './json-column';
import {
  JsonValueSchema,
  NotificationPayloadSchema,
  NoiseFloorMetricsSchema,
  SequentialStateSchema,
  AdvisorSpecSchema,
  AdvisorStateSchema,
  PoolConfigSnapshotSchema,
  PoolEnvironmentColumnSchema,
  PoolParamsSchema,
  RequestDefaultsColumnSchema,
  RunEnvironmentSchema,
  RunSummarySchema,
  SecondChecksSchema,
  CustomMetricsSchema,
  DeliverySchema,
  DisturbanceBeforeStartSchema,
  DisturbanceSchema,
  ScenarioParamsSchema,
  ScenarioSnapshotSchema,
  ScenarioThresholdsSchema,
  StatusCountsSchema,
  TargetManagedSchema,
  TargetSnapshotSchema,
  ThresholdResultsSchema,
} from './column-schemas';

interface ColumnSpec<S extends z.ZodType = z.ZodType, F = unknown> {
  schema: S;
  fallback: F;
}
const col = <S extends z.ZodType, F>(schema: S, fallback: F): ColumnSpec<S, F> => ({
  schema,
  fallback,
});
type Specs = Record<string, ColumnSpec>;
type Out<C> = C extends ColumnSpec<infer S, infer F> ? z.output<S> | F : never;

/** A row with its JSON columns (those it selected) replaced by their parsed values. */
export type ParsedRow<R, S extends Specs> = {
  [K in keyof R]: K extends keyof S ? Out<S[K]> : R[K];
};

/** Non-null columns fall back to their empty value, so a corrupt snapshot reads like an old one. */
const RUN = {
  summary: col(RunSummarySchema, null),
  thresholdResults: col(ThresholdResultsSchema, null),
  environment: col(RunEnvironmentSchema, null),
  poolConfigSnapshot: col(PoolConfigSnapshotSchema, PoolConfigSnapshotSchema.parse({})),
  scenarioSnapshot: col(ScenarioSnapshotSchema, ScenarioSnapshotSchema.parse({})),
  targetSnapshot: col(TargetSnapshotSchema, TargetSnapshotSchema.parse({})),
};
const SCENARIO = {
  params: col(ScenarioParamsSchema, ScenarioParamsSchema.parse({})),
  thresholds: col(ScenarioThresholdsSchema, ScenarioThresholdsSchema.parse([])),
};
const POOL_CONFIG = {
  params: col(PoolParamsSchema, PoolParamsSchema.parse({})),
  environment: col(PoolEnvironmentColumnSchema, null),
};
const TARGET = {
  managed: col(TargetManagedSchema, null),
  requestDefaults: col(RequestDefaultsColumnSchema, RequestDefaultsColumnSchema.parse({})),
};
const RUN_SECOND = {
  statusCounts: col(StatusCountsSchema, StatusCountsSchema.parse({})),
  checks: col(SecondChecksSchema, null),
  custom: col(CustomMetricsSchema, null),
  subMetrics: col(CustomMetricsSchema, null),
};
const RUN_SEGMENT = {
  delivery: col(DeliverySchema, null),
  disturbance: col(DisturbanceSchema, null),
  disturbanceBeforeStart: col(DisturbanceBeforeStartSchema, null),
};
const IDEMPOTENCY_KEY = { responseBody: col(JsonValueSchema, null) };
const SCHEDULE_NOTIFICATION = { payload: col(NotificationPayloadSchema, null) };
const EXPERIMENT = {
  sequentialState: col(SequentialStateSchema, null),
  advisor: col(AdvisorSpecSchema, null),
  advisorState: col(AdvisorStateSchema, null),
};

const NOISE_FLOOR = { metrics: col(NoiseFloorMetricsSchema, NoiseFloorMetricsSchema.parse([])) };

function parseRow<S extends Specs>(model: string, specs: S) {
  return <R extends object>(row: R): ParsedRow<R, S> => {
    const out: Record<string, unknown> = Object.fromEntries(Object.entries(row));
    const id =
      'id' in row
        ? String(row.id)
        : 'runId' in row && 'second' in row
          ? `${String(row.runId)}@${String(row.second)}`
          : 'runId' in row && 'index' in row
            ? `${String(row.runId)}#${String(row.index)}`
            : '(no id selected)';
    for (const [column, spec] of Object.entries(specs)) {
      if (column in out)
        out[column] = readJson(spec.schema, out[column], { model, column, id }, spec.fallback);
    }
    // The parse point: every JSON column of the row has just been parsed by its schema.
    return out as ParsedRow<R, S>;
  };
}

/** Run rows as services use them: summary, thresholdResults, environment and the snapshots parsed. */
export const parseRun = parseRow('Run', RUN);
export const parseScenarioRow = parseRow('Scenario', SCENARIO);
export const parsePoolConfig = parseRow('PoolConfig', POOL_CONFIG);
export const parseTarget = parseRow('Target', TARGET);
export const parseRunSecond = parseRow('RunSecond', RUN_SECOND);
export const parseRunSegment = parseRow('RunSegment', RUN_SEGMENT);
export const parseIdempotencyKey = parseRow('IdempotencyKey', IDEMPOTENCY_KEY);
export const parseScheduleNotification = parseRow('ScheduleNotification', SCHEDULE_NOTIFICATION);
export const parseExperiment = parseRow('Experiment', EXPERIMENT);
export const parseNoiseFloor = parseRow('NoiseFloor', NOISE_FLOOR);

export type ParsedRun<R> = ParsedRow<R, typeof RUN>;
export type ParsedTarget<R> = ParsedRow<R, typeof TARGET>;
export type ParsedScenario<R> = ParsedRow<R, typeof SCENARIO>;
export type ParsedPoolConfig<R> = ParsedRow<R, typeof POOL_CONFIG>;
