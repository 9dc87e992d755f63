import type { HypothesisVerdict } from '@poolbench/scenarios';

/** One seed claim and the product's verdict on it (the seeds page, `make seeds`). */
export interface SeedClaimResult extends HypothesisVerdict {
  claim: string | null;
  statement: string;
  /** the compare view of the two cells (base first), in the hypothesis's window */
  comparePath: string;
  /** `stored`: decided by the product when the experiment ended; `runs`: no stored hypotheses, decided from the stored runs */
  decidedBy: 'stored' | 'runs';
  /** runs the decision used (both cells) */
  runsUsed: number;
  /** median CPU used outside each of those runs, % of one core (null: not recorded) */
  disturbancePercent: number | null;
  /** the warnings and critical insights of those runs, by code, with how many runs showed each */
  insights: Array<{ code: string; runs: number }>;
}
