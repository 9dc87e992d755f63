import { sortedPresent } from './sorted-p-values';

export interface BhResult {
  /** BH-adjusted p-values (q-values) in input order; null where the input was null. */
  adjusted: (number | null)[];
  /** adjusted <= q, i.e. discoveries with the false discovery rate controlled at q. */
  significant: boolean[];
}

/**
 * Benjamini–Hochberg (1995) step-up adjustment: p̃(i) = min over j >= i of m·p(j)/j, capped at 1,
 * as R's `p.adjust(method = "BH")`. Nulls (metrics without a test) are left out of m, like NA in R.
 */
export function benjaminiHochberg(pValues: readonly (number | null)[], q = 0.05): BhResult {
  if (!(q > 0 && q < 1)) throw new RangeError(`q must be in (0, 1), got ${q}`);
  const present = sortedPresent(pValues);
  const m = present.length;
  const adjusted: (number | null)[] = pValues.map(() => null);
  let running = 1;
  for (let r = m; r >= 1; r--) {
    const item = present[r - 1] as { p: number; i: number };
    running = Math.min(running, (m * item.p) / r);
    adjusted[item.i] = running;
  }
  return { adjusted, significant: adjusted.map((a) => a !== null && a <= q) };
}
