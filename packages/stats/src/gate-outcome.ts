import type { Band, Direction, Verdict } from './verdict';

/**
 * The one outcome rule of every check against a baseline: schedules, their webhooks, Trends, the
 * CI gate, REST and the CLI (docs/outcomes.md has the rule with a worked example).
 * - `regression`: a tested metric's verdict is `worse` (beyond the practical floor, significant),
 *   or a measured run of the candidate failed one of its thresholds;
 * - `suspected-regression`: no verdict of `worse`, but a metric's estimate is worse beyond the
 *   floor while the evidence is not enough to decide (its verdict is `inconclusive`): more repeats
 *   would settle it, and the check says how many;
 * - `no-baseline` / `incomplete`: nothing to compare with, or nothing measured yet;
 * - `pass`: none of the above.
 * A regression outranks a suspicion, which outranks a missing baseline or missing runs: a failed
 * threshold or a 10× slowdown is never hidden behind "no baseline" or "inconclusive".
 */
export const GATE_OUTCOMES = [
  'regression',
  'suspected-regression',
  'no-baseline',
  'incomplete',
  'pass',
] as const;
export type GateOutcome = (typeof GATE_OUTCOMES)[number];
export type CellState = 'regression' | 'suspected-regression' | 'pass';

/** What the rule reads of one metric's comparison (a `SampleComparison` has all of it). */
export interface GateMetric {
  verdict: Verdict | null;
  direction: Direction;
  /** the Hodges-Lehmann shift on the scale of the band */
  shift: { estimate: number } | null;
  noChangeBand: Band | null;
}

/** A threshold one of the candidate's runs failed. */
export type FailedThreshold = {
  runId: string;
  metric: string;
  expr: string;
  observed: number | null;
};

/** Inconclusive, but its estimate lies beyond the practical floor on the worse side. */
export function isSuspectedWorse(m: GateMetric): boolean {
  if (m.verdict !== 'inconclusive' || !m.shift || !m.noChangeBand) return false;
  return m.direction === 'lower-is-better'
    ? m.shift.estimate > m.noChangeBand.upper
    : m.shift.estimate < m.noChangeBand.lower;
}

/** One cell's state from its metrics' verdicts (`suspected` precomputed or derived) and thresholds. */
export function cellState(c: {
  metrics: readonly { verdict: Verdict | string | null; suspected: boolean }[];
  failedThresholds: readonly FailedThreshold[];
}): CellState {
  if (c.failedThresholds.length > 0 || c.metrics.some((m) => m.verdict === 'worse'))
    return 'regression';
  return c.metrics.some((m) => m.suspected) ? 'suspected-regression' : 'pass';
}

/** The check's outcome from its cells, by the precedence above. */
export function gateOutcome(
  cells: readonly { state: CellState; hasBaseline: boolean; candidateRuns: number }[],
): GateOutcome {
  if (cells.some((c) => c.state === 'regression')) return 'regression';
  if (cells.some((c) => c.state === 'suspected-regression')) return 'suspected-regression';
  if (cells.some((c) => !c.hasBaseline)) return 'no-baseline';
  if (cells.length === 0 || cells.some((c) => c.candidateRuns === 0)) return 'incomplete';
  return 'pass';
}

/** "p95 latency ≤ 50 (observed 220) in run abc": a failed threshold in words. */
export function failedThresholdText(t: FailedThreshold): string {
  const observed =
    t.observed === null ? 'nothing observed' : `observed ${Number(t.observed.toPrecision(4))}`;
  return `${t.metric} ${t.expr} (${observed}) in run ${t.runId}`;
}
