import { describe, expect, it } from 'vitest';
import { runOrder } from '@poolbench/db';
import { DEFAULT_RUN_ORDER } from '@poolbench/contracts';
import { simulateGate } from '@poolbench/stats/simulation';

// The default run order through the gate's own functions (the full table, 2 000 checks a row:
// `npx tsx packages/runs/scripts/order-effects.ts`, docs/decision-quality.md): when the first run
// of each pair is slower (a cold cache after the pause between rounds), an order that always runs
// the baseline first reads that as the candidate being better, and hides a real regression of the
// same size.
const checks = 300;
const sequence = runOrder(2, 1, 5, DEFAULT_RUN_ORDER).map((c) => c.poolConfigIndex as 0 | 1);

describe(`the default run order (${DEFAULT_RUN_ORDER}) with a 20 % first-in-pair effect, 5 vs 5`, () => {
  it('an A/A check calls a primary metric better in at most 5 % of checks', () => {
    const aa = simulateGate({
      runs: 5,
      cv: 0.1,
      p95Factor: 1,
      sequence,
      firstInRound: 0.2,
      checks,
      seed: 61,
    });
    expect(aa.improved / checks).toBeLessThanOrEqual(0.05);
    expect((aa.regression + aa['suspected-regression']) / checks).toBeLessThanOrEqual(0.05);
  });

  it('a 2× p95 regression is still a regression in at least 80 % of checks', () => {
    const r = simulateGate({
      runs: 5,
      cv: 0.1,
      p95Factor: 2,
      sequence,
      firstInRound: 0.2,
      checks,
      seed: 62,
    });
    expect(r.regression / checks).toBeGreaterThanOrEqual(0.8);
    expect(r.pass / checks).toBeLessThanOrEqual(0.05);
  });

  it('each config runs first in half the pairs', () => {
    const firsts = sequence.filter((_, i) => i % 2 === 0);
    expect(firsts.filter((s) => s === 0)).toHaveLength(3);
    expect(
      runOrder(2, 1, 4, DEFAULT_RUN_ORDER).filter((c, i) => i % 2 === 0 && c.poolConfigIndex === 0),
    ).toHaveLength(2);
  });
});
