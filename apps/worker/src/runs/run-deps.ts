import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { Db } from '@poolbench/db';
import type { TerminalStatus } from '@poolbench/runs';
import type { RuntimeBins } from '../targets/runtimes';
import type { ProcessRegistry } from '../targets/process-registry';
import type { WorkerMetrics } from '../ops/ops-server';

export interface DistributedConfig {
  /** WORKER_ADVERTISE_HOST: where other workers reach the managed targets this worker starts */
  advertiseHost: string;
  joinTimeoutMs: number;
  startLeadMs: number;
  staleAfterMs: number;
}

/** What every kind of run job needs from the worker process; `index.ts` wires it once. */
export interface RunDeps {
  db: Db;
  /** publisher connection for live events */
  redis: Redis;
  workerId: string;
  log: Logger;
  registry: ProcessRegistry;
  metrics: WorkerMetrics;
  /** ids of the runs this worker is executing now (for its health endpoint) */
  active: Set<string>;
  /** where a distributed run's leader enqueues its generators' segment jobs */
  runQueue?: Queue;
  config: {
    k6Bin: string;
    labTargetBin: string;
    labDatabaseUrl: string;
    /** the MariaDB lab database and the runtimes' programs (docs/runtimes.md) */
    labMariadbUrl: string;
    runtimeBins: RuntimeBins;
    /** PoolBench's own database, which no monitor DSN may point at */
    ownDatabaseUrl: string;
    readyTimeoutMs: number;
    heartbeatMs: number;
    timeoutMarginMs: number;
    poolbenchVersion: string;
    distributed?: DistributedConfig;
  };
}

export interface RunOutcome {
  runId: string;
  status: TerminalStatus | 'skipped';
  reason?: string;
}
