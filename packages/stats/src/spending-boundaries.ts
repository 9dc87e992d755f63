import { pnorm, qnorm } from './normal';

/**
 * Lan–DeMets (1983) O'Brien–Fleming-type spending function for a one-sided level `alpha`:
 * α(t) = 2 − 2·Φ(z_{1−α/2} / √t), the share of `alpha` a group-sequential test may have used by
 * information fraction t (α(1) = alpha). It spends almost nothing early (α(0.2) is 0.00001 of
 * 0.025), so the last look keeps nearly the fixed design's critical value.
 */
export function obrienFlemingSpent(t: number, alpha: number): number {
  if (!(t > 0)) return 0;
  if (t >= 1) return alpha;
  return 2 * pnorm(-qnorm(1 - alpha / 2) / Math.sqrt(t));
}

export interface SpendingBoundary {
  /** Information fraction of the look, in (0, 1]. */
  fraction: number;
  /** Critical value on the standard normal scale: reject when Z ≥ z (Infinity: no rejection). */
  z: number;
  /** The same as a one-sided nominal p-value: reject when p ≤ nominalP. */
  nominalP: number;
  /** α(fraction): what the test may have spent up to and including this look. */
  spent: number;
}

// Points per look of the numerical integration: boundaries agree with gsDesign to 1e-4.
const GRID = 401;
// Density below −TAIL standard deviations of the score is dropped (mass ~1e-15).
const TAIL = 8;

function dnorm(x: number): number {
  return Math.exp((-x * x) / 2) / Math.sqrt(2 * Math.PI);
}

/** Simpson weights for an odd number of equally spaced points. */
function simpson(count: number, step: number): Float64Array {
  const w = new Float64Array(count);
  for (let i = 0; i < count; i++)
    w[i] = ((i === 0 || i === count - 1 ? 1 : i % 2 ? 4 : 2) * step) / 3;
  return w;
}

interface Density {
  s: Float64Array;
  f: Float64Array;
  w: Float64Array;
}

/**
 * Upper one-sided group-sequential boundaries for looks at the given information fractions (strictly
 * increasing, the last ≤ 1) so that a test spends exactly α(t_k) − α(t_{k−1}) at look k under the
 * null, for statistics Z_k that behave like Brownian motion in information (the canonical joint
 * distribution of Jennison & Turnbull 2000, ch. 3: standardized rank-sum statistics at growing
 * sample sizes have it asymptotically). The crossing probabilities come from the recursive numerical
 * integration of Armitage, McPherson & Rowe (1969) on the score scale S_k = Z_k·√t_k, whose
 * increments are independent N(0, t_k − t_{k−1}).
 */
export function spendingBoundaries(
  fractions: readonly number[],
  alpha: number,
  spent: (t: number, alpha: number) => number = obrienFlemingSpent,
): SpendingBoundary[] {
  if (!(alpha > 0 && alpha < 1)) throw new RangeError(`alpha must be in (0, 1), got ${alpha}`);
  const out: SpendingBoundary[] = [];
  let previous: Density | null = null;
  let tPrev = 0;
  let spentPrev = 0;
  for (const t of fractions) {
    if (!(t > tPrev && t <= 1))
      throw new RangeError(
        `information fractions must increase within (0, 1], got ${fractions.join(', ')}`,
      );
    const spentNow = spent(t, alpha);
    const target = spentNow - spentPrev;
    const sd = Math.sqrt(t - tPrev);
    const root = Math.sqrt(t);
    const prev = previous;
    // P(continue so far and S_k ≥ c·√t): the mass of the previous density pushed above the line.
    const crossing = (c: number): number => {
      if (prev === null) return pnorm(-c);
      let sum = 0;
      for (let i = 0; i < prev.s.length; i++)
        sum +=
          (prev.w[i] as number) *
          (prev.f[i] as number) *
          pnorm(((prev.s[i] as number) - c * root) / sd);
      return sum;
    };
    let z: number;
    if (target <= 1e-15 || crossing(40) >= target) {
      z = Number.POSITIVE_INFINITY;
    } else {
      let lo = -10;
      let hi = 40;
      for (let i = 0; i < 100 && hi - lo > 1e-10; i++) {
        const mid = (lo + hi) / 2;
        if (crossing(mid) > target) lo = mid;
        else hi = mid;
      }
      z = (lo + hi) / 2;
    }
    const nominalP = z === Number.POSITIVE_INFINITY ? 0 : pnorm(-z);
    out.push({ fraction: t, z, nominalP, spent: spentNow });
    // The density of S_k on the continuation region S_k < z·√t.
    const lower = -TAIL * root;
    const upper = Math.min(z * root, TAIL * root);
    const s = new Float64Array(GRID);
    const step = (upper - lower) / (GRID - 1);
    for (let i = 0; i < GRID; i++) s[i] = lower + i * step;
    const f = new Float64Array(GRID);
    for (let j = 0; j < GRID; j++) {
      const x = s[j] as number;
      if (prev === null) {
        f[j] = dnorm(x / root) / root;
        continue;
      }
      let sum = 0;
      for (let i = 0; i < prev.s.length; i++)
        sum +=
          (prev.w[i] as number) * (prev.f[i] as number) * dnorm((x - (prev.s[i] as number)) / sd);
      f[j] = sum / sd;
    }
    previous = { s, f, w: simpson(GRID, step) };
    tPrev = t;
    spentPrev = spentNow;
  }
  return out;
}
