/**
 * Student's t distribution, for the two-sample t-test the change-point search uses.
 * The regularized incomplete beta function by its continued fraction (modified Lentz), as in
 * Numerical Recipes §6.4; log-gamma by Lanczos (g = 7, n = 9).
 */

const LANCZOS = [
  0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313,
  -176.61502916214059, 12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6,
  1.5056327351493116e-7,
];

export function logGamma(x: number): number {
  if (x < 0.5) return Math.log(Math.PI / Math.abs(Math.sin(Math.PI * x))) - logGamma(1 - x);
  const z = x - 1;
  let a = LANCZOS[0]!;
  const t = z + 7.5;
  for (let i = 1; i < 9; i++) a += LANCZOS[i]! / (z + i);
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(a);
}

function betaContinuedFraction(a: number, b: number, x: number): number {
  const tiny = 1e-300;
  let c = 1;
  let d = 1 - ((a + b) * x) / (a + 1);
  if (Math.abs(d) < tiny) d = tiny;
  d = 1 / d;
  let h = d;
  for (let m = 1; m <= 300; m++) {
    const m2 = 2 * m;
    let aa = (m * (b - m) * x) / ((a + m2 - 1) * (a + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < tiny) d = tiny;
    c = 1 + aa / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    h *= d * c;
    aa = (-(a + m) * (a + b + m) * x) / ((a + m2) * (a + m2 + 1));
    d = 1 + aa * d;
    if (Math.abs(d) < tiny) d = tiny;
    c = 1 + aa / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    const del = d * c;
    h *= del;
    if (Math.abs(del - 1) < 1e-15) break;
  }
  return h;
}

/** The regularized incomplete beta function I_x(a, b). */
export function incompleteBeta(x: number, a: number, b: number): number {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const lnFront =
    logGamma(a + b) - logGamma(a) - logGamma(b) + a * Math.log(x) + b * Math.log(1 - x);
  if (x < (a + 1) / (a + b + 2)) return (Math.exp(lnFront) * betaContinuedFraction(a, b, x)) / a;
  return 1 - (Math.exp(lnFront) * betaContinuedFraction(b, a, 1 - x)) / b;
}

/** P(|T| >= |t|) for T ~ Student's t with `df` degrees of freedom. */
export function studentTTwoSided(t: number, df: number): number {
  if (!Number.isFinite(t)) return Number.isNaN(t) ? NaN : 0;
  return incompleteBeta(df / (df + t * t), df / 2, 0.5);
}

export interface SampleMoments {
  n: number;
  mean: number;
  /** sample standard deviation (n − 1); 0 for one value */
  sd: number;
}

export function moments(values: readonly number[]): SampleMoments {
  const n = values.length;
  const mean = values.reduce((s, v) => s + v, 0) / n;
  if (n < 2) return { n, mean, sd: 0 };
  const ss = values.reduce((s, v) => s + (v - mean) ** 2, 0);
  return { n, mean, sd: Math.sqrt(ss / (n - 1)) };
}

/**
 * Two-sided p-value of Student's two-sample t-test with pooled variance. No degrees of freedom
 * (two values in all) is p = 1; no spread on either side is p = 0 when the means differ, 1 when not.
 */
export function pooledTTest(a: SampleMoments, b: SampleMoments): number {
  const df = a.n + b.n - 2;
  if (df < 1) return 1;
  const pooled = ((a.n - 1) * a.sd ** 2 + (b.n - 1) * b.sd ** 2) / df;
  const se = Math.sqrt(pooled * (1 / a.n + 1 / b.n));
  if (se === 0) return a.mean === b.mean ? 1 : 0;
  return studentTTwoSided((a.mean - b.mean) / se, df);
}
