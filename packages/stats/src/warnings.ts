/** Stable codes, so the UI and CI can react to a warning without parsing its message. */
export type WarningCode =
  | 'too-few-runs'
  | 'p-floor-above-alpha'
  | 'confidence-not-reachable'
  | 'ties'
  | 'all-tied'
  | 'exact-unavailable'
  | 'linear-scale'
  | 'baseline-median-zero';

export interface StatsWarning {
  code: WarningCode;
  message: string;
}

/** Smallest equal number of runs per side for which the exact two-sided test can reach p < alpha. */
export function runsNeededFor(alpha: number): number {
  // 2 / C(2r, r) < alpha; C(2r, r) grows ~4^r, so the loop is short.
  let c = 2; // C(2, 1)
  for (let r = 1; r < 64; r++) {
    if (2 / c < alpha) return r;
    c = (c * (2 * r + 1) * (2 * r + 2)) / ((r + 1) * (r + 1));
  }
  return 64;
}
