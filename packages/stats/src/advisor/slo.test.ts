import { describe, expect, it } from 'vitest';
import {
  type AdvisorObservation,
  type SloObjective,
  binomialLowerTail,
  binomialUpperTail,
  checkRunAgainstSlo,
  clopperPearsonLower,
  clopperPearsonUpper,
  sloVerdict,
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
  it('needs 3 of 3 passing runs for "meets" and 2 of 2 failing for "fails"', () => {
    expect(sloVerdict(3, 3).verdict).toBe('meets');
    expect(sloVerdict(2, 2).verdict).toBe('in-doubt');
    expect(sloVerdict(1, 1).verdict).toBe('in-doubt');
    expect(sloVerdict(0, 2).verdict).toBe('fails');
    expect(sloVerdict(0, 1).verdict).toBe('in-doubt');
    expect(sloVerdict(0, 0)).toMatchObject({ verdict: 'in-doubt', runsToSettle: 3, runsToFail: 2 });
  });

  it('follows the documented table beyond the minimum', () => {
    expect(sloVerdict(4, 5).verdict).toBe('in-doubt');
    expect(sloVerdict(5, 6).verdict).toBe('meets');
    expect(sloVerdict(1, 4).verdict).toBe('in-doubt');
    expect(sloVerdict(1, 5).verdict).toBe('fails');
  });

  it('says how many more runs could settle a doubt either way', () => {
    // 2 of 3: three more passes give 5 of 6; four more failures give 2 of 7 (P = 0.227).
    expect(sloVerdict(2, 3)).toMatchObject({ runsToSettle: 3, runsToFail: 4 });
    expect(sloVerdict(2, 2)).toMatchObject({ runsToSettle: 1, runsToFail: 5 });
    expect(sloVerdict(3, 3)).toMatchObject({ runsToSettle: 0 });
    const v = sloVerdict(3, 3);
    expect(v.lowerBound).toBeGreaterThan(0.5);
    expect(sloVerdict(0, 2).upperBound).toBeLessThan(0.5);
  });
});
