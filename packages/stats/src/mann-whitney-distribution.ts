/**
 * Exact null distribution of the Mann–Whitney U statistic for sample sizes m and n without ties:
 * cumulative probabilities P(U <= u), u = 0 … m·n.
 *
 * Counts follow the recursion f(i, j; u) = f(i − 1, j; u − j) + f(i, j − 1; u) (the largest of the
 * i + j values is either an x, beating all j y's, or a y). Only additions of positive numbers, so
 * doubles stay accurate even past 2^53.
 */
const cache = new Map<string, Float64Array>();

function cumulativeDistribution(m: number, n: number): Float64Array {
  const key = m <= n ? `${m},${n}` : `${n},${m}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const small = Math.min(m, n);
  const large = Math.max(m, n);
  // prev[j]: counts for (i − 1) x's and j y's, indexed by u.
  let prev: Float64Array[] = Array.from({ length: large + 1 }, () => Float64Array.of(1));
  for (let i = 1; i <= small; i++) {
    const cur: Float64Array[] = [Float64Array.of(1)];
    for (let j = 1; j <= large; j++) {
      const counts = new Float64Array(i * j + 1);
      const left = prev[j] as Float64Array;
      const down = cur[j - 1] as Float64Array;
      for (let u = 0; u < down.length; u++) counts[u] = down[u] as number;
      for (let u = 0; u < left.length; u++) counts[u + j] = (counts[u + j] as number) + (left[u] as number);
      cur.push(counts);
    }
    prev = cur;
  }
  const counts = prev[large] as Float64Array;
  let total = 0;
  for (const c of counts) total += c;
  const cdf = new Float64Array(counts.length);
  let run = 0;
  for (let u = 0; u < counts.length; u++) {
    run += counts[u] as number;
    cdf[u] = run / total;
  }
  cdf[cdf.length - 1] = 1;
  cache.set(key, cdf);
  return cdf;
}

/** P(U <= u) under H0 for sizes m, n (R's `pwilcox`). */
export function pMannWhitney(u: number, m: number, n: number): number {
  if (u < 0) return 0;
  if (u >= m * n) return 1;
  return cumulativeDistribution(m, n)[Math.floor(u)] as number;
}

/**
 * Smallest u with P(U <= u) >= p (R's `qwilcox`, including its 10·ε fuzz so that probabilities
 * that are equal in exact arithmetic compare equal here too).
 */
export function qMannWhitney(p: number, m: number, n: number): number {
  const cdf = cumulativeDistribution(m, n);
  const target = p - 10 * Number.EPSILON;
  for (let u = 0; u < cdf.length; u++) if ((cdf[u] as number) >= target) return u;
  return m * n;
}
