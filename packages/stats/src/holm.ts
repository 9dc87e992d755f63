import { sortedPresent } from './sorted-p-values';

/**
 * Holm (1979) step-down adjustment: p̃(i) = max over j <= i of min(1, (m − j + 1)·p(j)), as R's
 * `p.adjust(method = "holm")`. It controls the family-wise error rate (the chance of any false
 * "worse" among the family) at the level it is compared with, under any dependence. Nulls
 * (metrics without a test) are left out of m, like NA in R.
 */
export function holm(pValues: readonly (number | null)[]): (number | null)[] {
  const present = sortedPresent(pValues);
  const m = present.length;
  const adjusted: (number | null)[] = pValues.map(() => null);
  let running = 0;
  present.forEach((item, j) => {
    running = Math.max(running, Math.min(1, (m - j) * item.p));
    adjusted[item.i] = running;
  });
  return adjusted;
}
