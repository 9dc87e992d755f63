import { PoolConfigSchema, type PoolConfigInput } from './pool-config-schema';
import { POOL_PARAM_DEFS, type PoolParamKey } from './param-defs';

/**
 * lab-target flags for a pool config, as the contract says: `--strategy=<s>`, then every param
 * as `--<kebab-case>=<n>` with durations as `<n>ms`. Defaults are applied first, so every flag
 * PoolBench relies on is explicit. instanceCount is not a flag: the worker starts that many
 * processes. Throws a ZodError if the config is invalid.
 */
export function poolConfigToArgs(input: PoolConfigInput): string[] {
  const config = PoolConfigSchema.parse(input);
  const args = [`--strategy=${config.strategy}`];
  const params: Partial<Record<PoolParamKey, number>> = config.params;
  for (const key of Object.keys(POOL_PARAM_DEFS) as PoolParamKey[]) {
    const value = params[key];
    if (value === undefined) continue;
    const def = POOL_PARAM_DEFS[key];
    args.push(`--${def.flag}=${value}${def.isDuration ? 'ms' : ''}`);
  }
  return args;
}
