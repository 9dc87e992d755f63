import { median } from '../descriptive';
import {
  type AdvisorObjective,
  type AdvisorObservation,
  type SettingVerdict,
  checkRunAgainstSlo,
  sloVerdict,
} from './slo';
import { type ThroughputVerdict, bestThroughputSetting, throughputVerdicts } from './throughput';
import { type UslFit, type UslRefusal, fitUsl } from './usl';

export interface AdvisorInput {
  /** Inclusive integer range of settings to choose from, e.g. max pool size 1..32. */
  range: { min: number; max: number };
  objective: AdvisorObjective;
  /** Every finished run so far, in any order. */
  observations: readonly AdvisorObservation[];
  /** Most runs the whole search may use: observed plus planned never exceed it. */
  budgetRuns: number;
  /** Runs planned at a setting when it is first visited (default 3, the fewest that can "meet"). */
  repeatsPerSetting?: number;
}

/** What the runs at one setting showed. */
export interface SettingEvidence {
  setting: number;
  /** Runs observed at this setting. */
  runs: number;
  verdict: SettingVerdict;
  /** Fewest further favourable runs that would make it "meets" (0 when it does; null: none). */
  runsToSettle: number | null;
  /** SLO: runs that met it; null for max-throughput. */
  passes: number | null;
  /** SLO: fewest further failing runs that would make it "fails"; null for max-throughput. */
  runsToFail: number | null;
  /** SLO: the one-sided Clopper–Pearson bounds of the verdict rule. */
  bounds: { lower: number; upper: number } | null;
  /** Runs that failed the SLO, or (max-throughput) had no usable rps; index into observations. */
  failedRuns: { index: number; reasons: string[] }[];
  medianP99Ms: number | null;
  medianRps: number | null;
  /** Max-throughput: throughput relative to the best setting (HL estimate, 90 % interval). */
  ratioToBest: ThroughputVerdict['ratioToBest'];
}

/** A smaller setting that meets the objective while a larger one fails it. */
export interface NonMonotoneObservation {
  meets: number;
  fails: number;
}

export interface AdvisorEvidence {
  objective: AdvisorObjective;
  runsUsed: number;
  budgetRuns: number;
  /** The coarse-pass settings for this range and budget. */
  coarse: number[];
  /** Every observed setting, ascending. */
  settings: SettingEvidence[];
  /**
   * SLO only: pairs that contradict the assumption that more connections never hurt. The search
   * still assumes it (it recommends from the smallest settings up); these are reported so that a
   * person can look.
   */
  nonMonotone: NonMonotoneObservation[];
  /** Max-throughput: the setting with the highest median rps among those with 3 or more runs. */
  bestThroughput: number | null;
  /** Max-throughput: USL fit of every usable run's rps against its setting; null for SLO. */
  usl: UslFit | UslRefusal | null;
}

export type AdvisorPlan =
  | { status: 'running'; next: number[]; reason: string; evidence: AdvisorEvidence }
  | {
      status: 'decided';
      recommended: number | 'none';
      reason: string;
      evidence: AdvisorEvidence;
    }
  | {
      status: 'budget-exhausted';
      inDoubt: { setting: number; runsToSettle: number | null }[];
      bestSoFar: number | null;
      reason: string;
      evidence: AdvisorEvidence;
    };

interface Want {
  setting: number;
  /** Runs wanted. */
  runs: number;
  /** Fewest of them that could change a verdict; fewer are not worth planning. */
  useful: number;
}

const COARSE_POINTS = 5;
/**
 * A setting gets at most this many times `repeatsPerSetting` runs: one whose chance of meeting
 * the objective sits right at the verdict's level never settles, and would otherwise take the
 * whole budget.
 */
export const MAX_RUNS_FACTOR = 4;

function checkInput(input: AdvisorInput, repeats: number): void {
  const { min, max } = input.range;
  if (!(Number.isInteger(min) && Number.isInteger(max) && min >= 0 && min <= max))
    throw new RangeError(`range must be integers 0 <= min <= max, got ${min}..${max}`);
  if (!(Number.isInteger(input.budgetRuns) && input.budgetRuns >= 0))
    throw new RangeError(`budgetRuns must be an integer >= 0, got ${input.budgetRuns}`);
  if (!(Number.isInteger(repeats) && repeats >= 1))
    throw new RangeError(`repeatsPerSetting must be an integer >= 1, got ${repeats}`);
  const o = input.objective;
  if (
    o.kind === 'slo' &&
    !(o.p99Ms > 0 && o.errorRate >= 0 && o.errorRate <= 1 && o.rate > 0 && Number.isFinite(o.rate))
  )
    throw new RangeError('an SLO needs p99Ms > 0, 0 <= errorRate <= 1 and a finite rate > 0');
  input.observations.forEach((obs, i) => {
    if (!(Number.isInteger(obs.setting) && obs.setting >= min && obs.setting <= max))
      throw new RangeError(
        `observation ${i} has setting ${obs.setting}, outside the integer range ${min}..${max}`,
      );
  });
}

/**
 * Coarse-pass settings: up to 5 spread over the range, geometric (doubling-like) when the range
 * starts at 1 or more and spans a factor of 4 or more, else evenly, always with min and max.
 * Fewer when the budget is small: the coarse pass takes at most half of it (but min and max are
 * always in it). The whole range when it has no more settings than that.
 */
export function coarseSettings(
  range: { min: number; max: number },
  budgetRuns: number,
  repeats: number,
): number[] {
  const { min, max } = range;
  const k = Math.min(COARSE_POINTS, Math.max(2, Math.floor(budgetRuns / (2 * repeats))));
  if (max - min + 1 <= k) return Array.from({ length: max - min + 1 }, (_, i) => min + i);
  const geometric = min >= 1 && max / min >= 4;
  const points = Array.from({ length: k }, (_, i) => {
    const t = i / (k - 1);
    return Math.round(geometric ? min * (max / min) ** t : min + t * (max - min));
  });
  return [...new Set(points)].sort((a, b) => a - b);
}

const medianOrNull = (values: readonly number[]): number | null =>
  values.length > 0 ? median(values) : null;

function present(values: readonly (number | null | undefined)[]): number[] {
  return values.filter((v): v is number => typeof v === 'number' && Number.isFinite(v));
}

function groupBySetting(observations: readonly AdvisorObservation[]) {
  const groups = new Map<number, { index: number; obs: AdvisorObservation }[]>();
  observations.forEach((obs, index) => {
    const g = groups.get(obs.setting) ?? [];
    g.push({ index, obs });
    groups.set(obs.setting, g);
  });
  return new Map([...groups].sort((a, b) => a[0] - b[0]));
}

function sloEvidence(
  input: AdvisorInput,
  objective: Extract<AdvisorObjective, { kind: 'slo' }>,
): SettingEvidence[] {
  return [...groupBySetting(input.observations)].map(([setting, runs]) => {
    const checks = runs.map((r) => ({ index: r.index, ...checkRunAgainstSlo(r.obs, objective) }));
    const passes = checks.filter((c) => c.passed).length;
    // the most runs a setting can get: the verdict's error rates hold over every top-up to it
    const v = sloVerdict(passes, runs.length, MAX_RUNS_FACTOR * (input.repeatsPerSetting ?? 3));
    return {
      setting,
      runs: runs.length,
      verdict: v.verdict,
      runsToSettle: v.runsToSettle,
      passes,
      runsToFail: v.runsToFail,
      bounds: { lower: v.lowerBound, upper: v.upperBound },
      failedRuns: checks
        .filter((c) => !c.passed)
        .map((c) => ({ index: c.index, reasons: c.reasons })),
      medianP99Ms: medianOrNull(present(runs.map((r) => r.obs.p99Ms))),
      medianRps: medianOrNull(present(runs.map((r) => r.obs.rps))),
      ratioToBest: null,
    };
  });
}

function usableRps(obs: AdvisorObservation): number | null {
  return obs.rps !== null && Number.isFinite(obs.rps) && obs.rps > 0 ? obs.rps : null;
}

function throughputEvidence(input: AdvisorInput): {
  settings: SettingEvidence[];
  best: number | null;
  usl: UslFit | UslRefusal;
} {
  const groups = groupBySetting(input.observations);
  const samples = new Map<number, number[]>();
  for (const [setting, runs] of groups)
    samples.set(setting, present(runs.map((r) => usableRps(r.obs))));
  const verdicts = new Map(throughputVerdicts(samples).map((v) => [v.setting, v]));
  const settings = [...groups].map(([setting, runs]): SettingEvidence => {
    const v = verdicts.get(setting);
    return {
      setting,
      runs: runs.length,
      verdict: v?.verdict ?? 'in-doubt',
      runsToSettle: v?.runsToSettle ?? null,
      passes: null,
      runsToFail: null,
      bounds: null,
      failedRuns: runs
        .filter((r) => usableRps(r.obs) === null)
        .map((r) => ({ index: r.index, reasons: [`rps is ${r.obs.rps}`] })),
      medianP99Ms: medianOrNull(present(runs.map((r) => r.obs.p99Ms))),
      medianRps: v?.medianRps ?? null,
      ratioToBest: v?.ratioToBest ?? null,
    };
  });
  const points = input.observations.flatMap((obs) => {
    const rps = usableRps(obs);
    return rps === null ? [] : [{ n: obs.setting, throughput: rps }];
  });
  return { settings, best: bestThroughputSetting(samples), usl: fitUsl(points) };
}

function nonMonotonePairs(settings: readonly SettingEvidence[]): NonMonotoneObservation[] {
  const pairs: NonMonotoneObservation[] = [];
  for (const a of settings)
    for (const b of settings)
      if (a.setting < b.setting && a.verdict === 'meets' && b.verdict === 'fails')
        pairs.push({ meets: a.setting, fails: b.setting });
  return pairs;
}

/**
 * Hands out the remaining budget in priority order: each want gets what it asks for or what is
 * left, and is dropped when that is fewer than its useful minimum.
 */
function allocate(wants: readonly Want[], remaining: number): Want[] {
  const out: Want[] = [];
  let left = remaining;
  for (const w of wants) {
    const runs = Math.min(w.runs, left);
    if (runs < w.useful || runs === 0) continue;
    out.push({ ...w, runs });
    left -= runs;
  }
  return out;
}

/** Round-robin order (a, b, c, a, b, c, …): a batch cut short still covers every setting. */
function interleave(wants: readonly Want[]): number[] {
  const sorted = [...wants].sort((a, b) => a.setting - b.setting);
  const next: number[] = [];
  for (let round = 0; next.length < sorted.reduce((s, w) => s + w.runs, 0); round++)
    for (const w of sorted) if (round < w.runs) next.push(w.setting);
  return next;
}

/** Wants for in-doubt settings: runs that could settle them one way or the other. */
function doubtWant(e: SettingEvidence, repeats: number): Want {
  if (e.runs < repeats)
    return { setting: e.setting, runs: repeats - e.runs, useful: Math.min(repeats - e.runs, 2) };
  const either = Math.min(e.runsToSettle ?? repeats, e.runsToFail ?? Number.POSITIVE_INFINITY);
  const runs = Math.max(1, Math.min(either, repeats));
  return { setting: e.setting, runs, useful: runs };
}

/**
 * Adaptive, budgeted search for the setting to recommend; pure and deterministic, recomputed
 * from the observations on every call (the caller keeps no state and may call it at any time).
 *
 * Verdicts per setting: `sloVerdict` (exact binomial rule) for an SLO, `throughputVerdicts`
 * (within 5 % of the best setting's throughput) for max-throughput.
 *
 * Search, assuming that more connections never hurt (for max-throughput: up to the best):
 * 1. Coarse pass: `coarseSettings` (e.g. 1, 2, 6, 13, 32 for 1..32) with `repeatsPerSetting`
 *    runs each. For an SLO the range ends come first (min meeting or max failing decides at
 *    once), then the interior points one at a time upwards, skipping those the verdicts so far
 *    settle by monotonicity: a small answer, the usual case, then costs few coarse runs. For
 *    max-throughput the whole coarse pass is one batch (the USL fit needs the whole curve).
 * 2. Window: M is the smallest setting that meets, F the largest below M that fails. The answer
 *    lies in (F, M]. In-doubt settings inside the window get the runs that could settle them;
 *    with none, the midpoint of the window is visited (bisection).
 * 3. Max-throughput also bisects the gaps beside the best setting (above first, then below) while
 *    the tested neighbour is more than a quarter of the best (and at least 2) away, since the
 *    peak may lie between; it decides only once neither gap is that wide.
 * Decided: the smallest setting that meets whose next-smaller setting fails (or is the range
 * minimum); for an SLO "none" when nothing meets and the range maximum fails. Both rest only on
 * "meets"/"fails" verdicts. Budget: observed runs plus planned runs never exceed `budgetRuns`,
 * and no setting is planned past MAX_RUNS_FACTOR × `repeatsPerSetting` runs; when what is left
 * cannot settle anything the result is `budget-exhausted`.
 */
export function planAdvisor(input: AdvisorInput): AdvisorPlan {
  const repeats = input.repeatsPerSetting ?? 3;
  checkInput(input, repeats);
  const maxRuns = MAX_RUNS_FACTOR * repeats;
  const { min, max } = input.range;
  const objective = input.objective;
  const coarse = coarseSettings(input.range, input.budgetRuns, repeats);
  const runsUsed = input.observations.length;

  let settings: SettingEvidence[];
  let best: number | null = null;
  let usl: UslFit | UslRefusal | null = null;
  if (objective.kind === 'slo') settings = sloEvidence(input, objective);
  else ({ settings, best, usl } = throughputEvidence(input));
  const evidence: AdvisorEvidence = {
    objective,
    runsUsed,
    budgetRuns: input.budgetRuns,
    coarse,
    settings,
    nonMonotone: objective.kind === 'slo' ? nonMonotonePairs(settings) : [],
    bestThroughput: best,
    usl,
  };
  const at = new Map(settings.map((e) => [e.setting, e]));
  const verdictOf = (s: number): SettingVerdict | null => at.get(s)?.verdict ?? null;

  const meets = settings.filter((e) => e.verdict === 'meets').map((e) => e.setting);
  const m = meets.length > 0 ? Math.min(...meets) : null;
  const failsBelow = settings
    .filter((e) => e.verdict === 'fails' && (m === null || e.setting < m))
    .map((e) => e.setting);
  const f = failsBelow.length > 0 ? Math.max(...failsBelow) : null;
  const lo = f ?? min - 1;
  const hi = m ?? max + 1;

  // Max-throughput: is the peak possibly in a wide untested gap above the best?
  let peakGap: number | null = null;
  if (objective.kind === 'max-throughput' && best !== null) {
    const b = best;
    const tested = settings.map((e) => e.setting);
    const above = tested.filter((s) => s > b);
    const below = tested.filter((s) => s < b);
    const wide = (x: number, y: number) => y - x > Math.max(1, b / 4);
    if (above.length > 0 && wide(b, Math.min(...above)))
      peakGap = Math.floor((b + Math.min(...above)) / 2);
    else if (below.length > 0 && wide(Math.max(...below), b))
      peakGap = Math.floor((Math.max(...below) + b) / 2);
  }

  if (m !== null && (m === min || verdictOf(m - 1) === 'fails') && peakGap === null) {
    const why = m === min ? `${m} meets and is the range minimum` : `${m} meets and ${m - 1} fails`;
    const note =
      evidence.nonMonotone.length > 0
        ? `; note: ${evidence.nonMonotone.map((p) => `${p.meets} meets but ${p.fails} fails`).join(', ')}`
        : '';
    return { status: 'decided', recommended: m, reason: `${why}${note}`, evidence };
  }
  if (objective.kind === 'slo' && m === null && verdictOf(max) === 'fails')
    return {
      status: 'decided',
      recommended: 'none',
      reason: `no setting meets the SLO: the range maximum ${max} fails it`,
      evidence,
    };

  const inWindow = (s: number) => s > lo && s < hi;
  const wants: Want[] = [];
  // Coarse points not yet settled by monotonicity, and visits left unfinished (fewer runs than
  // a first visit plans); for max-throughput anywhere, since any of them could become the best.
  const unfinished = (s: number) =>
    (at.get(s)?.runs ?? 0) < repeats && verdictOf(s) !== 'meets' && verdictOf(s) !== 'fails';
  const relevant = (s: number) => objective.kind === 'max-throughput' || inWindow(s);
  const coarseOpen = coarse.filter((s) => relevant(s) && unfinished(s));
  const ends = coarseOpen.filter((s) => s === min || s === max);
  const coarseNow =
    objective.kind === 'max-throughput'
      ? coarseOpen
      : ends.length > 0
        ? ends
        : coarseOpen.slice(0, 1);
  for (const s of coarseNow) {
    const runs = repeats - (at.get(s)?.runs ?? 0);
    wants.push({ setting: s, runs, useful: Math.min(runs, 2) });
  }
  for (const e of settings)
    if (!coarse.includes(e.setting) && relevant(e.setting) && unfinished(e.setting))
      wants.push(doubtWant(e, repeats));
  if (wants.length === 0) {
    for (const e of settings)
      if (inWindow(e.setting) && e.verdict === 'in-doubt' && e.runs < maxRuns)
        wants.push(doubtWant(e, repeats));
    // Max-throughput compares with the best setting: its runs narrow the interval as much as
    // the in-doubt setting's own, so it gets as many.
    const bestRuns = best === null ? 0 : (at.get(best)?.runs ?? 0);
    const most = Math.max(0, ...wants.map((w) => (at.get(w.setting)?.runs ?? 0) + w.runs));
    if (objective.kind === 'max-throughput' && best !== null && most > bestRuns)
      wants.push({ setting: best, runs: Math.min(most, maxRuns) - bestRuns, useful: 1 });
  }
  const untestedInWindow = Array.from(
    { length: Math.max(0, hi - lo - 1) },
    (_, i) => lo + 1 + i,
  ).filter((s) => !at.has(s));
  if (wants.length === 0 && untestedInWindow.length > 0) {
    // Bisection: the untested setting nearest the window's midpoint (the lower one on ties).
    const mid = (lo + hi) / 2;
    const pick = untestedInWindow.reduce((a, b) => (Math.abs(b - mid) < Math.abs(a - mid) ? b : a));
    wants.push({ setting: pick, runs: repeats, useful: Math.min(repeats, 2) });
  }
  if (peakGap !== null && !wants.some((w) => w.setting === peakGap))
    wants.push({ setting: peakGap, runs: repeats, useful: Math.min(repeats, 2) });

  const planned = allocate(wants, input.budgetRuns - runsUsed);
  if (planned.length > 0) {
    const what = planned.map((w) => `${w.setting}×${w.runs}`).join(', ');
    const window = `the answer lies in ${lo + 1}..${hi === max + 1 ? max : hi}`;
    return {
      status: 'running',
      next: interleave(planned),
      reason: `${window}; run ${what}`,
      evidence,
    };
  }
  const inDoubt = settings
    .filter((e) => e.verdict === 'in-doubt' && inWindow(e.setting))
    .map((e) => ({ setting: e.setting, runsToSettle: e.runsToSettle }));
  const untested = untestedInWindow;
  return {
    status: 'budget-exhausted',
    inDoubt,
    bestSoFar: m,
    reason:
      `${runsUsed} of ${input.budgetRuns} runs used and what is left (at most ${maxRuns} runs per setting) cannot settle the answer` +
      (inDoubt.length > 0 ? `; in doubt: ${inDoubt.map((d) => d.setting).join(', ')}` : '') +
      (untested.length > 0 ? `; untested: ${untested.join(', ')}` : '') +
      (m !== null ? `; ${m} meets so far` : '; no setting meets so far'),
    evidence,
  };
}
