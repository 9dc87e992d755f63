import { qnorm } from './normal';

export interface RateInterval {
  estimate: number;
  lower: number;
  upper: number;
}

function checkCounts(k: number, n: number): void {
  if (!(Number.isInteger(k) && Number.isInteger(n) && n > 0 && k >= 0 && k <= n)) {
    throw new RangeError(`need integers 0 <= k <= n and n > 0, got k=${k}, n=${n}`);
  }
}

/**
 * Wilson (1927) score interval for a proportion k/n, e.g. failed requests of one run. Unlike the
 * Wald interval it stays inside [0, 1] and keeps its coverage at k = 0, which is the common case
 * for error rates. Note that requests within a run are not independent trials, so this describes
 * one run; compare configurations with `compareSamples` on per-run rates.
 */
export function wilsonInterval(k: number, n: number, confidence = 0.95): RateInterval {
  checkCounts(k, n);
  if (!(confidence > 0 && confidence < 1))
    throw new RangeError(`confidence must be in (0, 1), got ${confidence}`);
  const z = qnorm(1 - (1 - confidence) / 2);
  const p = k / n;
  const z2n = (z * z) / n;
  const center = (p + z2n / 2) / (1 + z2n);
  const half = (z / (1 + z2n)) * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n));
  return {
    estimate: p,
    lower: k === 0 ? 0 : Math.max(0, center - half),
    upper: k === n ? 1 : Math.min(1, center + half),
  };
}

/**
 * Newcombe (1998) hybrid score interval ("method 10") for the difference of two independent
 * proportions k1/n1 − k2/n2, built from the two Wilson intervals. Same caveat about independence
 * as `wilsonInterval`.
 */
export function newcombeDifference(
  k1: number,
  n1: number,
  k2: number,
  n2: number,
  confidence = 0.95,
): RateInterval {
  const a = wilsonInterval(k1, n1, confidence);
  const b = wilsonInterval(k2, n2, confidence);
  const d = a.estimate - b.estimate;
  return {
    estimate: d,
    lower: d - Math.sqrt((a.estimate - a.lower) ** 2 + (b.upper - b.estimate) ** 2),
    upper: d + Math.sqrt((a.upper - a.estimate) ** 2 + (b.estimate - b.lower) ** 2),
  };
}
