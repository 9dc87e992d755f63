export { createDb, type Db, type Tx, type DbOrTx, type CreateDbOptions } from './client';
export { databaseUrl, DEFAULT_DATABASE_URL } from './env';
export { sealSecret, openSecret, secretKeyFromEnv, SecretKeyError } from './secrets';
export { Prisma } from './generated/prisma/client';
export * from './generated/prisma/enums';
export type { User, Session, Account, Verification, Team, Membership, Invitation, AllowedHost, ApiToken, IdempotencyKey, Target, PoolConfig, Scenario, Experiment, ExperimentPoolConfig, ExperimentScenario, Schedule, Run, RunSecond, ResourceSample, Baseline, ShareLink, Worker } from './generated/prisma/client';
