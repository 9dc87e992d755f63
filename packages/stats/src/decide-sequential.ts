import {
  type CompareOptions,
  type ResolvedOptions,
  type Scale,
  resolveOptions,
} from './compare-options';
import { median } from './descriptive';
import { hodgesLehmann } from './hodges-lehmann';
import { mannWhitneyU } from './mann-whitney';
import {
  type ResolvedSequentialDesign,
  type SequentialDesign,
  type SequentialMetricSamples,
  resolveSequentialDesign,
} from './sequential-design';
import { type SpendingBoundary, spendingBoundaries } from './spending-boundaries';
import type { Direction } from './verdict';

export type SequentialDecision =
  | 'better'
  | 'worse'
  | 'no-difference-within-floor'
  | 'short-of-claim'
  | 'continue'
  | 'undecided-budget-reached';

/** What one look at one metric saw. The p-values are one-sided, each against `boundary`. */
export interface SequentialLook {
  /** Pairs looked at (per side). */
  pairs: number;
  /** Values used: runs with a value for this metric among those pairs. */
  runs: { baseline: number; candidate: number };
  /** Share of the information of N complete pairs this look has. */
  informationFraction: number;
  /** This look's critical value for each one-sided test: p ≤ nominalP decides. */
  boundary: { nominalP: number; z: number };
  /** Alpha of this metric spent up to and including this look, both directions together. */
  alphaSpent: number;
  /** Standardized Mann–Whitney statistic of candidate against baseline (positive: candidate higher). */
  z: number;
  /** p of "the candidate is higher by more than the floor" (null hypothesis: it is not). */
  pIncrease: number;
  /** p of "the candidate is lower by more than the floor". */
  pDecrease: number;
  /** p of "the change lies inside the floor both ways" (the larger of two one-sided p's); 1 without a floor. */
  pWithinFloor: number;
  /**
   * With a claim: p of "the candidate is not beyond the floor the claimed way" (null hypothesis:
   * it is); 1 without a claim.
   */
  pShortOfClaim: number;
}

export interface SequentialMetricDecision {
  name: string;
  decision: SequentialDecision;
  direction: Direction;
  scale: Scale;
  /** The look that decided, else the latest planned look so far; null before the first look. */
  look: SequentialLook | null;
  /** Pairs finished so far (at least `look.pairs`: a decided metric ignores later pairs). */
  pairsSoFar: number;
  /** This metric's share of the design's alpha (alpha / number of metrics). */
  alpha: number;
  /**
   * Hodges–Lehmann change at `look` with the repeated interval of that look's level
   * (1 − 2·nominalP): in percent on the log scale, in the metric's units on the linear scale.
   */
  change: { estimate: number; lower: number; upper: number; confidence: number } | null;
  changeUnit: 'percent' | 'units';
  /** The practical floor on the scale used (log of the ratio, or units). */
  floor: number;
  /** One plain sentence saying why. */
  reason: string;
}

const DECIDED: readonly SequentialDecision[] = [
  'better',
  'worse',
  'no-difference-within-floor',
  'short-of-claim',
];

/** True for better, worse, no-difference-within-floor and short-of-claim: no more pairs needed. */
export function isSequentialDecided(d: SequentialDecision): boolean {
  return DECIDED.includes(d);
}

// Boundaries depend only on the information fractions and the level: cached across calls.
const boundaryCache = new Map<string, SpendingBoundary[]>();

function boundariesFor(fractions: readonly number[], alpha: number): SpendingBoundary[] {
  const key = `${alpha}|${fractions.map((t) => t.toFixed(9)).join(',')}`;
  let hit = boundaryCache.get(key);
  if (!hit) {
    hit = spendingBoundaries(fractions, alpha);
    if (boundaryCache.size > 500) boundaryCache.clear();
    boundaryCache.set(key, hit);
  }
  return hit;
}

const present = (values: readonly (number | null)[], pairs: number): number[] =>
  values.slice(0, pairs).filter((v): v is number => v !== null);

function checkValues(values: readonly (number | null)[], where: string): void {
  values.forEach((v, i) => {
    if (v !== null && !Number.isFinite(v))
      throw new RangeError(`${where}[${i}] is ${v}; a run's value must be finite or null`);
  });
}

/**
 * Information of a Mann–Whitney look at m against n values, m·n / (m + n + 1), as a share of N
 * against N. Under the null, U on nested samples (m₁, n₁) ⊂ (m₂, n₂) has covariance
 * m₁·n₁·(m₂ + n₂ + 1) / 12, so the standardized statistics have exactly the correlation
 * √(I₁ / I₂) of Brownian motion at this information, which the boundaries assume. (m·n / (m + n)
 * overstates the correlation of early looks and let the false-positive rate drift above alpha.)
 */
function informationFraction(m: number, n: number, maxPairs: number): number {
  if (m === 0 || n === 0) return 0;
  return Math.min(1, (m * n * (2 * maxPairs + 1)) / ((m + n + 1) * maxPairs * maxPairs));
}

interface Tails {
  upper: number;
  lower: number;
}

/**
 * One-sided Mann–Whitney p-values of x against y, P(U ≥ u) and P(U ≤ u), from the normal
 * approximation with the tie-corrected variance and continuity correction: the statistic the
 * boundaries are computed for. The exact distribution is not used on purpose: its tails are
 * lighter than the normal's, and with exact p-values the small early looks rejected more often
 * than the Brownian model behind the boundaries allows (5.3 % false positives at alpha 0.05 in
 * 20 000 A/A sequences of 15 pairs; 4.7 % with this approximation).
 */
function tails(x: readonly number[], y: readonly number[]): Tails & { z: number } {
  const t = mannWhitneyU(x, y, 'asymptotic');
  const d = t.u - (x.length * y.length) / 2;
  const near = t.pValue / 2;
  const far = 1 - near;
  return { upper: d > 0 ? near : far, lower: d < 0 ? near : far, z: t.z ?? 0 };
}

interface LookData {
  look: SequentialLook;
  x: number[];
  y: number[];
  scale: Scale;
  floor: number;
  outcome: 'increase' | 'decrease' | 'within' | 'short' | null;
}

function evaluateLook(
  pairs: number,
  x: number[],
  y: number[],
  opts: ResolvedOptions,
  boundary: SpendingBoundary,
  claim: SequentialMetricSamples['claim'],
): LookData {
  const all = [...x, ...y];
  const scale: Scale = opts.scale === 'linear' || !all.every((v) => v > 0) ? 'linear' : 'log';
  const floor =
    scale === 'log'
      ? Math.log1p(opts.floorPercent / 100)
      : (opts.absoluteFloor ?? (opts.floorPercent / 100) * Math.abs(y.length ? median(y) : 0));
  const tx = scale === 'log' ? x.map(Math.log) : x;
  const ty = scale === 'log' ? y.map(Math.log) : y;
  const look: SequentialLook = {
    pairs,
    runs: { baseline: y.length, candidate: x.length },
    informationFraction: boundary.fraction,
    boundary: { nominalP: boundary.nominalP, z: boundary.z },
    alphaSpent: 2 * boundary.spent,
    z: 0,
    pIncrease: 1,
    pDecrease: 1,
    pWithinFloor: 1,
    pShortOfClaim: 1,
  };
  const data: LookData = { look, x: tx, y: ty, scale, floor, outcome: null };
  if (x.length < 2 || y.length < 2) return data;
  look.z = tails(tx, ty).z;
  const up = tails(
    tx.map((v) => v - floor),
    ty,
  );
  const down =
    floor === 0
      ? up
      : tails(
          tx.map((v) => v + floor),
          ty,
        );
  look.pIncrease = up.upper;
  look.pDecrease = down.lower;
  look.pWithinFloor = floor > 0 ? Math.max(up.lower, down.upper) : 1;
  // "not higher by more than the floor" is the lower tail of the upward-shifted test, and "not
  // lower by more than the floor" the upper tail of the downward-shifted one
  if (claim) look.pShortOfClaim = claim === 'increase' ? up.lower : down.upper;
  const pi = boundary.nominalP;
  if (pi > 0) {
    if (look.pIncrease <= pi) data.outcome = 'increase';
    else if (look.pDecrease <= pi) data.outcome = 'decrease';
    else if (look.pWithinFloor <= pi) data.outcome = 'within';
    else if (look.pShortOfClaim <= pi) data.outcome = 'short';
  }
  return data;
}

function fmtP(p: number): string {
  return p < 0.001 ? p.toExponential(1) : p.toPrecision(2);
}

function signed(v: number, digits: number): string {
  const s = v.toFixed(digits);
  return v > 0 && Number(s) !== 0 ? `+${s}` : s;
}

function describeChange(
  c: SequentialMetricDecision['change'],
  unit: SequentialMetricDecision['changeUnit'],
): string {
  if (!c) return '';
  const u = unit === 'percent' ? ' %' : '';
  const d = unit === 'percent' ? 1 : 4;
  return `; change ${signed(c.estimate, d)}${u} (${+(100 * c.confidence).toPrecision(4)} % repeated interval ${signed(c.lower, d)}${u} … ${signed(c.upper, d)}${u})`;
}

function describe(
  r: SequentialMetricDecision,
  design: ResolvedSequentialDesign,
  opts: ResolvedOptions,
  claim: SequentialMetricSamples['claim'],
): string {
  const look = r.look;
  if (!look) return `no look yet: the first look comes after ${design.looks[0]} pair(s)`;
  const band =
    r.scale === 'log'
      ? `${opts.floorPercent} % floor`
      : `floor of ${+r.floor.toPrecision(3)} in the metric's units`;
  const where = `after ${look.pairs} of at most ${design.maxPairs} pairs (${look.runs.baseline} baseline and ${look.runs.candidate} candidate values)`;
  const boundary = `this look's boundary p ≤ ${fmtP(look.boundary.nominalP)} (O'Brien–Fleming-type spending; ${fmtP(look.alphaSpent)} of this metric's α = ${fmtP(r.alpha)} spent so far)`;
  const change = describeChange(r.change, r.changeUnit);
  switch (r.decision) {
    case 'better':
    case 'worse': {
      const up = look.pIncrease <= look.boundary.nominalP;
      const p = up ? look.pIncrease : look.pDecrease;
      return `${r.decision}: ${where} the candidate is ${up ? 'higher' : 'lower'} by more than the ${band}, one-sided p = ${fmtP(p)} meets ${boundary}${change}`;
    }
    case 'no-difference-within-floor':
      return `no difference beyond the ${band}: ${where} the change lies inside the floor both ways, p = ${fmtP(look.pWithinFloor)} meets ${boundary}${change}`;
    case 'short-of-claim':
      return `short of the claim: ${where} the candidate is not ${claim === 'increase' ? 'higher' : 'lower'} by more than the ${band}, one-sided p = ${fmtP(look.pShortOfClaim)} meets ${boundary}${change}`;
    case 'continue':
    case 'undecided-budget-reached': {
      const best = Math.min(look.pIncrease, look.pDecrease, look.pWithinFloor, look.pShortOfClaim);
      const what =
        look.runs.baseline < 2 || look.runs.candidate < 2
          ? 'fewer than 2 values per side, no test yet'
          : `the smallest one-sided p, ${fmtP(best)}, does not meet ${boundary}`;
      return r.decision === 'continue'
        ? `continue: ${where} ${what}${change}`
        : `undecided with all ${design.maxPairs} pairs: ${what}${change}; the difference is too close to the ${band} or the runs too noisy for this budget`;
    }
  }
}

/**
 * Sequential (group-sequential) decision for one comparison of two configurations measured in
 * interleaved pairs, valid however often it is asked: the chance of a false better/worse stays at
 * most the design's alpha over all looks and metrics together, which re-running `compareMetrics`
 * after each extension does not give.
 *
 * Method, per metric: two one-sided Mann–Whitney tests of the shift against the practical floor
 * (candidate higher than the baseline by more than the floor; lower by more than the floor) on the
 * scale `compareSamples` would use, plus, when the floor is above 0, the equivalence test (inside the
 * floor both ways), and, for a metric with a directional `claim`, the claim's refutation (the
 * candidate not beyond the floor the claimed way: the same shifted test, its other tail). Each is
 * tested at every planned look against the nominal level of a
 * Lan–DeMets O'Brien–Fleming-type spending boundary for one-sided level alpha / (2·metrics),
 * computed over the looks' information fractions (∝ m·n / (m + n + 1)). The first look at which one
 * test passes decides the metric for good; at the last look (maxPairs) an undecided metric is
 * `undecided-budget-reached`. Rank tests make the null distribution free of the shape of the run
 * values (skewed latencies, outliers); the exact Mann–Whitney distribution is used without ties, so
 * small early looks are conservative rather than optimistic. Across metrics the alpha is split
 * equally (Bonferroni), valid under any dependence between metrics. Stopping a test for a decision
 * of another kind only removes chances to err, so the equivalence stop needs no extra alpha. The
 * refutation's own error, "short of the claim" when the candidate is beyond the floor the claimed
 * way, is a one-sided test at the same boundaries: at most alpha / (2·metrics) over all looks.
 *
 * Pair i is (baseline[i], candidate[i]); only complete pairs are looked at, and the decision is
 * recomputed from the values alone (past looks are replayed), so callers keep no state.
 */
export function decideSequential(
  metrics: readonly SequentialMetricSamples[],
  design: SequentialDesign,
  shared: CompareOptions = {},
): SequentialMetricDecision[] {
  const d = resolveSequentialDesign(design);
  const alphaMetric = d.alpha / Math.max(1, metrics.length);
  const alphaSide = alphaMetric / 2;
  return metrics.map((metric) => {
    checkValues(metric.baseline, `${metric.name}.baseline`);
    checkValues(metric.candidate, `${metric.name}.candidate`);
    const opts = resolveOptions({ ...shared, ...metric.options, alpha: d.alpha });
    const pairsSoFar = Math.min(metric.baseline.length, metric.candidate.length);
    if (pairsSoFar > d.maxPairs)
      throw new RangeError(
        `${metric.name}: ${pairsSoFar} pairs exceed maxPairs (${d.maxPairs}); a sequential design cannot look past its budget`,
      );
    // Looks with new information so far, and their fractions (the last planned look counts as 1).
    const looks: { pairs: number; x: number[]; y: number[]; t: number }[] = [];
    for (const k of d.looks) {
      if (k > pairsSoFar) break;
      const x = present(metric.candidate, k);
      const y = present(metric.baseline, k);
      const t =
        k === d.maxPairs && x.length > 0 && y.length > 0
          ? 1
          : informationFraction(x.length, y.length, d.maxPairs);
      if (t > (looks.at(-1)?.t ?? 0)) looks.push({ pairs: k, x, y, t });
    }
    const boundaries = boundariesFor(
      looks.map((l) => l.t),
      alphaSide,
    );
    let last: LookData | null = null;
    for (let i = 0; i < looks.length; i++) {
      const l = looks[i]!;
      last = evaluateLook(l.pairs, l.x, l.y, opts, boundaries[i]!, metric.claim);
      if (last.outcome) break;
    }
    const up = opts.direction === 'lower-is-better' ? 'worse' : 'better';
    const downward = up === 'worse' ? 'better' : 'worse';
    const decision: SequentialDecision =
      last?.outcome === 'increase'
        ? up
        : last?.outcome === 'decrease'
          ? downward
          : last?.outcome === 'within'
            ? 'no-difference-within-floor'
            : last?.outcome === 'short'
              ? 'short-of-claim'
              : pairsSoFar === d.maxPairs
                ? 'undecided-budget-reached'
                : 'continue';
    const scale = last?.scale ?? (opts.scale === 'linear' ? 'linear' : 'log');
    const result: SequentialMetricDecision = {
      name: metric.name,
      decision,
      direction: opts.direction,
      scale,
      look: last?.look ?? null,
      pairsSoFar,
      alpha: alphaMetric,
      change: null,
      changeUnit: scale === 'log' ? 'percent' : 'units',
      floor: last?.floor ?? 0,
      reason: '',
    };
    if (last && last.x.length > 0 && last.y.length > 0) {
      const confidence = Math.min(1 - 2 * last.look.boundary.nominalP, 1 - 1e-12);
      const hl = hodgesLehmann(last.x, last.y, confidence, 'asymptotic');
      const show = (v: number) => (scale === 'log' ? 100 * Math.expm1(v) : v);
      result.change = {
        estimate: show(hl.estimate),
        lower: show(hl.lower),
        upper: show(hl.upper),
        confidence: hl.achievedConfidence,
      };
    }
    result.reason = describe(result, d, opts, metric.claim);
    return result;
  });
}
