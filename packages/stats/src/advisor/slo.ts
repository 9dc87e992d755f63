import { droppedBeyondShare, MAX_DROPPED_SHARE, MIN_RATE_SHARE } from '../run-validity';

/**
 * What the advisor is asked to find, what one finished run contributes, and the per-setting
 * verdict for a latency/error SLO.
 */

export interface SloObjective {
  kind: 'slo';
  /** Largest acceptable p99 latency, ms. */
  p99Ms: number;
  /** Largest acceptable error rate, as a fraction (0.001 = 0.1 %). */
  errorRate: number;
  /** Offered load the SLO holds at, requests per second. */
  rate: number;
}

export interface MaxThroughputObjective {
  kind: 'max-throughput';
}

export type AdvisorObjective = SloObjective | MaxThroughputObjective;

/** One finished benchmark run at one setting (the numbers of its RunSummary). */
export interface AdvisorObservation {
  /** The setting under test, e.g. the max pool size. */
  setting: number;
  p99Ms: number | null;
  errorRate: number | null;
  rps: number | null;
  droppedIterations: number;
  /** Iterations k6 completed; planned = iterations + droppedIterations. */
  iterations: number;
  poolInUseMean?: number | null;
  dbConnectionsPeak?: number | null;
  rssPeakBytes?: number | null;
  /**
   * the run ended without measuring (failed, timed out, aborted by the system): it counts as a run
   * that did not meet the SLO, named with this status, so a setting is never judged on its
   * survivors alone
   */
  crashed?: string | null;
}

export interface RunCheck {
  passed: boolean;
  /** Why the run failed, one short phrase each; empty when it passed. */
  reasons: string[];
}

/** A number a run reported, or why it cannot be used (missing, not finite, negative). */
function usable(value: number | null | undefined, name: string, reasons: string[]): number | null {
  if (value === null || value === undefined) {
    reasons.push(`${name} missing`);
    return null;
  }
  if (!Number.isFinite(value) || value < 0) {
    reasons.push(`${name} is ${value}`);
    return null;
  }
  return value;
}

/**
 * Checks one run against an SLO. It passes when p99 ≤ the limit, the error rate ≤ the limit,
 * and it actually offered the load: k6 dropped at most MAX_DROPPED_SHARE of the planned
 * iterations and the achieved rps is at least MIN_RATE_SHARE of the target rate. A run that lacks
 * one of these numbers (null, NaN, negative) fails, and the reason names the number.
 */
/** a number as a reason shows it: 3 significant digits, no float noise */
const round = (v: number) => Number(v.toPrecision(3)).toString();

export function checkRunAgainstSlo(obs: AdvisorObservation, slo: SloObjective): RunCheck {
  if (obs.crashed) return { passed: false, reasons: [`the run ${obs.crashed.replace('_', ' ')}`] };
  const reasons: string[] = [];
  const p99 = usable(obs.p99Ms, 'p99', reasons);
  const errors = usable(obs.errorRate, 'error rate', reasons);
  const rps = usable(obs.rps, 'rps', reasons);
  const done = usable(obs.iterations, 'iterations', reasons);
  const dropped = usable(obs.droppedIterations, 'dropped iterations', reasons);
  if (p99 !== null && p99 > slo.p99Ms) reasons.push(`p99 ${round(p99)} ms > ${slo.p99Ms} ms`);
  if (errors !== null && errors > slo.errorRate)
    reasons.push(`errors ${round(100 * errors)} % > ${round(100 * slo.errorRate)} %`);
  if (rps !== null && rps < MIN_RATE_SHARE * slo.rate)
    reasons.push(
      `${round(rps)} req/s < ${100 * MIN_RATE_SHARE} % of ${slo.rate}: the load was not offered`,
    );
  if (done !== null && dropped !== null) {
    const planned = done + dropped;
    if (planned === 0) reasons.push('no iterations planned');
    else if (droppedBeyondShare(dropped, planned))
      reasons.push(`${dropped} of ${planned} iterations dropped (> ${100 * MAX_DROPPED_SHARE} %)`);
  }
  return { passed: reasons.length === 0, reasons };
}

function checkCounts(k: number, n: number): void {
  if (!(Number.isInteger(k) && Number.isInteger(n) && n >= 0 && k >= 0 && k <= n))
    throw new RangeError(`need integers 0 <= k <= n, got k=${k}, n=${n}`);
}

/** Binomial probability of exactly i successes in n trials with success probability p. */
function binomialPmf(i: number, n: number, p: number): number {
  if (p === 0) return i === 0 ? 1 : 0;
  if (p === 1) return i === n ? 1 : 0;
  let logC = 0;
  for (let j = 1; j <= i; j++) logC += Math.log((n - i + j) / j);
  return Math.exp(logC + i * Math.log(p) + (n - i) * Math.log1p(-p));
}

/** P(X ≥ k) for X ~ Binomial(n, p). */
export function binomialUpperTail(k: number, n: number, p: number): number {
  checkCounts(k, n);
  let s = 0;
  for (let i = k; i <= n; i++) s += binomialPmf(i, n, p);
  return Math.min(1, s);
}

/** P(X ≤ k) for X ~ Binomial(n, p). */
export function binomialLowerTail(k: number, n: number, p: number): number {
  checkCounts(k, n);
  let s = 0;
  for (let i = 0; i <= k; i++) s += binomialPmf(i, n, p);
  return Math.min(1, s);
}

/** The p in [0, 1] where the monotone `f` crosses `target`, by 100 bisection steps. */
function invert(f: (p: number) => number, target: number, increasing: boolean): number {
  let lo = 0;
  let hi = 1;
  for (let i = 0; i < 100; i++) {
    const mid = (lo + hi) / 2;
    if (f(mid) < target === increasing) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

/**
 * One-sided Clopper–Pearson (1934) lower bound at `confidence` on a success probability from k
 * successes in n trials: the p where P(X ≥ k | p) = 1 − confidence (0 when k = 0; (1 − confidence)^{1/n}
 * when k = n).
 */
export function clopperPearsonLower(k: number, n: number, confidence: number): number {
  checkCounts(k, n);
  if (k === 0) return 0;
  return invert((p) => binomialUpperTail(k, n, p), 1 - confidence, true);
}

/** One-sided Clopper–Pearson upper bound: the p where P(X ≤ k | p) = 1 − confidence (1 when k = n). */
export function clopperPearsonUpper(k: number, n: number, confidence: number): number {
  checkCounts(k, n);
  if (k === n) return 1;
  return invert((p) => binomialLowerTail(k, n, p), 1 - confidence, false);
}

/**
 * The verdict rule. π is the probability that a run at this setting meets the SLO, and the level
 * is π = ½: a setting "meets" when its typical (median) run meets the SLO. The search looks at a
 * setting again after every top-up, so the rule is a sequential one: its error rates hold over
 * every look up to the most runs a setting can get (`maxRuns`), even when it looks after each run.
 * - meets: the exact binomial test of π ≤ ½ has p = P(X ≥ passes | runs, ½) below a nominal level
 *   `sloDesign` calibrates (by the exact distribution of the walk of passes, looking after every
 *   run up to `maxRuns`) so that a setting with π = ½ is ever called "meets" with probability at
 *   most `meetsError` = 10 %. With 12 runs at most (3 repeats × 4) the level is 0.05: 5 of 5 is
 *   the fewest that meet; 3 of 3 (0.125) and 4 of 4 (0.0625) do not.
 * - fails: P(X ≤ passes | runs, ½) < 0.30, and a setting whose runs meet with π = 0.9 is ever
 *   called "fails" with probability at most `failsError` = 10 % (about 1 % at 12 runs). 2 of 2
 *   failing (0.25) is enough, 1 of 1 (0.5) is not, nor 1 pass in 4 (0.3125); 1 in 5 is.
 * The sides are asymmetric on purpose: a wrong "meets" recommends a pool that misses the SLO in
 * production, a wrong "fails" only costs a connection or two (the search then recommends a
 * larger setting), so "fails" needs less evidence and spares the budget.
 */
export const SLO_VERDICT_RULE = {
  level: 0.5,
  /** most chance, over all looks, that a setting with π = ½ is called "meets" */
  meetsError: 0.1,
  /** most chance, over all looks, that a setting with π = `failsAt` is called "fails" */
  failsError: 0.1,
  failsAt: 0.9,
  /** the nominal one-sided level of "fails" at each look */
  failsLevel: 0.3,
  /** runs a setting can get when the caller does not say (3 repeats × 4) */
  defaultMaxRuns: 12,
} as const;

export type SettingVerdict = 'meets' | 'fails' | 'in-doubt';

export interface SloVerdict {
  verdict: SettingVerdict;
  passes: number;
  runs: number;
  /** one-sided Clopper–Pearson lower bound at 1 − the design's meets level (> ½ iff it meets) */
  lowerBound: number;
  /** one-sided upper bound at 1 − the fails level (< ½ iff it fails) */
  upperBound: number;
  /** Fewest further runs, all passing, that would make it "meets" (0 when it does). */
  runsToSettle: number;
  /** Fewest further runs, all failing, that would make it "fails" (0 when it does). */
  runsToFail: number;
}

export interface SloDesign {
  maxRuns: number;
  /** nominal level of the "meets" test at each look */
  meetsLevel: number;
  /** P(ever "meets" | π = ½), looking after every run up to maxRuns */
  meetsError: number;
  /** P(ever "fails" | π = failsAt), likewise */
  failsError: number;
}

/**
 * P(the number of passes crosses the boundary at some n ≤ maxRuns) when each run passes with
 * probability p, looking after every run: the exact distribution of the walk, absorbed where it
 * crosses. Any fewer looks cross no more often.
 */
function crossing(maxRuns: number, p: number, crosses: (k: number, n: number) => boolean): number {
  let dist = [1];
  let crossed = 0;
  for (let n = 1; n <= maxRuns; n++) {
    const next = new Array<number>(n + 1).fill(0);
    dist.forEach((v, k) => {
      next[k]! += v * (1 - p);
      next[k + 1]! += v * p;
    });
    next.forEach((v, k) => {
      if (v > 0 && crosses(k, n)) {
        crossed += v;
        next[k] = 0;
      }
    });
    dist = next;
  }
  return crossed;
}

const designs = new Map<number, SloDesign>();

/**
 * The sequential design for settings that get at most `maxRuns` runs: the largest nominal level
 * of the "meets" test (one of the attainable tail probabilities P(X ≥ n | n, ½) … ) whose
 * chance of ever calling a π = ½ setting "meets" is at most `meetsError`; and the achieved error
 * of "fails" at π = `failsAt`. Refused (RangeError) if the fails side breaks its bound.
 */
export function sloDesign(maxRuns: number = SLO_VERDICT_RULE.defaultMaxRuns): SloDesign {
  if (!(Number.isInteger(maxRuns) && maxRuns >= 1))
    throw new RangeError(`maxRuns must be an integer >= 1, got ${maxRuns}`);
  const known = designs.get(maxRuns);
  if (known) return known;
  const { level, meetsError, failsError, failsAt, failsLevel } = SLO_VERDICT_RULE;
  // tail[n][k] = P(X ≥ k | n, ½), computed once
  const tail = Array.from({ length: maxRuns + 1 }, (_, n) =>
    Array.from({ length: n + 1 }, (_, k) => binomialUpperTail(k, n, level)),
  );
  // levels just above each attainable tail, largest first: p < level admits that tail
  const candidates = [...new Set(tail.flat())].sort((x, y) => y - x).map((t) => t * (1 + 1e-9));
  let meetsLevel = 0;
  let achieved = 0;
  for (const a of candidates) {
    const e = crossing(maxRuns, level, (k, n) => tail[n]![k]! < a);
    if (e <= meetsError) {
      meetsLevel = a;
      achieved = e;
      break;
    }
  }
  const failsAchieved = crossing(
    maxRuns,
    failsAt,
    (k, n) => binomialLowerTail(k, n, level) < failsLevel,
  );
  if (failsAchieved > failsError)
    throw new RangeError(`"fails" at level ${failsLevel} errs ${failsAchieved} at ${maxRuns} runs`);
  const design = { maxRuns, meetsLevel, meetsError: achieved, failsError: failsAchieved };
  designs.set(maxRuns, design);
  return design;
}

const meetsTest = (k: number, n: number, meetsLevel: number): boolean =>
  n > 0 && binomialUpperTail(k, n, SLO_VERDICT_RULE.level) < meetsLevel;
const failsTest = (k: number, n: number): boolean =>
  n > 0 && binomialLowerTail(k, n, SLO_VERDICT_RULE.level) < SLO_VERDICT_RULE.failsLevel;

/** Smallest k ≥ 0 with `done(k)`; each further passing (or failing) run brings it closer. */
function fewest(done: (k: number) => boolean): number {
  let k = 0;
  while (!done(k)) k++;
  return k;
}

/**
 * Verdict for one setting from its passing and total runs under SLO_VERDICT_RULE, for a search
 * that gives a setting at most `maxRuns` runs (a failed run counts as one that did not pass).
 */
export function sloVerdict(
  passes: number,
  runs: number,
  maxRuns: number = SLO_VERDICT_RULE.defaultMaxRuns,
): SloVerdict {
  checkCounts(passes, runs);
  // more runs than the search plans (observations from elsewhere): the design for that many
  const meetsLevel = sloDesign(Math.max(maxRuns, runs)).meetsLevel;
  const meets = meetsTest(passes, runs, meetsLevel);
  const fails = failsTest(passes, runs);
  return {
    verdict: meets ? 'meets' : fails ? 'fails' : 'in-doubt',
    passes,
    runs,
    lowerBound: clopperPearsonLower(passes, runs, 1 - meetsLevel),
    upperBound: runs === 0 ? 1 : clopperPearsonUpper(passes, runs, 1 - SLO_VERDICT_RULE.failsLevel),
    runsToSettle: fewest((k) => meetsTest(passes + k, runs + k, meetsLevel)),
    runsToFail: fewest((k) => failsTest(passes, runs + k)),
  };
}
