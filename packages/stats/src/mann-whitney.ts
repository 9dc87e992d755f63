import { pMannWhitney } from './mann-whitney-distribution';
import { pnorm } from './normal';
import { rank, sigmaU, tieTerm } from './ranks';

export type TestMethod = 'exact' | 'asymptotic';
export type MethodChoice = 'auto' | TestMethod;

/** Below this size on both sides and without ties, `auto` uses the exact distribution (as R does). */
export const EXACT_MAX_N = 50;
/** `exact` on request is honoured up to this many pairs (C(m + n, m) must stay a finite double). */
export const EXACT_MAX_PAIRS = 40_000;

/**
 * Smallest two-sided p-value any test of m against n distinct runs can give: every candidate run
 * beyond every baseline run, probability 2 / C(m + n, m) under the null.
 */
export function minPossiblePValue(m: number, n: number): number {
  let c = 1;
  for (let i = 1; i <= Math.min(m, n); i++) c = (c * (Math.max(m, n) + i)) / i;
  return Math.min(1, 2 / c);
}

export interface MannWhitneyResult {
  /** U of the first sample: pairs (x, y) with x > y, plus half the ties. */
  u: number;
  method: TestMethod;
  /** Two-sided p-value. */
  pValue: number;
  /** Normal score with continuity correction (asymptotic method only). */
  z: number | null;
  /** True when some values are equal across the pooled sample. */
  hasTies: boolean;
  /** True when `exact` was asked for but ties (or more than EXACT_MAX_PAIRS pairs) prevent it. */
  exactUnavailable: boolean;
}

function asymptoticP(u: number, m: number, n: number, sigma: number): { p: number; z: number } {
  if (sigma === 0) return { p: 1, z: 0 };
  const d = u - (m * n) / 2;
  const z = (d - 0.5 * Math.sign(d)) / sigma;
  return { p: Math.min(1, 2 * pnorm(-Math.abs(z))), z };
}

/**
 * Two-sided Mann–Whitney U (Wilcoxon rank-sum) test of x against y.
 *
 * Exact: the permutation distribution of U, valid without ties. Asymptotic: normal approximation
 * with the tie-corrected variance and a continuity correction of ½ towards the mean, identical to
 * R's `wilcox.test(correct = TRUE)` and SciPy's `mannwhitneyu(method='asymptotic',
 * use_continuity=True)`. When all values are equal there is no evidence of a difference and the
 * p-value is 1 (R returns NaN).
 */
export function mannWhitneyU(
  x: readonly number[],
  y: readonly number[],
  method: MethodChoice = 'auto',
): MannWhitneyResult {
  const m = x.length;
  const n = y.length;
  if (m === 0 || n === 0)
    throw new RangeError('Mann–Whitney U needs at least one value on each side');
  const { ranks, tieSizes } = rank([...x, ...y]);
  let rx = 0;
  for (let i = 0; i < m; i++) rx += ranks[i] as number;
  const u = rx - (m * (m + 1)) / 2;
  const hasTies = tieSizes.length > 0;
  const exactPossible = !hasTies && m * n <= EXACT_MAX_PAIRS;
  const useExact =
    method === 'exact'
      ? exactPossible
      : method === 'auto' && exactPossible && m < EXACT_MAX_N && n < EXACT_MAX_N;
  if (useExact) {
    const tail = Math.min(u, m * n - u);
    return {
      u,
      method: 'exact',
      pValue: Math.min(1, 2 * pMannWhitney(tail, m, n)),
      z: null,
      hasTies,
      exactUnavailable: false,
    };
  }
  const sigma = sigmaU(m, n, tieTerm(tieSizes));
  const { p, z } = asymptoticP(u, m, n, sigma);
  return {
    u,
    method: 'asymptotic',
    pValue: p,
    z,
    hasTies,
    exactUnavailable: method === 'exact',
  };
}
