/**
 * Gunther's Universal Scalability Law, X(N) = λ₁·N / (1 + σ(N − 1) + κN(N − 1)): throughput at
 * concurrency N (here the pool size) with λ₁ the throughput of one, σ the contention (serial
 * share) and κ the coherency (crosstalk) cost. With κ > 0 throughput peaks at N* = √((1 − σ)/κ)
 * and falls beyond it; with κ = 0 it rises towards λ₁/σ.
 */

export interface UslPoint {
  n: number;
  throughput: number;
}

export interface UslParameters {
  lambda1: number;
  sigma: number;
  kappa: number;
}

export interface UslFit extends UslParameters {
  kind: 'fit';
  /** N* = √((1 − σ)/κ); null when κ = 0 (no peak: throughput never falls). */
  peakN: number | null;
  /** 1 − SS_res / SS_tot; null when every throughput is the same (nothing to explain). */
  rSquared: number | null;
  residuals: { n: number; observed: number; fitted: number }[];
}

export type UslRefusalReason =
  'too-few-distinct-n' | 'invalid-n' | 'invalid-throughput' | 'no-throughput';

export interface UslRefusal {
  kind: 'refused';
  reason: UslRefusalReason;
  message: string;
}

/** Throughput the USL predicts at concurrency n. */
export function uslThroughput(p: UslParameters, n: number): number {
  return (p.lambda1 * n) / (1 + p.sigma * (n - 1) + p.kappa * n * (n - 1));
}

/** N* = √((1 − σ)/κ), or null when κ = 0. */
export function uslPeakN(p: UslParameters): number | null {
  return p.kappa > 0 ? Math.sqrt((1 - p.sigma) / p.kappa) : null;
}

function sse(points: readonly UslPoint[], p: UslParameters): number {
  let s = 0;
  for (const pt of points) s += (pt.throughput - uslThroughput(p, pt.n)) ** 2;
  return s;
}

/** Best λ₁ for fixed σ, κ: linear least squares of X on g(N) = N / D(N). */
function profiledLambda1(points: readonly UslPoint[], sigma: number, kappa: number): number {
  let xg = 0;
  let gg = 0;
  for (const pt of points) {
    const g = uslThroughput({ lambda1: 1, sigma, kappa }, pt.n);
    xg += pt.throughput * g;
    gg += g * g;
  }
  return Math.max(0, xg / gg);
}

/**
 * Start for the local search: a grid over σ in [0, 1] (steps of 0.01) and κ in {0} ∪ 10^[−8, 0]
 * (steps of 0.1 in the exponent), λ₁ solved exactly for each pair. Throughput is nonlinear in σ
 * and κ with long flat valleys, so a local method alone can settle far from the best fit.
 */
function gridStart(points: readonly UslPoint[]): UslParameters {
  let best: UslParameters = { lambda1: 0, sigma: 0, kappa: 0 };
  let bestSse = Number.POSITIVE_INFINITY;
  const kappas = [0];
  for (let e = -80; e <= 0; e++) kappas.push(10 ** (e / 10));
  for (let i = 0; i <= 100; i++) {
    const sigma = i / 100;
    for (const kappa of kappas) {
      const lambda1 = profiledLambda1(points, sigma, kappa);
      const s = sse(points, { lambda1, sigma, kappa });
      if (s < bestSse) {
        bestSse = s;
        best = { lambda1, sigma, kappa };
      }
    }
  }
  return best;
}

/** Solves the small dense system a·x = b by Gaussian elimination with partial pivoting. */
function solve(a: number[][], b: number[]): number[] | null {
  const n = b.length;
  const m = a.map((row, i) => [...row, b[i] as number]);
  for (let col = 0; col < n; col++) {
    let pivot = col;
    for (let r = col + 1; r < n; r++)
      if (Math.abs(m[r]![col]!) > Math.abs(m[pivot]![col]!)) pivot = r;
    if (m[pivot]![col] === 0) return null;
    [m[col], m[pivot]] = [m[pivot]!, m[col]!];
    for (let r = col + 1; r < n; r++) {
      const f = m[r]![col]! / m[col]![col]!;
      for (let k = col; k <= n; k++) m[r]![k]! -= f * m[col]![k]!;
    }
  }
  const x = new Array<number>(n).fill(0);
  for (let r = n - 1; r >= 0; r--) {
    let s = m[r]![n]!;
    for (let k = r + 1; k < n; k++) s -= m[r]![k]! * x[k]!;
    x[r] = s / m[r]![r]!;
  }
  return x;
}

const LOWER = [0, 0, 0];
const UPPER = [Number.POSITIVE_INFINITY, 1, Number.POSITIVE_INFINITY];

const toVector = (p: UslParameters): number[] => [p.lambda1, p.sigma, p.kappa];
const fromVector = (v: readonly number[]): UslParameters => ({
  lambda1: v[0] as number,
  sigma: v[1] as number,
  kappa: v[2] as number,
});

/**
 * Levenberg–Marquardt on (λ₁, σ, κ) with Marquardt's scaling (damping μ·diag(JᵀJ)) and the box
 * λ₁, κ ≥ 0, 0 ≤ σ ≤ 1: a parameter on a bound whose descent direction points out of the box is
 * held there for the step (active set), and every step is clipped into the box. A step is taken
 * only when it lowers the sum of squares.
 */
function levenbergMarquardt(points: readonly UslPoint[], start: UslParameters): UslParameters {
  let v = toVector(start);
  let current = sse(points, fromVector(v));
  let mu = 1e-3;
  for (let iter = 0; iter < 500 && current > 0; iter++) {
    const p = fromVector(v);
    const jtj = [0, 1, 2].map(() => [0, 0, 0]);
    const jtr = [0, 0, 0];
    for (const pt of points) {
      const n = pt.n;
      const d = 1 + p.sigma * (n - 1) + p.kappa * n * (n - 1);
      const f = (p.lambda1 * n) / d;
      const j = [n / d, (-f * (n - 1)) / d, (-f * n * (n - 1)) / d];
      const r = pt.throughput - f;
      for (let a = 0; a < 3; a++) {
        jtr[a]! += j[a]! * r;
        for (let b = 0; b < 3; b++) jtj[a]![b]! += j[a]! * j[b]!;
      }
    }
    const free = [0, 1, 2].filter(
      (i) => !((v[i]! <= LOWER[i]! && jtr[i]! <= 0) || (v[i]! >= UPPER[i]! && jtr[i]! >= 0)),
    );
    if (free.length === 0) break;
    let improved = false;
    while (mu < 1e12) {
      const a = free.map((i) => free.map((k) => jtj[i]![k]! + (i === k ? mu * jtj[i]![i]! : 0)));
      const step = solve(
        a,
        free.map((i) => jtr[i]!),
      );
      if (!step) break;
      const next = [...v];
      free.forEach((i, k) => {
        next[i] = Math.min(UPPER[i]!, Math.max(LOWER[i]!, v[i]! + step[k]!));
      });
      const s = sse(points, fromVector(next));
      if (s < current) {
        const gain = current - s;
        v = next;
        current = s;
        mu = Math.max(mu / 3, 1e-12);
        improved = gain > 1e-15 * current;
        break;
      }
      mu *= 4;
    }
    if (!improved) break;
  }
  return fromVector(v);
}

function refuse(reason: UslRefusalReason, message: string): UslRefusal {
  return { kind: 'refused', reason, message };
}

/**
 * Fits the USL to measured throughput by nonlinear least squares (grid start, then
 * Levenberg–Marquardt within λ₁, κ ≥ 0 and 0 ≤ σ ≤ 1). Several points may share an N (repeated
 * runs). Refuses, with a named reason, fewer than 3 distinct N (three parameters), an N that is not
 * a finite number of at least 1, a throughput that is negative or not finite, and data where every
 * throughput is 0. Throughput that is the same at every N is fitted exactly by σ = 1, κ = 0 (no
 * scaling at all), with rSquared null.
 */
export function fitUsl(points: readonly UslPoint[]): UslFit | UslRefusal {
  for (const [i, pt] of points.entries()) {
    if (!(Number.isFinite(pt.n) && pt.n >= 1))
      return refuse('invalid-n', `point ${i} has N = ${pt.n}; N must be a finite number ≥ 1`);
    if (!(Number.isFinite(pt.throughput) && pt.throughput >= 0))
      return refuse(
        'invalid-throughput',
        `point ${i} has throughput ${pt.throughput}; throughput must be finite and ≥ 0`,
      );
  }
  const distinct = new Set(points.map((pt) => pt.n)).size;
  if (distinct < 3)
    return refuse(
      'too-few-distinct-n',
      `${distinct} distinct N; the three USL parameters need at least 3`,
    );
  if (points.every((pt) => pt.throughput === 0))
    return refuse('no-throughput', 'every throughput is 0; there is no scaling to fit');
  const p = levenbergMarquardt(points, gridStart(points));
  const mean = points.reduce((s, pt) => s + pt.throughput, 0) / points.length;
  const ssTot = points.reduce((s, pt) => s + (pt.throughput - mean) ** 2, 0);
  const ssRes = sse(points, p);
  return {
    kind: 'fit',
    ...p,
    peakN: uslPeakN(p),
    rSquared: ssTot > 0 ? 1 - ssRes / ssTot : null,
    residuals: points.map((pt) => ({
      n: pt.n,
      observed: pt.throughput,
      fitted: uslThroughput(p, pt.n),
    })),
  };
}
