import {
  LabEnvironmentSchema,
  resolveLabEnvironment,
  type LabDatabase,
  RUNTIME_LABELS,
  type LabEnvironment,
  type Runtime,
} from '@poolbench/contracts';
import type { ValidationProblem } from '../validate-scenario';
import { POOL_PARAM_DEFS, type PoolParamKey } from './param-defs';
import {
  POOL_PARAMS_SCHEMAS,
  POOL_STRATEGIES,
  PoolConfigSchema,
  type PoolConfig,
  type PoolStrategy,
} from './pool-config-schema';
import { validatePoolConfig } from './validate-pool-config';
import { poolConfigToArgs } from './pool-config-to-args';
import { poolStrategyMeta } from './strategy-meta';

/**
 * What each runtime of the lab target can honour (docs/runtimes.md): the strategies it implements
 * on each database, the pool params it maps onto its own pool, and the environment fields it can
 * be run under. A config asking for more is refused with the runtime named, never silently run
 * as something else.
 */
export interface RuntimeCapabilities {
  strategies: Record<LabDatabase, readonly PoolStrategy[]>;
  /** params honoured, per strategy; absent = every param of the strategy */
  params?: Partial<Record<PoolStrategy, readonly PoolParamKey[]>>;
  /** params honoured on a database only (e.g. a statement timeout only Postgres takes from Bun.sql) */
  onlyOn?: Partial<Record<PoolParamKey, LabDatabase>>;
  /** the smallest value the runtime's pool accepts (0 stays allowed where 0 means off) */
  floors?: Partial<Record<PoolParamKey, { min: number; zeroAllowed?: boolean; why: string }>>;
  /** environment fields that need this runtime's cooperation */
  cpuLimit: boolean;
  upload: boolean;
}

const ALL: readonly PoolStrategy[] = POOL_STRATEGIES;
const HIKARI: readonly PoolStrategy[] = [
  'fixed',
  'elastic',
  'prewarm',
  'partitioned',
  'priority',
  'borrowing',
  'adaptive',
];
const without = (strategy: PoolStrategy, ...drop: PoolParamKey[]): readonly PoolParamKey[] =>
  (Object.keys(POOL_PARAMS_SCHEMAS[strategy].shape) as PoolParamKey[]).filter(
    (k) => !drop.includes(k),
  );

export const RUNTIME_CAPABILITIES: Record<Runtime, RuntimeCapabilities> = {
  go: {
    strategies: {
      postgres: ALL,
      mariadb: ['per-request', 'pool-per-request', 'lazy', 'fixed', 'elastic', 'prewarm'],
    },
    params: { 'per-request': without('per-request', 'maxConns') },
    cpuLimit: true,
    upload: true,
  },
  'java-hikari': {
    strategies: { postgres: HIKARI, mariadb: HIKARI },
    // Hikari's housekeeper runs every 30 s (not a pool property); there is no /upload.
    params: Object.fromEntries(
      HIKARI.map((s) => [s, without(s, 'healthCheckPeriodMs', 'upstreamConns')]),
    ),
    // HikariCP's own lower bounds: it would silently raise smaller values, which is not what was asked for
    floors: {
      idleTimeoutMs: { min: 10_000, why: "HikariCP's idleTimeout minimum" },
      maxLifetimeMs: { min: 30_000, zeroAllowed: true, why: "HikariCP's maxLifetime minimum" },
      keepaliveMs: { min: 30_000, why: "HikariCP's keepaliveTime minimum" },
      acquireTimeoutMs: {
        min: 250,
        zeroAllowed: true,
        why: "HikariCP's connectionTimeout minimum",
      },
    },
    cpuLimit: true,
    upload: false,
  },
  bun: {
    strategies: {
      postgres: ['per-request', 'lazy', 'fixed', 'prewarm'],
      mariadb: ['per-request', 'lazy', 'fixed', 'prewarm'],
    },
    params: {
      'per-request': ['connectTimeoutMs', 'statementTimeoutMs'],
      lazy: [
        'maxConns',
        'acquireTimeoutMs',
        'connectTimeoutMs',
        'idleTimeoutMs',
        'maxLifetimeMs',
        'statementTimeoutMs',
      ],
      fixed: [
        'maxConns',
        'acquireTimeoutMs',
        'connectTimeoutMs',
        'maxLifetimeMs',
        'statementTimeoutMs',
      ],
      prewarm: [
        'maxConns',
        'acquireTimeoutMs',
        'connectTimeoutMs',
        'maxLifetimeMs',
        'statementTimeoutMs',
        'keepaliveMs',
      ],
    },
    onlyOn: { statementTimeoutMs: 'postgres' },
    cpuLimit: false,
    upload: false,
  },
  'php-fpm': {
    strategies: { postgres: ['per-request', 'fixed'], mariadb: ['per-request', 'fixed'] },
    params: {
      'per-request': ['maxConns', 'connectTimeoutMs', 'statementTimeoutMs'],
      fixed: ['maxConns', 'connectTimeoutMs', 'statementTimeoutMs'],
    },
    cpuLimit: false,
    upload: false,
  },
};

export function runtimeOf(env: LabEnvironment | null | undefined): Runtime {
  return env?.runtime ?? 'go';
}
export function databaseOf(env: LabEnvironment | null | undefined): LabDatabase {
  return env?.database ?? 'postgres';
}

/**
 * What a managed target's runtime on its database can do, for forms: the strategies it supports
 * (in the UI's order) and, per strategy, the params it honours. The server refuses the rest
 * (`runtimeProblems`), so a form that offers only these cannot meet that refusal.
 */
export function runtimeOffer(env: LabEnvironment | null | undefined) {
  const runtime = runtimeOf(env);
  const database = databaseOf(env);
  const supported = RUNTIME_CAPABILITIES[runtime].strategies[database];
  return {
    runtime,
    database,
    strategies: ALL.filter((s) => supported.includes(s)),
    honours: (strategy: PoolStrategy, key: PoolParamKey) =>
      honoured(runtime, database, strategy).has(key),
  };
}

function honoured(
  runtime: Runtime,
  database: LabDatabase,
  strategy: PoolStrategy,
): Set<PoolParamKey> {
  const caps = RUNTIME_CAPABILITIES[runtime];
  const keys = caps.params?.[strategy] ?? without(strategy);
  return new Set(keys.filter((k) => !caps.onlyOn?.[k] || caps.onlyOn[k] === database));
}

/**
 * Why this config cannot run on the resolved runtime and database (empty = it can). A param the
 * runtime does not honour is refused once it differs from the strategy's default: left at the
 * default it is simply not passed, and the runtime's own behaviour applies (docs/runtimes.md).
 */
export function runtimeProblems(config: PoolConfig, env: LabEnvironment): ValidationProblem[] {
  const runtime = runtimeOf(env);
  const database = databaseOf(env);
  const caps = RUNTIME_CAPABILITIES[runtime];
  const supported = caps.strategies[database];
  if (!supported.includes(config.strategy)) {
    return [
      {
        path: 'strategy',
        message: `${config.strategy} is not supported by the ${runtime} runtime on ${database === 'mariadb' ? 'MariaDB' : 'Postgres'} (supported: ${supported.join(', ')})`,
      },
    ];
  }
  const out: ValidationProblem[] = [];
  const ok = honoured(runtime, database, config.strategy);
  const defaults = new Map(poolStrategyMeta(config.strategy).params.map((m) => [m.key, m.default]));
  const params: Partial<Record<PoolParamKey, number>> = config.params;
  for (const key of Object.keys(POOL_PARAM_DEFS) as PoolParamKey[]) {
    const value = params[key];
    if (value === undefined || ok.has(key) || value === defaults.get(key)) continue;
    const where = caps.onlyOn?.[key]
      ? ` on ${database === 'mariadb' ? 'MariaDB' : 'Postgres'}`
      : '';
    out.push({
      path: `params.${key}`,
      message: `the ${runtime} runtime cannot honour ${POOL_PARAM_DEFS[key].label.toLowerCase()} with strategy ${config.strategy}${where}; leave it at its default (docs/runtimes.md)`,
    });
  }
  for (const [key, floor] of Object.entries(caps.floors ?? {}) as Array<
    [PoolParamKey, { min: number; zeroAllowed?: boolean; why: string }]
  >) {
    const value = params[key];
    if (
      value === undefined ||
      !ok.has(key) ||
      value >= floor.min ||
      (value === 0 && floor.zeroAllowed)
    )
      continue;
    out.push({
      path: `params.${key}`,
      message: `must be at least ${floor.min} ms on the ${runtime} runtime (${floor.why})${floor.zeroAllowed ? '; 0 turns it off' : ''}`,
    });
  }
  if (env.cpuLimit !== undefined && !caps.cpuLimit)
    out.push({
      path: 'environment.cpuLimit',
      message: `the ${runtime} runtime has no CPU limit setting`,
    });
  if (env.blobstoreDelayMs !== undefined && !caps.upload)
    out.push({
      path: 'environment.blobstoreDelayMs',
      message: `the ${runtime} runtime has no /upload, so no blob store`,
    });
  return out;
}

/**
 * The params of a managed run's pool config that its runtime did not apply, for run pages: a
 * config may hold a param the runtime cannot honour only at the strategy's default, and then the
 * param is not passed and the runtime's own behaviour applies. Unknown strategies (an older
 * snapshot) report nothing.
 */
export function paramsNotApplied(
  strategy: string | undefined,
  keys: readonly string[],
  env: LabEnvironment | null | undefined,
): { runtime: Runtime; label: string; keys: string[] } {
  const runtime = runtimeOf(env);
  const label = RUNTIME_LABELS[runtime];
  const known = ALL.find((s) => s === strategy);
  if (!known) return { runtime, label, keys: [] };
  const ok = honoured(runtime, databaseOf(env), known);
  return { runtime, label, keys: keys.filter((k) => ![...ok].some((h) => h === k)) };
}

/** The flags of one instance: the lab-target contract's, only those the runtime honours. */
export function runtimeArgs(config: PoolConfig, env: LabEnvironment): string[] {
  const ok = honoured(runtimeOf(env), databaseOf(env), config.strategy);
  const flags = new Set([...ok].map((k) => POOL_PARAM_DEFS[k].flag));
  return poolConfigToArgs(config).filter((a) => {
    const m = /^--([a-z-]+)=/.exec(a);
    return !m || m[1] === 'strategy' || flags.has(m[1]!);
  });
}

/**
 * A stored pool config checked against the managed target it runs on: its own schema first, then
 * what the resolved runtime and database can honour. Used at save, at launch and by the worker.
 */
export function poolConfigProblemsOnTarget(
  raw: unknown,
  targetEnvironment: unknown,
): ValidationProblem[] {
  const own = validatePoolConfig(raw);
  if (own.length > 0) return own;
  const config = PoolConfigSchema.parse(raw);
  const target = LabEnvironmentSchema.safeParse(targetEnvironment ?? {});
  if (!target.success)
    return [
      {
        path: 'target.environment',
        message: "the target's environment is invalid; edit the target",
      },
    ];
  return runtimeProblems(config, resolveLabEnvironment(target.data, config.environment));
}
