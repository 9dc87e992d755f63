import type { Band, Direction, Verdict } from './verdict';

/**
 * The one outcome rule of every check against a baseline: schedules, their webhooks, Trends, the
 * CI gate, REST and the CLI (docs/outcomes.md has the rule with a worked example).
 * - `regression`: a tested metric's verdict is `worse` (beyond the practical floor, significant),
 *   or a measured run of the candidate failed one of its thresholds;
 * - `suspected-regression`: no verdict of `worse`, but a metric's estimate is worse beyond the
 *   floor while the evidence is not enough to decide (its verdict is `inconclusive`): more repeats
 *   would settle it, and the check says how many;
 * - `no-baseline`: nothing to compare with;
 * - `incomplete`: too few measured runs on a side for the test (`MIN_RUNS_PER_SIDE`), or more of
 *   the candidate's runs crashed than `MAX_CRASHED_SHARE` allows (`incompleteReason` says which):
 *   the check cannot say `pass`;
 * - `pass`: none of the above.
 * A regression outranks a suspicion, which outranks a missing baseline or missing runs: a failed
 * threshold or a 10× slowdown is never hidden behind "no baseline" or "inconclusive", and too few
 * runs are never read as "nothing changed".
 */
export const GATE_OUTCOMES = [
  'regression',
  'suspected-regression',
  'no-baseline',
  'incomplete',
  'pass',
] as const;
export type GateOutcome = (typeof GATE_OUTCOMES)[number];
export type CellState = 'regression' | 'suspected-regression' | 'incomplete' | 'pass';

/**
 * Measured runs each side needs before a cell can pass: Mann–Whitney U and the Hodges–Lehmann
 * interval need at least 2 values per side (`compareSamples` gives no test below that).
 */
export const MIN_RUNS_PER_SIDE = 2;

/**
 * The largest share of a candidate cell's runs that may have crashed (failed, timed out, aborted by
 * the system) for the survivors to stand for the cell. Above it the cell is `incomplete`: the
 * surviving runs are the ones that did not crash, so they say little about the config that did.
 */
export const MAX_CRASHED_SHARE = 1 / 3;

/**
 * Why a cell with a baseline cannot be judged, in words naming the counts, or null when it can:
 * fewer than `MIN_RUNS_PER_SIDE` measured runs on a side, or more than `MAX_CRASHED_SHARE` of the
 * candidate's runs (measured + crashed) crashed. Canceled and still-running runs are not counted.
 */
export function incompleteReason(c: {
  baselineRuns: number;
  candidateRuns: number;
  crashedRuns?: number;
}): string | null {
  const crashed = c.crashedRuns ?? 0;
  const total = c.candidateRuns + crashed;
  if (total > 0 && crashed / total > MAX_CRASHED_SHARE)
    return `${crashed} of ${total} candidate runs crashed (more than ${Math.round(MAX_CRASHED_SHARE * 100)} %): the survivors do not stand for the config`;
  const plural = (n: number) => `${n} measured run${n === 1 ? '' : 's'}`;
  if (c.candidateRuns < MIN_RUNS_PER_SIDE)
    return `${plural(c.candidateRuns)} of the candidate; the test needs at least ${MIN_RUNS_PER_SIDE} per side`;
  if (c.baselineRuns < MIN_RUNS_PER_SIDE)
    return `${plural(c.baselineRuns)} of the baseline; the test needs at least ${MIN_RUNS_PER_SIDE} per side`;
  return null;
}

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

/**
 * One cell's state from its metrics' verdicts (`suspected` precomputed or derived), thresholds and
 * `incomplete` (`incompleteReason`). A `worse` verdict of a metric marked `primary: false` (a
 * secondary metric, adjusted in its own family) makes the cell suspected, not a regression: the
 * check's false-alarm rate is the primary family's.
 */
export function cellState(c: {
  metrics: readonly { verdict: Verdict | string | null; suspected: boolean; primary?: boolean }[];
  failedThresholds: readonly FailedThreshold[];
  incomplete?: string | null;
}): CellState {
  const worse = c.metrics.filter((m) => m.verdict === 'worse');
  if (c.failedThresholds.length > 0 || worse.some((m) => m.primary !== false)) return 'regression';
  if (worse.length > 0 || c.metrics.some((m) => m.suspected)) return 'suspected-regression';
  return c.incomplete ? 'incomplete' : 'pass';
}

/** The check's outcome from its cells, by the precedence above. */
export function gateOutcome(
  cells: readonly { state: CellState; hasBaseline: boolean; candidateRuns: number }[],
): GateOutcome {
  if (cells.some((c) => c.state === 'regression')) return 'regression';
  if (cells.some((c) => c.state === 'suspected-regression')) return 'suspected-regression';
  if (cells.some((c) => !c.hasBaseline)) return 'no-baseline';
  if (
    cells.length === 0 ||
    cells.some((c) => c.state === 'incomplete' || c.candidateRuns < MIN_RUNS_PER_SIDE)
  )
    return 'incomplete';
  return 'pass';
}

/** "p95 latency ≤ 50 (observed 220) in run abc": a failed threshold in words. */
export function failedThresholdText(t: FailedThreshold): string {
  const observed =
    t.observed === null ? 'nothing observed' : `observed ${Number(t.observed.toPrecision(4))}`;
  return `${t.metric} ${t.expr} (${observed}) in run ${t.runId}`;
}
