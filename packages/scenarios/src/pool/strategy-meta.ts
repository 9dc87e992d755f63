import { z } from 'zod';
import { POOL_PARAMS_SCHEMAS, POOL_STRATEGIES, type PoolStrategy } from './pool-config-schema';
import { POOL_PARAM_DEFS, type PoolParamKey } from './param-defs';

export interface PoolParamMeta {
  key: PoolParamKey;
  flag: string;
  label: string;
  unit: 'connections' | 'ms' | 'count' | 'shards';
  help: string;
  min: number;
  max: number;
  /** undefined: the lab target derives it (e.g. from maxConns) */
  default: number | undefined;
}

export interface PoolStrategyMeta {
  strategy: PoolStrategy;
  label: string;
  description: string;
  params: PoolParamMeta[];
}

const TEXT: Record<PoolStrategy, { label: string; description: string }> = {
  'per-request': {
    label: 'Open/close per request',
    description:
      'No pool: every request opens and closes its own database connection. Seed 004 test 1: 63 % / 71 % failed with "too many clients" at -c 1 / -c 100.',
  },
  'pool-per-request': {
    label: 'New pool per request',
    description:
      'A throwaway pool (opening min connections) is built and closed for every request: the mistake of seed 004 test 2 (MaxConns 100, MinConns 5; 18-20 req/s, 6.4 % failed at -c 100).',
  },
  lazy: {
    label: 'Lazy (default)',
    description:
      'One shared pool that opens connections on demand, like Go\'s default http.Transport or database/sql: the "default" side of seed 000 and the pool of seed 002.',
  },
  prewarm: {
    label: 'Prewarmed',
    description:
      "All max connections opened at start-up (readiness waits for them) and kept warm with keepalive pings: seed 000's prewarm pool, seed 003's pre-warmed pool (min idle = max, keepalive 30 s, max lifetime 10 min).",
  },
  fixed: {
    label: 'Fixed (naive)',
    description:
      "Fixed size, FIFO wait queue, simple acquire timeout: seed 003's baseline (HikariCP max = min idle = 50, connection timeout 5 s).",
  },
  elastic: {
    label: 'Elastic',
    description:
      'Grows to max under load and shrinks to min after the idle timeout: seed 003 (min 20 / max 200, idle timeout 60 s); also the shared pgxpool of seed 004 (min 5 / max 20).',
  },
  adaptive: {
    label: 'Hybrid adaptive',
    description:
      "Grows by a step when the average acquire wait exceeds a threshold, shrinks after long idle capacity, serves X-Priority: high first: seed 003's winner (40..150, +10 when wait > 100 ms, -5 after 5 idle minutes).",
  },
  priority: {
    label: 'Priority queue',
    description:
      'Fixed pool whose waiters are served by the X-Priority request header (high before normal): seed 003 strategy 4.',
  },
  partitioned: {
    label: 'Partitioned',
    description:
      'One pool of max connections per shard, so a hot shard cannot starve the others: seed 003 strategy 3.',
  },
  borrowing: {
    label: 'Connection borrowing',
    description:
      'Primary pool that borrows from a secondary pool when exhausted: seed 003 strategy 5.',
  },
};

function defaultOf(schema: z.ZodType): number | undefined {
  if (schema instanceof z.ZodDefault) {
    const v: unknown = schema.def.defaultValue;
    return typeof v === 'number' ? v : undefined;
  }
  return undefined;
}

function objectShape(schema: z.ZodType): Record<string, z.ZodType> {
  // Refined objects are still ZodObjects in zod 4 (checks live on the same schema).
  if (schema instanceof z.ZodObject) return schema.shape as Record<string, z.ZodType>;
  throw new Error('pool params schema is not an object');
}

function buildMeta(strategy: PoolStrategy): PoolStrategyMeta {
  const shape = objectShape(POOL_PARAMS_SCHEMAS[strategy]);
  const params = (Object.keys(POOL_PARAM_DEFS) as PoolParamKey[])
    .filter((key) => key in shape)
    .map((key): PoolParamMeta => {
      const d = POOL_PARAM_DEFS[key];
      return {
        key,
        flag: `--${d.flag}`,
        label: d.label,
        unit: d.unit,
        help: d.help,
        min: d.min,
        max: d.max,
        default: defaultOf(shape[key] as z.ZodType),
      };
    });
  return { strategy, ...TEXT[strategy], params };
}

/** Per-strategy metadata for the UI's pool-config form, in the order of POOL_STRATEGIES. */
export const POOL_STRATEGY_META: PoolStrategyMeta[] = POOL_STRATEGIES.map(buildMeta);

export function poolStrategyMeta(strategy: PoolStrategy): PoolStrategyMeta {
  const m = POOL_STRATEGY_META.find((x) => x.strategy === strategy);
  if (!m) throw new Error(`unknown pool strategy ${strategy}`);
  return m;
}
