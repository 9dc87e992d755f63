import type { CheckCounts, K6Check, RunChecks, SecondChecks } from '@poolbench/contracts';

export type { CheckCounts, K6Check, RunChecks, SecondChecks };
const keyOf = (c: Pick<K6Check, 'group' | 'name'>) => `${c.group}\u0000${c.name}`;

/** Adds seconds' checks up into one RunChecks; null when none of them had a check. */
export function sumChecks(seconds: Iterable<SecondChecks | null | undefined>): RunChecks | null {
  const byKey = new Map<string, K6Check>();
  let overflow: CheckCounts | undefined;
  let any = false;
  for (const s of seconds) {
    if (!s) continue;
    for (const c of s.items) {
      any = true;
      const k = keyOf(c);
      const into = byKey.get(k);
      if (into) {
        into.passes += c.passes;
        into.fails += c.fails;
      } else byKey.set(k, { ...c });
    }
    if (s.overflow && s.overflow.passes + s.overflow.fails > 0) {
      any = true;
      overflow ??= { passes: 0, fails: 0 };
      overflow.passes += s.overflow.passes;
      overflow.fails += s.overflow.fails;
    }
  }
  if (!any) return null;
  const items = [...byKey.values()];
  const passes = items.reduce((n, c) => n + c.passes, overflow?.passes ?? 0);
  const fails = items.reduce((n, c) => n + c.fails, overflow?.fails ?? 0);
  return { passes, fails, items, ...(overflow ? { overflow } : {}) };
}

/** k6's `checks` rate: the share of check samples that passed; null without any. */
export function checkPassRate(c: CheckCounts | null | undefined): number | null {
  if (!c) return null;
  const n = c.passes + c.fails;
  return n > 0 ? c.passes / n : null;
}
