import { compareSamples, type SampleComparison } from './compare-samples';
import type { CompareOptions, Scale } from './compare-options';
import { median } from './descriptive';
import { runMetric } from './run-metrics';
import type { Direction } from './verdict';

export type HypothesisExpect = 'better' | 'worse' | 'equivalent';
/** `percent`: a relative band (±X % of the baseline); `absolute`: X in the metric's own unit (points for rates). */
export type HypothesisBandUnit = 'percent' | 'absolute';
export type HypothesisStatus = 'holds' | 'does_not_hold' | 'unresolved';

/** What a hypothesis says about candidate against base; structural, so `@poolbench/scenarios` types fit. */
export interface HypothesisRule {
  /** A run metric key (`RUN_METRICS`), whose direction says what `better` means. */
  metric: string;
  expect: HypothesisExpect;
  /** Smallest change that matters (better/worse) or the equivalence half-width (equivalent). */
  band: number;
  /** Default `percent`, except `errorRate` whose values are percent already: points. */
  bandUnit?: HypothesisBandUnit;
  /** Overrides the metric's direction (for values that are not a run metric). */
  direction?: Direction;
}

export interface DecideHypothesisOptions {
  /** Significance level (default 0.05); the interval's confidence is 1 − alpha, as in the compare view. */
  alpha?: number;
  candidateName?: string;
  /** Unit of an absolute band and of a linear-scale change in the reason ("percentage points", "ms"). */
  unit?: string;
}

export interface HypothesisDecision {
  status: HypothesisStatus;
  /** Hodges–Lehmann change: percent on the log scale, metric units on the linear scale (`changeUnit`). */
  change: number | null;
  interval: { low: number; high: number } | null;
  changeUnit: 'percent' | 'units';
  /** Coverage the interval actually has (below 1 − alpha with few runs). */
  achievedConfidence: number | null;
  /** Two-sided Mann–Whitney p. */
  p: number | null;
  /** Smallest p any test can give with these run counts. */
  minP: number | null;
  reason: string;
  baseN: number;
  candidateN: number;
  baseMedian: number | null;
  candidateMedian: number | null;
  scale: Scale;
  /** Run pairs (base, candidate) pointing the hypothesis's way; null for equivalence. */
  agreeingPairs: number | null;
  /** The comparison behind the decision, for callers that show more. */
  comparison: SampleComparison | null;
}

const DEFAULT_ALPHA = 0.05;

/** The unit a band is given in when the caller does not say: rates are compared in points. */
export function defaultBandUnit(metric: string): HypothesisBandUnit {
  return metric === 'errorRate' ? 'absolute' : 'percent';
}

function fmt(x: number, digits = 0): string {
  return x.toLocaleString('en-US', {
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  });
}

/** `compareSamples` options of a hypothesis: the band is the practical floor, on a linear scale when absolute. */
export function hypothesisCompareOptions(
  rule: HypothesisRule,
  alpha = DEFAULT_ALPHA,
): CompareOptions & { direction: Direction } {
  const direction = rule.direction ?? runMetric(rule.metric)?.direction;
  if (!direction)
    throw new RangeError(`metric: unknown metric "${rule.metric}" and no direction given`);
  if (!(rule.band >= 0 && Number.isFinite(rule.band)))
    throw new RangeError(`band: must be a finite number >= 0, got ${rule.band}`);
  const unit = rule.bandUnit ?? defaultBandUnit(rule.metric);
  return unit === 'absolute'
    ? { direction, alpha, scale: 'linear', absoluteFloor: rule.band }
    : { direction, alpha, floorPercent: rule.band };
}

/**
 * The raw change a directional hypothesis claims, the candidate's value going up or down (its
 * metric's direction applied); none for an equivalence.
 */
export function claimedChange(rule: HypothesisRule): 'increase' | 'decrease' | undefined {
  if (rule.expect === 'equivalent') return undefined;
  const { direction } = hypothesisCompareOptions(rule);
  return (rule.expect === 'better') === (direction === 'lower-is-better') ? 'decrease' : 'increase';
}

/**
 * True when the whole interval lies on the near side of the band's edge in the claimed direction,
 * so no change as large as the band that way is compatible with the runs: the claim is refuted
 * (one-sided at α/2, as the sequential rule's `short-of-claim`) even when the interval reaches
 * outside the band the other way.
 */
function shortOfClaim(c: SampleComparison, rule: HypothesisRule): boolean {
  const claim = claimedChange(rule);
  if (!claim || !c.shift || !c.noChangeBand) return false;
  return claim === 'decrease'
    ? c.shift.lower > c.noChangeBand.lower
    : c.shift.upper < c.noChangeBand.upper;
}

/**
 * Decides a pre-registered hypothesis from one value per run on each side, under the rule the lab
 * bench used (apps/lab-targets/go/bench/summarize.mjs `judge()`, now here so the product decides):
 * Hodges–Lehmann change with its interval and a two-sided Mann–Whitney p from `compareSamples`,
 * the band as the no-change floor (log scale and ±X % by default; linear scale with an absolute
 * floor for `absolute` bands, e.g. error rates in points).
 * - better/worse: holds when the verdict is the expected one (interval beyond the band that way
 *   and p < α); does not hold when the interval lies inside the band, beyond it the other way
 *   (p < α), or anywhere short of the band's edge the expected way; otherwise unresolved, with the
 *   reason (too few runs, interval reaching into the band, p ≥ α).
 * - equivalent: holds when the whole interval lies inside the band; does not hold when a
 *   difference beyond the band is shown; otherwise unresolved.
 * Non-finite values (a run that lacks the metric) are left out, as judge() did.
 */
export function decideHypothesis(
  baseValues: readonly number[],
  candValues: readonly number[],
  rule: HypothesisRule,
  options: DecideHypothesisOptions = {},
): HypothesisDecision {
  const alpha = options.alpha ?? DEFAULT_ALPHA;
  const opts = hypothesisCompareOptions(rule, alpha);
  const xs = baseValues.filter(Number.isFinite);
  const ys = candValues.filter(Number.isFinite);
  const candName = options.candidateName ?? 'candidate';
  const bandUnit = rule.bandUnit ?? defaultBandUnit(rule.metric);
  const out: HypothesisDecision = {
    status: 'unresolved',
    change: null,
    interval: null,
    changeUnit: 'percent',
    achievedConfidence: null,
    p: null,
    minP: null,
    reason: '',
    baseN: xs.length,
    candidateN: ys.length,
    baseMedian: xs.length ? median(xs) : null,
    candidateMedian: ys.length ? median(ys) : null,
    scale: bandUnit === 'absolute' ? 'linear' : 'log',
    agreeingPairs: null,
    comparison: null,
  };
  if (xs.length < 2 || ys.length < 2) {
    out.reason = `no test with ${xs.length} vs ${ys.length} usable runs: at least 2 per side are needed, and more for p < ${alpha}`;
    return out;
  }
  const c = compareSamples(xs, ys, opts);
  out.comparison = c;
  out.scale = c.scale;
  out.p = c.pValue;
  out.minP = c.minPValue;
  out.achievedConfidence = c.achievedConfidence ?? c.confidence;
  if (c.scale === 'log' && c.changePercent) {
    out.change = c.changePercent.estimate;
    out.interval = { low: c.changePercent.lower, high: c.changePercent.upper };
    out.changeUnit = 'percent';
  } else if (c.shift) {
    out.change = c.shift.estimate;
    out.interval = { low: c.shift.lower, high: c.shift.upper };
    out.changeUnit = 'units';
  }
  const unit = options.unit ?? (rule.metric === 'errorRate' ? 'percentage points' : '');
  const band =
    bandUnit === 'absolute' && c.scale === 'linear'
      ? `±${fmt(rule.band, rule.band < 1 ? 2 : 0)} ${unit}`
          .trim()
          .replace('±1 percentage points', '±1 percentage point')
      : `±${fmt(rule.band, rule.band % 1 ? 1 : 0)} %`;
  const better = (y: number, x: number) => (opts.direction === 'lower-is-better' ? y < x : y > x);
  let agree = 0;
  if (rule.expect !== 'equivalent')
    for (const x of xs)
      for (const y of ys) if (rule.expect === 'better' ? better(y, x) : better(x, y)) agree++;
  out.agreeingPairs = rule.expect === 'equivalent' ? null : agree;
  const pairs = `${agree} of ${xs.length * ys.length} run pairs point the hypothesis's way`;
  // With ties the tie-corrected normal approximation can go below the exact permutation bound.
  const approx =
    c.pValue !== null && c.minPValue !== null && c.pValue < c.minPValue
      ? '; the p shown is the tie-corrected normal approximation, which can undercut that bound'
      : '';
  const minP = c.minPValue === null ? 'n/a' : fmt(c.minPValue, 3);
  const v = c.verdict;
  const set = (status: HypothesisStatus, reason: string) => Object.assign(out, { status, reason });
  // The reasons are judge()'s, word for word, with "the seed" read as "the hypothesis".
  if (rule.expect === 'equivalent') {
    if (v === 'no-change')
      set('holds', `the whole interval lies inside the ${band} no-change band`);
    else if (v === 'better' || v === 'worse')
      set('does_not_hold', `a difference beyond the ${band} band (${candName} ${v})`);
    else if (c.rule === 'insufficient')
      set(
        'unresolved',
        `too few repeats to show equivalence (${c.warnings[0]?.message ?? c.reason})`,
      );
    else
      set(
        'unresolved',
        `the interval reaches beyond the ${band} no-change band, so neither equal nor different is shown`,
      );
  } else if (v === rule.expect) {
    set(
      'holds',
      `the interval lies beyond the ${band} band in the hypothesis's direction and p < ${alpha}`,
    );
  } else if (v === 'no-change') {
    set(
      'does_not_hold',
      `the whole interval lies inside the ${band} band: no difference that matters`,
    );
  } else if (v === 'better' || v === 'worse') {
    set(
      'does_not_hold',
      `the opposite of the hypothesis: ${candName} is ${v} beyond the ${band} band, p < ${alpha}`,
    );
  } else if (c.rule !== 'insufficient' && shortOfClaim(c, rule)) {
    set(
      'does_not_hold',
      `the whole interval falls short of the ${band} band in the hypothesis's direction: ${candName} is not ${rule.expect} by more than the band`,
    );
  } else if (c.rule === 'insufficient') {
    set(
      'unresolved',
      `too few repeats for a test at α = ${alpha} (smallest possible exact p with ${xs.length} vs ${ys.length} runs is ${minP}${approx}); ${pairs}`,
    );
  } else if (c.rule === 'crosses-floor') {
    set('unresolved', `the interval reaches into the ${band} no-change band; ${pairs}`);
  } else {
    set('unresolved', `p ≥ ${alpha}; ${pairs}`);
  }
  return out;
}
