export { createDb, type Db, type Tx, type DbOrTx, type CreateDbOptions } from './client';
export { databaseUrl, DEFAULT_DATABASE_URL } from './env';
export { sealSecret, openSecret, secretKeyFromEnv, SecretKeyError } from './secrets';
export { Prisma } from './generated/prisma/client';
export * from './generated/prisma/enums';
export type {
  User,
  Session,
  Account,
  Verification,
  Team,
  Membership,
  Invitation,
  AllowedHost,
  InstallationRange,
  ApiToken,
  IdempotencyKey,
  Target,
  PoolConfig,
  Scenario,
  Experiment,
  ExperimentPoolConfig,
  ExperimentScenario,
  Schedule,
  ScheduleNotification,
  Run,
  RunSecond,
  ResourceSample,
  Baseline,
  ShareLink,
  Worker,
} from './generated/prisma/client';
export { runOrder, roundOrder, positionsInRound, type Cell } from './services/run-order';
export { readPositionsInRound } from './services/run-positions';
export { NotFoundError, InvalidInputError } from './services/errors';
export { createId } from './services/create-id';
export { openedRanges } from './services/opened-ranges';
export { installationId } from './services/installation';
export {
  scenarioToColumns,
  scenarioFromColumns,
  scenarioRowData,
  type ScenarioColumns,
} from './services/scenario-row';
export {
  seedDemoTeam,
  LAB_SETUP,
  DEMO_EMAIL,
  DEMO_PASSWORD,
  DEMO_TEAM_SLUG,
  LAB_TARGET_NAME,
} from './seed';
export {
  maintainStorage,
  pruneExpiredSeconds,
  dropEmptyOldPartitions,
  ensureMonthPartition,
  listPartitions,
  PARTITIONED_TABLES,
  type MaintenanceResult,
  type Partition,
} from './storage-maintenance';
export { secondsTsBounds } from './seconds-bounds';
export * from './run-second-columns';
export * from './json';
