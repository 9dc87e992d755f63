import { writeJson } from './json-column';
import * as S from './column-schemas';

/** Write points of the JSON columns: each value is checked against its column's schema first. */
export const toJson = {
  runSummary: (v: unknown) => writeJson(S.RunSummarySchema, v, { model: 'Run', column: 'summary' }),
  thresholdResults: (v: unknown) =>
    writeJson(S.ThresholdResultsSchema, v, { model: 'Run', column: 'thresholdResults' }),
  runEnvironment: (v: unknown) =>
    writeJson(S.RunEnvironmentSchema, v, { model: 'Run', column: 'environment' }),
  poolConfigSnapshot: (v: unknown) =>
    writeJson(S.PoolConfigSnapshotSchema, v, { model: 'Run', column: 'poolConfigSnapshot' }),
  scenarioSnapshot: (v: unknown) =>
    writeJson(S.ScenarioSnapshotSchema, v, { model: 'Run', column: 'scenarioSnapshot' }),
  targetSnapshot: (v: unknown) =>
    writeJson(S.TargetSnapshotSchema, v, { model: 'Run', column: 'targetSnapshot' }),
  scenarioParams: (v: unknown) =>
    writeJson(S.ScenarioParamsSchema, v, { model: 'Scenario', column: 'params' }),
  scenarioThresholds: (v: unknown) =>
    writeJson(S.ScenarioThresholdsSchema, v, { model: 'Scenario', column: 'thresholds' }),
  poolParams: (v: unknown) =>
    writeJson(S.PoolParamsSchema, v, { model: 'PoolConfig', column: 'params' }),
  poolEnvironment: (v: unknown) =>
    writeJson(S.PoolEnvironmentColumnSchema, v, { model: 'PoolConfig', column: 'environment' }),
  targetManaged: (v: unknown) =>
    writeJson(S.TargetManagedSchema, v, { model: 'Target', column: 'managed' }),
  requestDefaults: (v: unknown) =>
    writeJson(S.RequestDefaultsColumnSchema, v, { model: 'Target', column: 'requestDefaults' }),
  secondChecks: (v: unknown) =>
    writeJson(S.SecondChecksSchema, v, { model: 'RunSecond', column: 'checks' }),
  customMetrics: (v: unknown) =>
    writeJson(S.CustomMetricsSchema, v, { model: 'RunSecond', column: 'custom' }),
  subMetricSeconds: (v: unknown) =>
    writeJson(S.CustomMetricsSchema, v, { model: 'RunSecond', column: 'subMetrics' }),
  segmentDelivery: (v: unknown) =>
    writeJson(S.DeliverySchema, v, { model: 'RunSegment', column: 'delivery' }),
  segmentDisturbance: (v: unknown) =>
    writeJson(S.DisturbanceSchema, v, { model: 'RunSegment', column: 'disturbance' }),
  segmentDisturbanceBeforeStart: (v: unknown) =>
    writeJson(S.DisturbanceBeforeStartSchema, v, {
      model: 'RunSegment',
      column: 'disturbanceBeforeStart',
    }),
  responseBody: (v: unknown) =>
    writeJson(S.JsonValueSchema, v, { model: 'IdempotencyKey', column: 'responseBody' }),
  sequentialState: (v: unknown) =>
    writeJson(S.SequentialStateSchema, v, { model: 'Experiment', column: 'sequentialState' }),
  advisorSpec: (v: unknown) =>
    writeJson(S.AdvisorSpecSchema, v, { model: 'Experiment', column: 'advisor' }),
  advisorState: (v: unknown) =>
    writeJson(S.AdvisorStateSchema, v, { model: 'Experiment', column: 'advisorState' }),
  noiseFloorMetrics: (v: unknown) =>
    writeJson(S.NoiseFloorMetricsSchema, v, { model: 'NoiseFloor', column: 'metrics' }),
  notificationPayload: (v: unknown) =>
    writeJson(S.NotificationPayloadSchema, v, { model: 'ScheduleNotification', column: 'payload' }),
};
