import { describe, expect, it } from 'vitest';
import { simulateGate } from './gate-simulation';

// The decision quality of the gate's defaults at 5 vs 5 runs with 10 % run-to-run variation of
// every metric (log-normal), through the functions schedules and the CI gate call. The full table
// (more checks, more settings): `npx tsx packages/stats/scripts/simulate-gate.ts`.
describe('the gate at 5 vs 5 runs, 10 % run-level noise', () => {
  it('A/A: a false regression in at most 5 % of checks', () => {
    const aa = simulateGate({ runs: 5, cv: 0.1, p95Factor: 1, checks: 400, seed: 44 });
    expect(aa.regression / 400).toBeLessThanOrEqual(0.05);
  });

  it('a 2x p95 regression is a regression in at least 80 % of checks, a pass in at most 5 %', () => {
    const r = simulateGate({ runs: 5, cv: 0.1, p95Factor: 2, checks: 400, seed: 45 });
    expect(r.regression / 400).toBeGreaterThanOrEqual(0.8);
    expect(r.pass / 400).toBeLessThanOrEqual(0.05);
  });
});
