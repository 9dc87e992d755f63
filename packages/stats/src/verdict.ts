export type Direction = 'lower-is-better' | 'higher-is-better';
export type Verdict = 'better' | 'worse' | 'no-change' | 'inconclusive';

/**
 * Why a verdict was reached:
 * - `insufficient`: too few runs for the requested confidence or significance level;
 * - `within-floor`: the whole interval lies inside the no-change band;
 * - `beyond-floor`: the whole interval lies beyond the band on one side and p < α;
 * - `beyond-floor-not-significant`: the interval lies beyond the band but p >= α (happens with
 *   approximate intervals near the edge, or after a multiple-testing adjustment of p);
 * - `crosses-floor`: the interval straddles an edge of the band.
 */
export type VerdictRule =
  | 'insufficient'
  | 'within-floor'
  | 'beyond-floor'
  | 'beyond-floor-not-significant'
  | 'crosses-floor';

export interface Band {
  lower: number;
  upper: number;
}

export interface VerdictInput {
  /** Interval of the shift candidate − baseline, on the scale of `band`. */
  shift: Band | null;
  /** The no-change band on the same scale. */
  band: Band | null;
  pValue: number | null;
  alpha: number;
  direction: Direction;
  insufficient: boolean;
}

/**
 * The verdict rule (see README): `no-change` when the interval lies inside the band; `worse` or
 * `better` when the interval lies entirely beyond the band on one side AND p < α; otherwise
 * `inconclusive`. The comparisons are mirror images of each other, so swapping baseline and
 * candidate (which negates the interval) swaps better and worse and keeps the other two.
 */
export function decideVerdict(input: VerdictInput): { verdict: Verdict; rule: VerdictRule } {
  const { shift, band, pValue } = input;
  if (input.insufficient || shift === null || band === null || pValue === null) {
    return { verdict: 'inconclusive', rule: 'insufficient' };
  }
  if (shift.lower >= band.lower && shift.upper <= band.upper)
    return { verdict: 'no-change', rule: 'within-floor' };
  const increase = shift.lower > band.upper;
  const decrease = shift.upper < band.lower;
  if (!increase && !decrease) return { verdict: 'inconclusive', rule: 'crosses-floor' };
  if (!(pValue < input.alpha))
    return { verdict: 'inconclusive', rule: 'beyond-floor-not-significant' };
  const bad = input.direction === 'lower-is-better' ? increase : decrease;
  return { verdict: bad ? 'worse' : 'better', rule: 'beyond-floor' };
}
