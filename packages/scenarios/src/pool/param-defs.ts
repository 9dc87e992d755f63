/** Description of one lab-target pool param, shared by the zod schemas, the flag mapping and the UI. */
export interface PoolParamDef {
  /** lab-target flag without the leading dashes (the contract: kebab-case of the key) */
  flag: string;
  label: string;
  unit: 'connections' | 'ms' | 'count' | 'shards';
  isDuration: boolean;
  min: number;
  max: number;
  help: string;
}

const conns = (flag: string, label: string, help: string, min = 1): PoolParamDef => ({
  flag,
  label,
  unit: 'connections',
  isDuration: false,
  min,
  max: 1000,
  help,
});
const time = (
  flag: string,
  label: string,
  help: string,
  min = 0,
  max = 24 * 3600 * 1000,
): PoolParamDef => ({
  flag,
  label,
  unit: 'ms',
  isDuration: true,
  min,
  max,
  help,
});

export const POOL_PARAM_DEFS = {
  maxConns: conns(
    'max-conns',
    'Max connections',
    'Upper bound of open database connections (pool-per-request: size of each throwaway pool).',
  ),
  minConns: conns(
    'min-conns',
    'Min connections',
    'Connections kept open even when idle (adaptive: lower bound; pool-per-request: opened with every throwaway pool).',
    0,
  ),
  acquireTimeoutMs: time(
    'acquire-timeout',
    'Acquire timeout',
    'Wait this long for a free connection, then answer 503 pool_acquire_timeout; 0 waits for the request deadline. Seed 003 advises 1 s to fail fast.',
  ),
  connectTimeoutMs: time(
    'connect-timeout',
    'Connect timeout',
    'Give up opening a new database connection after this long.',
  ),
  idleTimeoutMs: time(
    'idle-timeout',
    'Idle timeout',
    'Close connections idle for this long (never below min connections).',
  ),
  maxLifetimeMs: time(
    'max-lifetime',
    'Max lifetime',
    'Recycle connections older than this; seed 003 advises 10 min.',
  ),
  healthCheckPeriodMs: time(
    'health-check-period',
    'Health-check period',
    'How often the pool checks idle connections and tops up to its minimum.',
    100,
  ),
  statementTimeoutMs: time(
    'statement-timeout',
    'Statement timeout',
    'Server-side statement_timeout for every query; 0 means none.',
  ),
  keepaliveMs: time(
    'keepalive',
    'Keepalive',
    'Ping idle connections this often so they stay warm (seed 003: 30 s).',
    100,
  ),
  initialConns: conns(
    'initial-conns',
    'Initial connections',
    'Pool size at start-up; between min and max connections.',
    0,
  ),
  growStep: {
    flag: 'grow-step',
    label: 'Grow step',
    unit: 'connections',
    isDuration: false,
    min: 1,
    max: 1000,
    help: 'Connections added when the average acquire wait exceeds the grow threshold (seed 003: +10).',
  },
  shrinkStep: {
    flag: 'shrink-step',
    label: 'Shrink step',
    unit: 'connections',
    isDuration: false,
    min: 1,
    max: 1000,
    help: 'Connections removed after a long idle spell (seed 003: -5).',
  },
  growWaitThresholdMs: time(
    'grow-wait-threshold',
    'Grow wait threshold',
    'Grow when the average acquire wait over the last check interval exceeds this (seed 003: 100 ms).',
    1,
  ),
  shrinkIdleMs: time(
    'shrink-idle',
    'Shrink after idle',
    'Shrink after the pool has had idle capacity this long (seed 003: 5 min).',
    1,
  ),
  checkIntervalMs: time(
    'check-interval',
    'Check interval',
    'How often the adaptive controller looks at waits and idle capacity.',
    10,
  ),
  shards: {
    flag: 'shards',
    label: 'Shards',
    unit: 'shards',
    isDuration: false,
    min: 1,
    max: 64,
    help: 'Number of partitions; each gets its own pool of max connections.',
  },
  secondaryMaxConns: conns(
    'secondary-max-conns',
    'Secondary max connections',
    'Size of the secondary pool that requests may borrow from when the primary is exhausted (default: max connections).',
  ),
  upstreamConns: conns(
    'upstream-conns',
    'Upstream connections',
    'Keep-alive HTTP connections to the blob store for POST /upload; prewarm opens them at start-up (default: max connections).',
  ),
} as const satisfies Record<string, PoolParamDef>;

export type PoolParamKey = keyof typeof POOL_PARAM_DEFS;
