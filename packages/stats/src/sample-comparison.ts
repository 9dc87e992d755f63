import type { Scale } from './compare-options';
import type { MannWhitneyResult } from './mann-whitney';
import type { Band, Direction, Verdict, VerdictRule } from './verdict';
import type { StatsWarning } from './warnings';

export interface Estimate {
  estimate: number;
  lower: number;
  upper: number;
}

export interface SampleComparison {
  baseline: { n: number; median: number | null };
  candidate: { n: number; median: number | null };
  direction: Direction;
  scale: Scale;
  /**
   * Hodges–Lehmann shift candidate − baseline with its interval, on the scale used: the log of the
   * ratio on `log`, metric units on `linear`.
   */
  shift: Estimate | null;
  /**
   * The same as a percent change of the candidate against the baseline: 100·(e^d − 1) on the log
   * scale; on the linear scale 100·d / |baseline median| (the median treated as known), or null
   * when the baseline median is 0.
   */
  changePercent: Estimate | null;
  /** The no-change band on the shift's scale. */
  noChangeBand: Band | null;
  /**
   * The floor the band was built from: `percent` (default 5) on the log scale, or on the linear
   * scale `absolute` in the metric's own units when set. An absolute floor in percent of a small
   * baseline can be much wider than `percent` (0.001 points of a 0.008 % error rate is ±12.5 %),
   * so reports say which floor they used.
   */
  floor: { percent: number; absolute: number | null };
  confidence: number;
  /** Coverage the reported interval actually has (see `ShiftInterval.achievedConfidence`). */
  achievedConfidence: number | null;
  alpha: number;
  test: MannWhitneyResult | null;
  /** Two-sided Mann–Whitney p-value (after adjustment when it comes from `compareMetrics`). */
  pValue: number | null;
  /** Smallest p-value any test could give with these run counts: 2 / C(m + n, m). */
  minPValue: number | null;
  verdict: Verdict;
  rule: VerdictRule;
  /** One sentence for humans saying why. */
  reason: string;
  /** True when there are too few runs for a verdict at the requested levels. */
  insufficient: boolean;
  warnings: StatsWarning[];
}
