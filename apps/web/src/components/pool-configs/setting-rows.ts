import { poolStrategyMeta, PoolConfigSchema, type PoolStrategy } from '@poolbench/scenarios';
import { formatParam } from './format-param';

interface ConfigLike {
  strategy: string;
  params: Record<string, number>;
  instanceCount: number;
}

/** Effective values (defaults filled in by the shared schema), so a diff shows what runs get. */
function effective(c: ConfigLike): Record<string, number | undefined> {
  const parsed = PoolConfigSchema.safeParse({
    strategy: c.strategy,
    params: c.params,
    instanceCount: c.instanceCount,
  });
  return parsed.success ? parsed.data.params : c.params;
}

/**
 * Two pool configs setting by setting, [label, a, b], defaults filled in: strategy, instances,
 * then every param either strategy has ("Max connections", "10", "20").
 */
export function settingRows(A: ConfigLike, B: ConfigLike): Array<[string, string, string]> {
  const ea = effective(A);
  const eb = effective(B);
  const keys = [...new Set([...Object.keys(ea), ...Object.keys(eb)])];
  const meta = (k: string) => {
    for (const s of [A.strategy, B.strategy]) {
      try {
        const p = poolStrategyMeta(s as PoolStrategy).params.find((x) => x.key === k);
        if (p) return p;
      } catch {
        // a strategy this build does not know: the key stands for itself
      }
    }
    return undefined;
  };
  return [
    ['Strategy', A.strategy, B.strategy],
    ['Instances', String(A.instanceCount), String(B.instanceCount)],
    ...keys.map((k): [string, string, string] => [
      meta(k)?.label ?? k,
      ea[k] === undefined ? '—' : formatParam(meta(k)?.unit, ea[k]),
      eb[k] === undefined ? '—' : formatParam(meta(k)?.unit, eb[k]),
    ]),
  ];
}
