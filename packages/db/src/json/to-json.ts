import { writeJson } from './json-column';
import {
  JsonValueSchema,
  PoolConfigSnapshotSchema,
  PoolParamsSchema,
  RequestDefaultsColumnSchema,
  RunEnvironmentSchema,
  RunSummarySchema,
  ScenarioParamsSchema,
  ScenarioSnapshotSchema,
  ScenarioThresholdsSchema,
  TargetManagedSchema,
  TargetSnapshotSchema,
  ThresholdResultsSchema,
} from './column-schemas';

/** Write points of the JSON columns: each value is checked against its column's schema first. */
export const toJson = {
  runSummary: (v: unknown) => writeJson(RunSummarySchema, v, { model: 'Run', column: 'summary' }),
  thresholdResults: (v: unknown) => writeJson(ThresholdResultsSchema, v, { model: 'Run', column: 'thresholdResults' }),
  runEnvironment: (v: unknown) => writeJson(RunEnvironmentSchema, v, { model: 'Run', column: 'environment' }),
  poolConfigSnapshot: (v: unknown) => writeJson(PoolConfigSnapshotSchema, v, { model: 'Run', column: 'poolConfigSnapshot' }),
  scenarioSnapshot: (v: unknown) => writeJson(ScenarioSnapshotSchema, v, { model: 'Run', column: 'scenarioSnapshot' }),
  targetSnapshot: (v: unknown) => writeJson(TargetSnapshotSchema, v, { model: 'Run', column: 'targetSnapshot' }),
  scenarioParams: (v: unknown) => writeJson(ScenarioParamsSchema, v, { model: 'Scenario', column: 'params' }),
  scenarioThresholds: (v: unknown) => writeJson(ScenarioThresholdsSchema, v, { model: 'Scenario', column: 'thresholds' }),
  poolParams: (v: unknown) => writeJson(PoolParamsSchema, v, { model: 'PoolConfig', column: 'params' }),
  targetManaged: (v: unknown) => writeJson(TargetManagedSchema, v, { model: 'Target', column: 'managed' }),
  requestDefaults: (v: unknown) => writeJson(RequestDefaultsColumnSchema, v, { model: 'Target', column: 'requestDefaults' }),
  responseBody: (v: unknown) => writeJson(JsonValueSchema, v, { model: 'IdempotencyKey', column: 'responseBody' }),
};
