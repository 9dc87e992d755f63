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
}

/** Largest share of the planned iterations k6 may drop for the run to count as offering the load. */
export const MAX_DROPPED_SHARE = 0.01;
/** Smallest share of the target rate the run must have achieved, likewise. */
export const MIN_RATE_SHARE = 0.95;

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
    else if (dropped > MAX_DROPPED_SHARE * planned)
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
 * is π = ½: a setting "meets" when its typical (median) run meets the SLO.
 * - meets: the one-sided 85 % Clopper–Pearson lower bound on π is above ½, i.e. the exact
 *   binomial test of π ≤ ½ has p = P(X ≥ passes | runs, ½) < 0.15. 3 of 3 (p = 0.125) is the
 *   fewest runs that can do it; 2 of 2 (0.25) cannot, nor 4 of 5 (0.1875); 5 of 6 (0.109) can.
 * - fails: the one-sided 70 % upper bound is below ½, i.e. P(X ≤ passes | runs, ½) < 0.30.
 *   2 of 2 failing (0.25) is enough, 1 of 1 (0.5) is not, nor 1 pass in 4 (0.3125); 1 in 5 is.
 * The sides are asymmetric on purpose: a wrong "meets" recommends a pool that misses the SLO in
 * production, a wrong "fails" only costs a connection or two (the search then recommends a
 * larger setting), so "fails" needs less evidence and spares the budget.
 */
export const SLO_VERDICT_RULE = {
  level: 0.5,
  meetsConfidence: 0.85,
  failsConfidence: 0.7,
} as const;

export type SettingVerdict = 'meets' | 'fails' | 'in-doubt';

export interface SloVerdict {
  verdict: SettingVerdict;
  passes: number;
  runs: number;
  /** 85 % one-sided Clopper–Pearson lower bound on the chance a run meets the SLO. */
  lowerBound: number;
  /** 70 % one-sided upper bound on the same. */
  upperBound: number;
  /** Fewest further runs, all passing, that would make it "meets" (0 when it does). */
  runsToSettle: number;
  /** Fewest further runs, all failing, that would make it "fails" (0 when it does). */
  runsToFail: number;
}

const meetsTest = (k: number, n: number): boolean =>
  n > 0 && binomialUpperTail(k, n, SLO_VERDICT_RULE.level) < 1 - SLO_VERDICT_RULE.meetsConfidence;
const failsTest = (k: number, n: number): boolean =>
  n > 0 && binomialLowerTail(k, n, SLO_VERDICT_RULE.level) < 1 - SLO_VERDICT_RULE.failsConfidence;

/** Smallest k ≥ 0 with `done(k)`; each further passing (or failing) run brings it closer. */
function fewest(done: (k: number) => boolean): number {
  let k = 0;
  while (!done(k)) k++;
  return k;
}

/** Verdict for one setting from its passing and total runs under SLO_VERDICT_RULE. */
export function sloVerdict(passes: number, runs: number): SloVerdict {
  checkCounts(passes, runs);
  const meets = meetsTest(passes, runs);
  const fails = failsTest(passes, runs);
  return {
    verdict: meets ? 'meets' : fails ? 'fails' : 'in-doubt',
    passes,
    runs,
    lowerBound: clopperPearsonLower(passes, runs, SLO_VERDICT_RULE.meetsConfidence),
    upperBound:
      runs === 0 ? 1 : clopperPearsonUpper(passes, runs, SLO_VERDICT_RULE.failsConfidence),
    runsToSettle: fewest((k) => meetsTest(passes + k, runs + k)),
    runsToFail: fewest((k) => failsTest(passes, runs + k)),
  };
}
