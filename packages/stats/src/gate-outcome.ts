import { minPossiblePValue } from './mann-whitney';
import { PRIMARY_RUN_METRIC_KEYS } from '@poolbench/contracts';
import type { Band, Direction, Verdict } from './verdict';
import { invalidRunsText, type InvalidRun } from './run-validity';

/**
 * The one outcome rule of every check against a baseline: schedules, their webhooks, Trends, the
 * CI gate, REST and the CLI (docs/outcomes.md has the rule with a worked example).
 * - `regression`: a primary metric's verdict is `worse` (beyond the practical floor, significant
 *   after Holm over the primaries), or a measured run of the candidate failed one of its thresholds;
 * - `suspected-regression`: no verdict of `worse`, but a primary metric's one-sided evidence of a
 *   worse change is significant and its estimate lies beyond the floor while its verdict is
 *   `inconclusive` (`isSuspectedWorse`): more repeats would likely settle it, and the check says
 *   how many. Together with `regression` it fires in at most alpha of A/A checks;
 * - `no-baseline`: nothing to compare with;
 * - `incomplete`: too few valid measured runs on a side for the test (`MIN_RUNS_PER_SIDE`, or too
 *   few for any primary metric to reach alpha), or more of a side's runs crashed or invalid
 *   (`runValidity`) than `MAX_CRASHED_SHARE` allows (`incompleteReason` says which and why): the
 *   check cannot say `pass`;
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
 * the system) or be invalid (`runValidity`: the load was not offered) for the survivors to stand
 * for the cell; the same share of a baseline's runs may be invalid. Above it the cell is
 * `incomplete`: the surviving runs are the ones that did not crash or stall, so they say little
 * about the config that did.
 */
export const MAX_CRASHED_SHARE = 1 / 3;

/** The level every check is decided at (the compare view's default alpha). */
export const GATE_ALPHA = 0.05;

/**
 * The smallest Holm-adjusted one-sided p any data can give with these run counts and this many
 * primary metrics: every candidate run beyond every baseline run on one metric has probability
 * 1 / C(m + n, m), times the family size. At or above alpha no primary metric can be worse or
 * suspected, so the check could only ever say `pass`.
 */
export function bestPossibleGateP(
  baselineRuns: number,
  candidateRuns: number,
  primaryMetrics: number,
): number {
  return Math.min(1, (primaryMetrics * minPossiblePValue(baselineRuns, candidateRuns)) / 2);
}

/** Runs per side (equal) at which `bestPossibleGateP` drops below alpha. */
export function runsPerSideNeeded(primaryMetrics: number, alpha = GATE_ALPHA): number {
  let n = MIN_RUNS_PER_SIDE;
  while (bestPossibleGateP(n, n, primaryMetrics) >= alpha) n++;
  return n;
}

/**
 * Why a cell with a baseline cannot be judged, in words naming the counts, or null when it can:
 * more than `MAX_CRASHED_SHARE` of the candidate's runs (valid + crashed + invalid) crashed or are
 * invalid, or of the baseline's runs (valid + invalid) are invalid; fewer than `MIN_RUNS_PER_SIDE`
 * valid measured runs on a side, or so few that no change of the `primaryMetrics` (default: the 4
 * of `PRIMARY_RUN_METRIC_KEYS`) could reach `alpha` (3 vs 3 or 4 vs 4 with four primaries), or an
 * A/A calibration says these run counts would miss a doubling of a primary metric on this machine
 * (`noiseWarnings`). `baselineRuns` and `candidateRuns` count the valid measured runs only; the
 * invalid ones are named with their reasons wherever they made the difference. Canceled and
 * still-running runs are not counted.
 */
export function incompleteReason(c: {
  baselineRuns: number;
  candidateRuns: number;
  crashedRuns?: number;
  /** measured runs of each side left out by `runValidity`, with why */
  invalidBaseline?: readonly InvalidRun[];
  invalidCandidate?: readonly InvalidRun[];
  primaryMetrics?: number;
  alpha?: number;
  /** primary metrics' `noiseWarning`s: a calibration says these runs would miss a doubling */
  noiseWarnings?: readonly string[];
}): string | null {
  const crashed = c.crashedRuns ?? 0;
  const invalidC = c.invalidCandidate ?? [];
  const invalidB = c.invalidBaseline ?? [];
  const share = `more than ${Math.round(MAX_CRASHED_SHARE * 100)} %`;
  const total = c.candidateRuns + crashed + invalidC.length;
  if (total > 0 && (crashed + invalidC.length) / total > MAX_CRASHED_SHARE) {
    if (!invalidC.length)
      return `${crashed} of ${total} candidate runs crashed (${share}): the survivors do not stand for the config`;
    const lost = crashed
      ? `crashed or invalid (${crashed} crashed, ${invalidC.length} invalid; ${share})`
      : `invalid (${share})`;
    return `${crashed + invalidC.length} of ${total} candidate runs ${lost}: ${invalidRunsText(invalidC)}; the valid ones do not stand for the config`;
  }
  const baseTotal = c.baselineRuns + invalidB.length;
  if (baseTotal > 0 && invalidB.length / baseTotal > MAX_CRASHED_SHARE)
    return `${invalidB.length} of ${baseTotal} baseline runs invalid (${share}): ${invalidRunsText(invalidB)}; the valid ones do not stand for the baseline`;
  const runs = (n: number, invalid: readonly InvalidRun[]) =>
    invalid.length
      ? `${n} valid measured run${n === 1 ? '' : 's'}`
      : `${n} measured run${n === 1 ? '' : 's'}`;
  const left = (side: string, invalid: readonly InvalidRun[]) =>
    invalid.length
      ? ` (${invalid.length} ${side} run${invalid.length === 1 ? '' : 's'} invalid, left out: ${invalidRunsText(invalid)})`
      : '';
  if (c.candidateRuns < MIN_RUNS_PER_SIDE)
    return `${runs(c.candidateRuns, invalidC)} of the candidate${left('candidate', invalidC)}; the test needs at least ${MIN_RUNS_PER_SIDE} per side`;
  if (c.baselineRuns < MIN_RUNS_PER_SIDE)
    return `${runs(c.baselineRuns, invalidB)} of the baseline${left('baseline', invalidB)}; the test needs at least ${MIN_RUNS_PER_SIDE} per side`;
  const k = c.primaryMetrics ?? PRIMARY_RUN_METRIC_KEYS.length;
  const alpha = c.alpha ?? GATE_ALPHA;
  const best = bestPossibleGateP(c.baselineRuns, c.candidateRuns, k);
  if (k > 0 && best >= alpha) {
    const valid = invalidB.length || invalidC.length ? 'valid measured' : 'measured';
    const why = `${left('baseline', invalidB)}${left('candidate', invalidC)}`;
    return `${c.baselineRuns} vs ${c.candidateRuns} ${valid} runs${why}: no change of the ${k} primary metric${k === 1 ? '' : 's'} can reach p < ${alpha} (at best ${Number(best.toPrecision(2))}); the test needs ${runsPerSideNeeded(k, alpha)} per side, or fewer primary metrics`;
  }
  if (c.noiseWarnings?.length) return c.noiseWarnings.join('; ');
  return null;
}

/** More than this share of the candidate's runs falling behind the load makes a regression. */
export const LOAD_NOT_TAKEN_SHARE = 1 / 2;

/**
 * Why a cell is a regression because its candidate could not take the load its baseline took, or
 * null. Both sides ran the same scenario (a baseline belongs to its target, scenario and pool
 * config; a gate base runs in the same experiment), so when more than half of the candidate's runs
 * did not offer the load (k6 dropped iterations, or fell short of the rate, because its VUs were
 * all waiting on the target) while at least `MIN_RUNS_PER_SIDE` of the baseline's ran valid and
 * none of them fell short, the config falls behind a load the baseline kept up with. That is the
 * commonest way a too-small pool fails, and its runs cannot be measured (the slowest requests are
 * the ones never sent): leaving them out would make the cell incomplete and hide the regression.
 * Half, not the third that makes a cell incomplete: if every run fell short at random with the
 * same chance q (a generator at the edge of its VUs), 3 or more of 5 candidate runs short and none
 * of 5 baseline runs happens at most 2.8 % of the time (at q ≈ 0.32; `simulateGate` with
 * `notOffered` finds the same through `gateCellState`). Runs invalid for lost
 * samples (a starved generator) never count here.
 */
export function loadNotTakenReason(c: {
  baselineRuns: number;
  candidateRuns: number;
  crashedRuns?: number;
  invalidBaseline?: readonly InvalidRun[];
  invalidCandidate?: readonly InvalidRun[];
}): string | null {
  const notOffered = (r: InvalidRun) => r.reasons.some((x) => x.code === 'load-not-offered');
  const fellBehind = (c.invalidCandidate ?? []).filter(notOffered);
  const total = c.candidateRuns + (c.crashedRuns ?? 0) + (c.invalidCandidate ?? []).length;
  if (fellBehind.length === 0 || fellBehind.length / total <= LOAD_NOT_TAKEN_SHARE) return null;
  if (c.baselineRuns < MIN_RUNS_PER_SIDE || (c.invalidBaseline ?? []).some(notOffered)) return null;
  return `${fellBehind.length} of ${total} candidate runs could not take the load all ${c.baselineRuns} valid baseline runs took with the same scenario (${invalidRunsText(fellBehind)}): the config falls behind it`;
}

/** What the rule reads of one metric's comparison (a `MetricComparison` has all of it). */
export interface GateMetric {
  verdict: Verdict | null;
  direction: Direction;
  /** the Hodges-Lehmann shift on the scale of the band */
  shift: { estimate: number } | null;
  noChangeBand: Band | null;
  /** the level the metric was tested at */
  alpha: number;
  /** two-sided Mann–Whitney p before adjustment (a lone `SampleComparison` has it here) */
  test: { pValue: number } | null;
  /** false: a secondary metric, reported but never suspected */
  primary?: boolean;
  /**
   * the one-sided p of a worse change, Holm-adjusted among the primary metrics (`compareMetrics`);
   * absent on a lone comparison, which is its own family of one
   */
  suspicionPValue?: number | null;
}

/** A threshold one of the candidate's runs failed. */
export type FailedThreshold = {
  runId: string;
  metric: string;
  expr: string;
  observed: number | null;
};

/**
 * A primary metric whose verdict is `inconclusive`, whose Hodges–Lehmann estimate lies beyond the
 * practical floor on the worse side, and whose one-sided evidence of a worse change, Holm-adjusted
 * among the primary metrics, is below alpha: the data already say "worse" at the check's level,
 * but the interval still reaches into the floor or the two-sided verdict is not yet reached, so
 * more repeats would likely settle it. Since a `worse` verdict needs a two-sided Holm p below
 * alpha, which is a one-sided one below alpha / 2, every regression and every suspicion of an A/A
 * check lies in the event "some primary's one-sided Holm p < alpha": at most alpha of checks.
 * A secondary metric is never suspected.
 */
export function isSuspectedWorse(m: GateMetric): boolean {
  if (m.verdict !== 'inconclusive' || !m.shift || !m.noChangeBand || m.primary === false)
    return false;
  const beyondFloor =
    m.direction === 'lower-is-better'
      ? m.shift.estimate > m.noChangeBand.upper
      : m.shift.estimate < m.noChangeBand.lower;
  // beyond the floor on the worse side, so the one-sided p of "worse" is half the two-sided one
  const p = m.suspicionPValue !== undefined ? m.suspicionPValue : m.test ? m.test.pValue / 2 : null;
  return beyondFloor && p !== null && p < m.alpha;
}

/**
 * One cell's state from its metrics' verdicts (`suspected` precomputed with `isSuspectedWorse`),
 * thresholds, `loadNotTaken` (`loadNotTakenReason`) and `incomplete` (`incompleteReason`). Only a primary metric decides: a `worse`
 * verdict of a metric marked `primary: false` (a secondary metric, adjusted in its own family) is
 * reported beside the outcome and changes nothing, so the check's false-alarm rate is the primary
 * family's.
 */
export function cellState(c: {
  metrics: readonly { verdict: Verdict | string | null; suspected: boolean; primary?: boolean }[];
  failedThresholds: readonly FailedThreshold[];
  incomplete?: string | null;
  /** `loadNotTakenReason`: the candidate fell behind a load the baseline took */
  loadNotTaken?: string | null;
}): CellState {
  const primary = c.metrics.filter((m) => m.primary !== false);
  if (c.failedThresholds.length > 0 || c.loadNotTaken || primary.some((m) => m.verdict === 'worse'))
    return 'regression';
  if (primary.some((m) => m.suspected)) return 'suspected-regression';
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
