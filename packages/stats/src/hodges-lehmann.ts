import { pMannWhitney, qMannWhitney } from './mann-whitney-distribution';
import { type TestMethod } from './mann-whitney';
import { pnorm, qnorm } from './normal';
import { rank, sigmaU, tieTerm } from './ranks';
import { medianSorted } from './descriptive';

export interface ShiftInterval {
  /** Hodges–Lehmann estimate of the shift x − y: the median of all pairwise differences. */
  estimate: number;
  lower: number;
  upper: number;
  /** 1-based order k: the interval is [D(k), D(m·n + 1 − k)] of the sorted differences D. */
  k: number;
  /**
   * Coverage of this interval: exact for the exact method, from the normal approximation
   * otherwise. Below the requested level only when even [min D, max D] cannot reach it.
   */
  achievedConfidence: number;
  /** True when the sample is too small for the requested level and the widest interval is used. */
  widest: boolean;
}

/**
 * Hodges–Lehmann shift estimate with the distribution-free confidence interval of Moses (1953) /
 * Bauer (1972): order statistics of the m·n differences x_i − y_j, the order taken from the
 * Mann–Whitney distribution.
 *
 * Exact method: k = qwilcox(α/2, m, n), at least 1, and coverage 1 − 2·P(U <= k − 1), exactly as
 * R's `wilcox.test(conf.int = TRUE)`. Asymptotic method: k = ⌊m·n/2 + ½ − z·σ⌋ with the
 * continuity correction and the variance of R's interval inversion, whose ties are those inside
 * each sample (ties between samples only occur at the jump points). That is the step where R's
 * `uniroot` search lands, computed without the search's 1e-4 tolerance.
 */
export function hodgesLehmann(
  x: readonly number[],
  y: readonly number[],
  confidence: number,
  method: TestMethod,
): ShiftInterval {
  const m = x.length;
  const n = y.length;
  if (m === 0 || n === 0) throw new RangeError('a shift needs at least one value on each side');
  if (!(confidence > 0 && confidence < 1))
    throw new RangeError(`confidence must be in (0, 1), got ${confidence}`);
  const mn = m * n;
  const diffs = new Float64Array(mn);
  let i = 0;
  for (const xi of x) for (const yj of y) diffs[i++] = xi - yj;
  diffs.sort();
  const d = Array.from(diffs);
  const estimate = medianSorted(d);
  const alpha = 1 - confidence;

  let k: number;
  let achieved: (k: number) => number;
  if (method === 'exact') {
    k = qMannWhitney(alpha / 2, m, n);
    achieved = (kk) => 1 - 2 * pMannWhitney(kk - 1, m, n);
  } else {
    const sigma = sigmaU(m, n, tieTerm(rank(x).tieSizes) + tieTerm(rank(y).tieSizes));
    const z = qnorm(1 - alpha / 2);
    k = Math.floor(mn / 2 + 0.5 - z * sigma);
    achieved = (kk) => (sigma === 0 ? 0 : 1 - 2 * pnorm((kk - 0.5 - mn / 2) / sigma));
  }
  const widest = k < 1;
  if (widest) k = 1;
  return {
    estimate,
    lower: d[k - 1] as number,
    upper: d[mn - k] as number,
    k,
    achievedConfidence: achieved(k),
    widest,
  };
}
