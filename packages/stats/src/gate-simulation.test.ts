import { describe, expect, it } from 'vitest';
import { simulateGate } from './gate-simulation';

// The decision quality of the gate's defaults (5 vs 5 runs, Holm over the four primary metrics,
// suspicion at the same alpha) through the functions schedules and the CI gate call, every metric
// with its own log-normal run-to-run variation. The full table (2 000 checks a row, more settings,
// the noise levels where a 2x change is missed): `npx tsx packages/stats/scripts/simulate-gate.ts`
// and docs/decision-quality.md.
const checks = 400;
const share = (n: number) => n / checks;

describe('the gate at its defaults, 5 vs 5 runs', () => {
  it.each([0.1, 0.5])('A/A at CV %s: a false alarm in at most 5 % of checks', (cv) => {
    const aa = simulateGate({ runs: 5, cv, p95Factor: 1, checks, seed: 44 });
    // a false alarm is a regression or a suspected regression
    expect(share(aa.regression + aa['suspected-regression'])).toBeLessThanOrEqual(0.05);
    expect(aa.incomplete).toBe(0);
  });

  for (const [metric, f] of [
    ['p95', { p95Factor: 2 }],
    ['p99', { p95Factor: 1, p99Factor: 2 }],
  ] as const)
    it(`a 2x ${metric} regression at 10 % noise: a regression in ≥ 80 % of checks, a pass in ≤ 5 %`, () => {
      const r = simulateGate({ runs: 5, cv: 0.1, ...f, checks, seed: 45 });
      expect(share(r.regression)).toBeGreaterThanOrEqual(0.8);
      expect(share(r.pass)).toBeLessThanOrEqual(0.05);
    });

  it.each([1, 2])('1 of 3 candidate runs crashed, p95 %sx: never a pass', (p95Factor) => {
    const r = simulateGate({
      runs: 5,
      candidateRuns: 3,
      crashedRuns: 1,
      cv: 0.1,
      p95Factor,
      checks: 100,
      seed: 46,
    });
    expect(r.pass).toBe(0);
  });

  // A candidate that cannot take the load is a regression (`loadNotTakenReason`), not a cell left
  // incomplete for want of valid runs. Its false alarm, when every run of both sides falls behind
  // at random with the same chance q, peaks near q = 0.32, where it is 2.77 % by hand (3 or more
  // of 5 candidate runs short, none of 5 baseline runs); 3 000 checks put 3.7 % 3 standard errors
  // above that (the bench's 20 000 checks: 2.8 %).
  it('A/A with every run falling behind at random (q = 0.32): load-not-taken in at most 3.7 % of checks', () => {
    const n = 3000;
    const aa = simulateGate({
      runs: 5,
      cv: 0.1,
      p95Factor: 1,
      notOffered: { baseline: 0.32, candidate: 0.32 },
      checks: n,
      seed: 47,
    });
    expect(aa.loadNotTaken / n).toBeLessThanOrEqual(0.037);
    expect(aa.loadNotTaken / n).toBeGreaterThan(0.015); // the rule does fire on such data
  });

  it('a candidate whose runs fall behind 4 times in 5 (baseline 1 in 20): a regression in ≥ 65 %, a pass in ≤ 2 %', () => {
    const r = simulateGate({
      runs: 5,
      cv: 0.1,
      p95Factor: 1,
      notOffered: { baseline: 0.05, candidate: 0.8 },
      checks,
      seed: 48,
    });
    expect(share(r.loadNotTaken)).toBeGreaterThanOrEqual(0.65);
    expect(share(r.regression)).toBeGreaterThanOrEqual(0.65);
    expect(share(r.pass)).toBeLessThanOrEqual(0.02);
  });
});
