import { describe, expect, it } from 'vitest';
import {
  type AdvisorObservation,
  type SloObjective,
  binomialLowerTail,
  binomialUpperTail,
  checkRunAgainstSlo,
  clopperPearsonLower,
  clopperPearsonUpper,
  sloDesign,
  sloVerdict,
  SLO_VERDICT_RULE,
} from './slo';

const SLO: SloObjective = { kind: 'slo', p99Ms: 50, errorRate: 0.001, rate: 200 };
const GOOD: AdvisorObservation = {
  setting: 4,
  p99Ms: 40,
  errorRate: 0,
  rps: 199.5,
  droppedIterations: 0,
  iterations: 3000,
};

describe('checkRunAgainstSlo', () => {
  it('passes a run within every limit that offered the load', () => {
    expect(checkRunAgainstSlo(GOOD, SLO)).toEqual({ passed: true, reasons: [] });
    // Exactly at the limits still passes: 1 % dropped, 95 % of the rate.
    expect(
      checkRunAgainstSlo(
        { ...GOOD, p99Ms: 50, errorRate: 0.001, rps: 190, droppedIterations: 30, iterations: 2970 },
        SLO,
      ).passed,
    ).toBe(true);
  });

  it('fails each limit with its reason', () => {
    expect(checkRunAgainstSlo({ ...GOOD, p99Ms: 51 }, SLO).reasons).toEqual(['p99 51 ms > 50 ms']);
    expect(checkRunAgainstSlo({ ...GOOD, errorRate: 0.002 }, SLO).reasons).toEqual([
      'errors 0.2 % > 0.1 %',
    ]);
    expect(checkRunAgainstSlo({ ...GOOD, rps: 189.49194547707 }, SLO).reasons).toEqual([
      '189 req/s < 95 % of 200: the load was not offered',
    ]);
    // no float noise in what a person reads
    expect(
      checkRunAgainstSlo({ ...GOOD, p99Ms: 1040.895, errorRate: 0.17647058823529413 }, SLO).reasons,
    ).toEqual(['p99 1040 ms > 50 ms', 'errors 17.6 % > 0.1 %']);
    expect(
      checkRunAgainstSlo({ ...GOOD, droppedIterations: 31, iterations: 2969 }, SLO).reasons,
    ).toEqual(['31 of 3000 iterations dropped (> 1 %)']);
  });

  it('fails a run with missing or impossible numbers and names them', () => {
    const r = checkRunAgainstSlo({ ...GOOD, p99Ms: null, rps: Number.NaN }, SLO);
    expect(r.passed).toBe(false);
    expect(r.reasons).toEqual(['p99 missing', 'rps is NaN']);
    expect(checkRunAgainstSlo({ ...GOOD, iterations: 0 }, SLO).reasons).toEqual([
      'no iterations planned',
    ]);
  });
});

describe('exact binomial bounds', () => {
  it('has the closed forms at the ends', () => {
    expect(clopperPearsonLower(3, 3, 0.85)).toBeCloseTo(0.15 ** (1 / 3), 10);
    expect(clopperPearsonUpper(0, 2, 0.7)).toBeCloseTo(1 - Math.sqrt(0.3), 10);
    expect(clopperPearsonLower(0, 5, 0.9)).toBe(0);
    expect(clopperPearsonUpper(5, 5, 0.9)).toBe(1);
    expect(binomialUpperTail(3, 3, 0.5)).toBeCloseTo(0.125, 14);
    expect(binomialLowerTail(1, 4, 0.5)).toBeCloseTo(5 / 16, 14);
  });

  it('agrees with R binom.test one-sided intervals', () => {
    // R: binom.test(7, 10, alternative = "greater", conf.level = 0.95)$conf.int[1] = 0.3933758
    expect(clopperPearsonLower(7, 10, 0.95)).toBeCloseTo(0.3933758, 6);
    // R: binom.test(2, 10, alternative = "less", conf.level = 0.95)$conf.int[2] = 0.5069013
    expect(clopperPearsonUpper(2, 10, 0.95)).toBeCloseTo(0.5069013, 6);
  });
});

describe('sloVerdict', () => {
  it('needs 5 of 5 passing runs for "meets" (at most 12 runs a setting) and 2 of 2 failing for "fails"', () => {
    expect(sloVerdict(5, 5).verdict).toBe('meets');
    expect(sloVerdict(4, 4).verdict).toBe('in-doubt');
    expect(sloVerdict(3, 3).verdict).toBe('in-doubt');
    expect(sloVerdict(2, 2).verdict).toBe('in-doubt');
    expect(sloVerdict(0, 2).verdict).toBe('fails');
    expect(sloVerdict(0, 1).verdict).toBe('in-doubt');
    expect(sloVerdict(0, 0)).toMatchObject({ verdict: 'in-doubt', runsToSettle: 5, runsToFail: 2 });
    // a search that gives a setting at most 8 runs (2 repeats × 4) looks less often: 4 of 4 meets
    expect(sloVerdict(4, 4, 8).verdict).toBe('meets');
  });

  it('follows the documented table beyond the minimum', () => {
    expect(sloVerdict(5, 6).verdict).toBe('in-doubt');
    expect(sloVerdict(6, 7).verdict).toBe('in-doubt');
    expect(sloVerdict(7, 8).verdict).toBe('meets');
    expect(sloVerdict(10, 12).verdict).toBe('meets');
    expect(sloVerdict(9, 12).verdict).toBe('in-doubt');
    expect(sloVerdict(1, 4).verdict).toBe('in-doubt');
    expect(sloVerdict(1, 5).verdict).toBe('fails');
  });

  it('says how many more runs could settle a doubt either way', () => {
    // 2 of 3: five more passes give 7 of 8; four more failures give 2 of 7 (P = 0.227).
    expect(sloVerdict(2, 3)).toMatchObject({ runsToSettle: 5, runsToFail: 4 });
    expect(sloVerdict(3, 3)).toMatchObject({ runsToSettle: 2, runsToFail: 6 });
    expect(sloVerdict(5, 5)).toMatchObject({ runsToSettle: 0 });
    expect(sloVerdict(5, 5).lowerBound).toBeGreaterThan(0.5);
    expect(sloVerdict(4, 4).lowerBound).toBeLessThan(0.5);
    expect(sloVerdict(0, 2).upperBound).toBeLessThan(0.5);
  });
});

describe('sloDesign: error rates over every look', () => {
  // every sequence of maxRuns runs, each with its probability; `crosses` is asked once per (k, n)
  const everyPath = (maxRuns: number, p: number, ask: (k: number, n: number) => boolean) => {
    const seen = new Map<number, boolean>();
    const crosses = (k: number, n: number) => {
      const key = n * 100 + k;
      if (!seen.has(key)) seen.set(key, ask(k, n));
      return seen.get(key)!;
    };
    let total = 0;
    for (let bits = 0; bits < 2 ** maxRuns; bits++) {
      let k = 0;
      let prob = 1;
      let crossed = false;
      for (let n = 1; n <= maxRuns; n++) {
        const pass = (bits >> (n - 1)) & 1;
        k += pass;
        prob *= pass ? p : 1 - p;
        crossed ||= crosses(k, n);
      }
      if (crossed) total += prob;
    }
    return total;
  };

  it('a setting whose runs meet half the time is ever called "meets" at most 10 % of the time, even looking after each run', () => {
    const d = sloDesign(12);
    const meets = (k: number, n: number) => sloVerdict(k, n, 12).verdict === 'meets';
    const brute = everyPath(12, 0.5, meets);
    expect(brute).toBeCloseTo(d.meetsError, 12);
    expect(brute).toBeLessThanOrEqual(SLO_VERDICT_RULE.meetsError);
    // the rule it replaced, p < 0.15 at every look: 3 of 3 alone is 0.125
    const old = everyPath(12, 0.5, (k, n) => binomialUpperTail(k, n, 0.5) < 0.15);
    expect(old).toBeGreaterThan(0.2);
  });

  it('a setting whose runs meet 90 % of the time is ever called "fails" at most 10 % of the time', () => {
    const fails = (k: number, n: number) => sloVerdict(k, n, 12).verdict === 'fails';
    const brute = everyPath(12, 0.9, fails);
    expect(brute).toBeCloseTo(sloDesign(12).failsError, 12);
    expect(brute).toBeLessThanOrEqual(SLO_VERDICT_RULE.failsError);
  });
});
