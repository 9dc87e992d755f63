/**
 * Exact null distribution of the Mann–Whitney U statistic for sample sizes m and n without ties.
 *
 * The counts of U = u are the coefficients of the Gaussian binomial [m + n choose m]_q =
 * ∏_{i=1..m} (1 − q^{n+i}) / (1 − q^i). Harding (1984, Applied Statistics 33:1) builds it one
 * factor at a time: multiply by (1 − q^{n+i}), then divide by (1 − q^i), O(m · m·n) steps instead
 * of the O((m·n)²) of the usual recursion. Both operations only look at lower powers, so the series
 * is cut at ⌊m·n/2⌋ and the upper half comes from the symmetry P(U = u) = P(U = m·n − u). The tail
 * counts are small integers computed exactly; middle ones carry ~1e-15 relative rounding.
 */
const cache = new Map<string, Float64Array>();

/** P(U <= u) for u = 0 … ⌊m·n/2⌋. */
function lowerHalfCdf(m: number, n: number): Float64Array {
  const small = Math.min(m, n);
  const large = Math.max(m, n);
  const key = `${small},${large}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const mn = small * large;
  const half = Math.floor(mn / 2);
  const c = new Float64Array(half + 1);
  c[0] = 1;
  for (let i = 1; i <= small; i++) {
    const k = large + i;
    for (let u = half; u >= k; u--) c[u] = (c[u] as number) - (c[u - k] as number);
    for (let u = i; u <= half; u++) c[u] = (c[u] as number) + (c[u - i] as number);
  }
  let lower = 0;
  for (let u = 0; u <= half; u++) lower += c[u] as number;
  // Symmetry: total = 2·Σ_{u <= half} c_u, less the middle term counted twice when m·n is even.
  const total = 2 * lower - (mn % 2 === 0 ? (c[half] as number) : 0);
  const cdf = new Float64Array(half + 1);
  let run = 0;
  for (let u = 0; u <= half; u++) {
    run += c[u] as number;
    cdf[u] = run / total;
  }
  cache.set(key, cdf);
  return cdf;
}

/** P(U <= u) under H0 for sizes m, n (R's `pwilcox`). */
export function pMannWhitney(u: number, m: number, n: number): number {
  const mn = m * n;
  const q = Math.floor(u);
  if (q < 0) return 0;
  if (q >= mn) return 1;
  const cdf = lowerHalfCdf(m, n);
  if (q < cdf.length) return cdf[q] as number;
  return 1 - (cdf[mn - q - 1] as number);
}

/**
 * Smallest u with P(U <= u) >= p (R's `qwilcox`, including its 10·ε fuzz so that probabilities
 * that are equal in exact arithmetic compare equal here too).
 */
export function qMannWhitney(p: number, m: number, n: number): number {
  const target = p - 10 * Number.EPSILON;
  for (let u = 0; u < m * n; u++) if (pMannWhitney(u, m, n) >= target) return u;
  return m * n;
}
