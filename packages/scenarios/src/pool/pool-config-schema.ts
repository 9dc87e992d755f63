import { z } from 'zod';
import { whenNumbers } from '../check-when';
import { POOL_PARAM_DEFS, type PoolParamKey } from './param-defs';
import { LabEnvironmentSchema } from '@poolbench/contracts';

export const POOL_STRATEGIES = [
  'per-request',
  'pool-per-request',
  'lazy',
  'prewarm',
  'fixed',
  'elastic',
  'adaptive',
  'priority',
  'partitioned',
  'borrowing',
] as const;

export const PoolStrategySchema = z.enum(POOL_STRATEGIES, {
  error: `must be one of ${POOL_STRATEGIES.join(', ')}`,
});
export type PoolStrategy = z.infer<typeof PoolStrategySchema>;

function num(key: PoolParamKey) {
  const d = POOL_PARAM_DEFS[key];
  const unit = d.isDuration ? ' ms' : '';
  return z
    .number({ error: `must be a number${d.isDuration ? ' of milliseconds' : ''}` })
    .int('must be a whole number')
    .min(d.min, `must be at least ${d.min}${unit}`)
    .max(d.max, `must be at most ${d.max}${unit}`);
}

// Defaults are the laptop-sized values PoolBench passes explicitly, so a run never depends on
// the lab target's built-in defaults.
const p = {
  maxConns: (def = 10) => num('maxConns').default(def),
  minConns: (def: number) => num('minConns').default(def),
  acquireTimeoutMs: () => num('acquireTimeoutMs').default(1000),
  connectTimeoutMs: () => num('connectTimeoutMs').default(5000),
  idleTimeoutMs: () => num('idleTimeoutMs').default(60_000),
  maxLifetimeMs: () => num('maxLifetimeMs').default(600_000),
  healthCheckPeriodMs: () => num('healthCheckPeriodMs').default(60_000),
  statementTimeoutMs: () => num('statementTimeoutMs').default(0),
  keepaliveMs: () => num('keepaliveMs').default(30_000),
  initialConns: () => num('initialConns').optional(),
  growStep: () => num('growStep').default(10),
  shrinkStep: () => num('shrinkStep').default(5),
  growWaitThresholdMs: () => num('growWaitThresholdMs').default(100),
  shrinkIdleMs: () => num('shrinkIdleMs').default(300_000),
  checkIntervalMs: () => num('checkIntervalMs').default(1000),
  shards: () => num('shards').default(4),
  secondaryMaxConns: () => num('secondaryMaxConns').optional(),
  upstreamConns: () => num('upstreamConns').optional(),
};

const pooledCommon = {
  maxConns: p.maxConns(),
  acquireTimeoutMs: p.acquireTimeoutMs(),
  connectTimeoutMs: p.connectTimeoutMs(),
  maxLifetimeMs: p.maxLifetimeMs(),
  healthCheckPeriodMs: p.healthCheckPeriodMs(),
  statementTimeoutMs: p.statementTimeoutMs(),
  upstreamConns: p.upstreamConns(),
};

const minLeMax = {
  message: 'must not be greater than maxConns',
  path: ['minConns'],
  when: whenNumbers('minConns', 'maxConns'),
};

const paramsByStrategy = {
  'per-request': z.strictObject({
    // No pool bounds a Go per-request target but the load; on php-fpm this is pm.max_children (docs/runtimes.md).
    maxConns: num('maxConns').optional(),
    connectTimeoutMs: p.connectTimeoutMs(),
    statementTimeoutMs: p.statementTimeoutMs(),
    upstreamConns: p.upstreamConns(),
  }),
  // minConns too: seed 004's throwaway pgxpool had MinConns 5, which is what made it slow.
  'pool-per-request': z
    .strictObject({
      maxConns: p.maxConns(),
      minConns: p.minConns(0),
      connectTimeoutMs: p.connectTimeoutMs(),
      statementTimeoutMs: p.statementTimeoutMs(),
      upstreamConns: p.upstreamConns(),
    })
    .refine((v) => v.minConns <= v.maxConns, minLeMax),
  lazy: z.strictObject({ ...pooledCommon, idleTimeoutMs: p.idleTimeoutMs() }),
  prewarm: z.strictObject({ ...pooledCommon, keepaliveMs: p.keepaliveMs() }),
  fixed: z.strictObject({ ...pooledCommon }),
  elastic: z
    .strictObject({ ...pooledCommon, minConns: p.minConns(2), idleTimeoutMs: p.idleTimeoutMs() })
    .refine((v) => v.minConns <= v.maxConns, minLeMax),
  adaptive: z
    .strictObject({
      ...pooledCommon,
      maxConns: p.maxConns(20),
      minConns: p.minConns(4),
      idleTimeoutMs: p.idleTimeoutMs(),
      initialConns: p.initialConns(),
      growStep: p.growStep(),
      shrinkStep: p.shrinkStep(),
      growWaitThresholdMs: p.growWaitThresholdMs(),
      shrinkIdleMs: p.shrinkIdleMs(),
      checkIntervalMs: p.checkIntervalMs(),
    })
    .refine((v) => v.minConns <= v.maxConns, minLeMax)
    .refine(
      (v) =>
        v.initialConns === undefined ||
        (v.initialConns >= v.minConns && v.initialConns <= v.maxConns),
      {
        message: 'must be between minConns and maxConns',
        path: ['initialConns'],
        when: whenNumbers('minConns', 'maxConns'),
      },
    ),
  priority: z.strictObject({ ...pooledCommon }),
  partitioned: z.strictObject({ ...pooledCommon, shards: p.shards() }),
  borrowing: z.strictObject({ ...pooledCommon, secondaryMaxConns: p.secondaryMaxConns() }),
} as const satisfies Record<PoolStrategy, z.ZodType>;

export const POOL_PARAMS_SCHEMAS = paramsByStrategy;

const instanceCount = z
  .number({ error: 'must be a number' })
  .int('must be a whole number')
  .min(1, 'must be at least 1')
  .max(16, 'must be at most 16')
  .default(1)
  .describe('lab-target processes started by the worker, each on its own port with the same flags');

// Overrides of the target's environment for this config only (managed targets), so one
// experiment can vary what the seeds varied by hand: link RTT, role limit, CPU, balancer.
const environment = LabEnvironmentSchema.optional();

/** A pool config `{ strategy, params, instanceCount, environment? }`; params allowed and defaulted per strategy. */
export const PoolConfigSchema = z.discriminatedUnion(
  'strategy',
  [
    z.strictObject({
      strategy: z.literal('per-request'),
      params: paramsByStrategy['per-request'].prefault({}),
      instanceCount,
      environment,
    }),
    z.strictObject({
      strategy: z.literal('pool-per-request'),
      params: paramsByStrategy['pool-per-request'].prefault({}),
      instanceCount,
      environment,
    }),
    z.strictObject({
      strategy: z.literal('lazy'),
      params: paramsByStrategy['lazy'].prefault({}),
      instanceCount,
      environment,
    }),
    z.strictObject({
      strategy: z.literal('prewarm'),
      params: paramsByStrategy['prewarm'].prefault({}),
      instanceCount,
      environment,
    }),
    z.strictObject({
      strategy: z.literal('fixed'),
      params: paramsByStrategy['fixed'].prefault({}),
      instanceCount,
      environment,
    }),
    z.strictObject({
      strategy: z.literal('elastic'),
      params: paramsByStrategy['elastic'].prefault({}),
      instanceCount,
      environment,
    }),
    z.strictObject({
      strategy: z.literal('adaptive'),
      params: paramsByStrategy['adaptive'].prefault({}),
      instanceCount,
      environment,
    }),
    z.strictObject({
      strategy: z.literal('priority'),
      params: paramsByStrategy['priority'].prefault({}),
      instanceCount,
      environment,
    }),
    z.strictObject({
      strategy: z.literal('partitioned'),
      params: paramsByStrategy['partitioned'].prefault({}),
      instanceCount,
      environment,
    }),
    z.strictObject({
      strategy: z.literal('borrowing'),
      params: paramsByStrategy['borrowing'].prefault({}),
      instanceCount,
      environment,
    }),
  ],
  {
    error: (iss) =>
      iss.code === 'invalid_union'
        ? `strategy must be one of ${POOL_STRATEGIES.join(', ')}`
        : undefined,
  },
);

export type PoolConfig = z.infer<typeof PoolConfigSchema>;
export type PoolConfigInput = z.input<typeof PoolConfigSchema>;
