import { hodgesLehmann } from './hodges-lehmann';
import { moments, pooledTTest, type SampleMoments } from './student-t';

/**
 * Change points in a history (one value per firing or per run, in time order): E-divisive means
 * (Matteson & James 2014) as Apache Otava runs it (Fleming et al. 2023, "Hunter"):
 *
 * 1. **Split.** Windows of `windowLength` values, each half a window after the last (or at the
 *    last change point found): in each, the split that maximises the energy statistic Q̂ between
 *    the values before and after it is a candidate, kept when Student's two-sample t-test of the
 *    two sides gives p ≤ 10 × `maxPValue` (the "weak" change points), and the search repeats
 *    within the pieces.
 * 2. **Merge.** Each weak point is tested again between its neighbours; the weakest (largest p
 *    above `maxPValue`, else the smallest change under `minMagnitude`) is removed and its
 *    neighbours tested again, until every point stands.
 *
 * Where PoolBench differs from Otava 0.8 (docs/change-points.md says why): the t-test uses the
 * sample standard deviation (n − 1; Otava passes the population one, which makes p too small on
 * short segments); after a removal both neighbours of the removed point are tested again; and a
 * change point needs `minPerSide` values between it and its neighbours (or the series' ends), so a
 * single outlier is never a change.
 */

export interface ChangePointOptions {
  /** values per window of the split step (Otava's default 50) */
  windowLength?: number;
  /** a change point's t-test p-value must be at most this (Otava's default 0.001) */
  maxPValue?: number;
  /** a change point must move the mean by more than this relative amount (default 0) */
  minMagnitude?: number;
  /** values between a change point and its neighbours or the series' ends, at least (default 3) */
  minPerSide?: number;
}

export const CHANGE_POINT_DEFAULTS: Required<ChangePointOptions> = {
  windowLength: 50,
  maxPValue: 0.001,
  minMagnitude: 0,
  minPerSide: 3,
};

export interface ChangePoint {
  /** index of the first value after the change */
  index: number;
  /** Student's t-test of the values between the previous and this change point against those between this and the next */
  pValue: number;
  before: SampleMoments;
  after: SampleMoments;
  /** relative change of the mean: after / before − 1 */
  change: number;
  /** max(|after/before − 1|, |before/after − 1|): what `minMagnitude` is compared with */
  magnitude: number;
  /**
   * The relative change as the Hodges–Lehmann shift of log values with its 95 % interval
   * (exp(shift) − 1), robust to an outlier on either side; null when a value is not positive.
   */
  shift: { estimate: number; lower: number; upper: number } | null;
}

interface Candidate {
  index: number;
  qhat: number;
}

/**
 * The best split of values[start:end): max over start < τ < κ <= end of
 * Q̂(τ, κ) = 2/(n+m) Σ|X_i − Y_j| − 2m/((n+m)(n−1)) Σ_{i<k}|X_i − X_k| − 2n/((n+m)(m−1)) Σ_{j<k}|Y_j − Y_k|
 * with X = values[start:τ] (n values) and Y = values[τ:κ] (m values); a term whose denominator is
 * 0 counts 0. Ties go to the smallest τ, then the smallest κ (numpy's argmax order, as Otava).
 */
function bestSplit(values: readonly number[], start: number, end: number): Candidate {
  let best: Candidate = { index: start + 1, qhat: -Infinity };
  let withinX = 0; // Σ_{i<k} |X_i − X_k| for X = values[start:τ]
  for (let tau = start + 1; tau < end; tau++) {
    const x = values[tau - 1]!;
    for (let i = start; i < tau - 1; i++) withinX += Math.abs(values[i]! - x);
    const n = tau - start;
    let cross = 0;
    let withinY = 0;
    for (let kappa = tau + 1; kappa <= end; kappa++) {
      const y = values[kappa - 1]!;
      for (let i = start; i < tau; i++) cross += Math.abs(values[i]! - y);
      for (let j = tau; j < kappa - 1; j++) withinY += Math.abs(values[j]! - y);
      const m = kappa - tau;
      const q =
        (2 / (n + m)) * cross -
        (n > 1 ? ((2 * m) / ((n + m) * (n - 1))) * withinX : 0) -
        (m > 1 ? ((2 * n) / ((n + m) * (m - 1))) * withinY : 0);
      if (q > best.qhat) best = { index: tau, qhat: q };
    }
  }
  return best;
}

/** The pieces between sorted change point indexes, over values[0:length). */
function pieces(indexes: readonly number[], length: number): Array<[number, number]> {
  const bounds = [0, ...indexes, length];
  const out: Array<[number, number]> = [];
  for (let i = 0; i + 1 < bounds.length; i++)
    if (bounds[i] !== bounds[i + 1]) out.push([bounds[i]!, bounds[i + 1]!]);
  return out;
}

interface Tested {
  index: number;
  pValue: number;
  before: SampleMoments;
  after: SampleMoments;
}

/** t-test of the piece ending at `index` against the piece starting there (or, inside a piece, its two halves). */
function testAt(values: readonly number[], index: number, spans: Array<[number, number]>): Tested {
  let left: [number, number] | null = null;
  let right: [number, number] | null = null;
  for (let i = 0; i < spans.length; i++) {
    const [s, e] = spans[i]!;
    if (e === index && spans[i + 1]) {
      left = spans[i]!;
      right = spans[i + 1]!;
      break;
    }
    if (s < index && index < e) {
      left = [s, index];
      right = [index, e];
      break;
    }
  }
  if (!left || !right) throw new RangeError(`no piece around index ${index}`);
  const before = moments(values.slice(left[0], left[1]));
  const after = moments(values.slice(right[0], right[1]));
  return { index, pValue: pooledTTest(before, after), before, after };
}

const magnitudeOf = (t: Tested) => {
  const f = t.before.mean === 0 ? 0 : t.after.mean / t.before.mean - 1;
  const b = t.after.mean === 0 ? 0 : t.before.mean / t.after.mean - 1;
  return Math.max(Math.abs(f), Math.abs(b));
};

/** E-divisive within values[start:end): the significant change points, in index order. */
function divisive(values: readonly number[], start: number, end: number, maxP: number): number[] {
  const window = values.slice(start, end);
  const found: number[] = [];
  for (;;) {
    const spans = pieces(found, window.length);
    let best: Candidate | null = null;
    for (const [s, e] of spans) {
      if (e - s < 2) continue;
      const c = bestSplit(window, s, e);
      if (!best || c.qhat > best.qhat) best = c;
    }
    if (!best) break;
    if (!(testAt(window, best.index, spans).pValue <= maxP)) break;
    found.push(best.index);
    found.sort((a, b) => a - b);
  }
  return found.map((i) => i + start);
}

/** Change points of a series (module comment): every one significant, in index order. */
export function changePoints(
  series: readonly number[],
  options: ChangePointOptions = {},
): ChangePoint[] {
  const o = { ...CHANGE_POINT_DEFAULTS, ...options };
  if (o.windowLength < 2) throw new RangeError('windowLength must be at least 2');
  if (series.some((v) => !Number.isFinite(v)))
    throw new RangeError('a series for change points holds finite numbers only');
  const values = [...series];
  const firstPass =
    o.maxPValue < 0.05 ? o.maxPValue * 10 : o.maxPValue < 0.5 ? o.maxPValue * 2 : o.maxPValue;

  // split
  const weak = new Set<number>();
  const step = Math.floor(o.windowLength / 2);
  let start = 0;
  while (start < values.length) {
    const end = Math.min(start + o.windowLength, values.length);
    const found = divisive(values, start, end, firstPass);
    for (const i of found) weak.add(i);
    start = Math.max(found.length ? found[found.length - 1]! : 0, start + step);
  }

  // merge
  let points = [...weak].sort((a, b) => a - b);
  const testAll = () => {
    const spans = pieces(points, values.length);
    return points.map((i) => testAt(values, i, spans));
  };
  let tested = testAll();
  const tooClose = (k: number) => {
    const prev = k === 0 ? 0 : points[k - 1]!;
    const next = k === points.length - 1 ? values.length : points[k + 1]!;
    return points[k]! - prev < o.minPerSide || next - points[k]! < o.minPerSide;
  };
  while (tested.length > 0) {
    let weakest = -1;
    // a point too close to a neighbour or an end goes first: the weakest of those
    for (let k = 0; k < tested.length; k++)
      if (tooClose(k) && (weakest < 0 || tested[k]!.pValue > tested[weakest]!.pValue)) weakest = k;
    if (weakest < 0) {
      weakest = 0;
      for (let k = 1; k < tested.length; k++)
        if (tested[k]!.pValue > tested[weakest]!.pValue) weakest = k;
      if (tested[weakest]!.pValue <= o.maxPValue) {
        weakest = 0;
        for (let k = 1; k < tested.length; k++)
          if (magnitudeOf(tested[k]!) < magnitudeOf(tested[weakest]!)) weakest = k;
        if (magnitudeOf(tested[weakest]!) > o.minMagnitude) break;
      }
    }
    points = points.filter((_, k) => k !== weakest);
    // the removed point's neighbours now border other pieces: test them again (all, cheaply)
    tested = testAll();
  }

  return tested.map((t) => {
    const change = t.before.mean === 0 ? 0 : t.after.mean / t.before.mean - 1;
    const k = points.indexOf(t.index);
    const lo = k === 0 ? 0 : points[k - 1]!;
    const hi = k === points.length - 1 ? values.length : points[k + 1]!;
    const left = values.slice(lo, t.index);
    const right = values.slice(t.index, hi);
    let shift: ChangePoint['shift'] = null;
    if ([...left, ...right].every((v) => v > 0)) {
      const method = left.length * right.length <= 2500 ? 'exact' : 'asymptotic';
      const hl = hodgesLehmann(right.map(Math.log), left.map(Math.log), 0.95, method);
      shift = {
        estimate: Math.exp(hl.estimate) - 1,
        lower: Math.exp(hl.lower) - 1,
        upper: Math.exp(hl.upper) - 1,
      };
    }
    return { ...t, change, magnitude: magnitudeOf(t), shift };
  });
}
