import { describe, expect, it } from 'vitest';
import type { RunSummary } from './run-summary';
import { checkRunAgainstSlo } from './advisor/slo';
import { runValidity } from './run-validity';

const summary = (over: Partial<RunSummary> = {}) =>
  ({
    requests: 12_000,
    iterations: 12_000,
    droppedIterations: 0,
    delivery: null,
    ...over,
  }) as RunSummary;

describe('runValidity', () => {
  it('a run that offered its load and lost nothing is valid', () => {
    expect(runValidity({ summary: summary(), model: 'open', plannedIterations: 12_000 })).toEqual({
      valid: true,
      reasons: [],
    });
  });

  it('dropped iterations: up to 1 % of the planned ones counts, beyond it the run is invalid', () => {
    const at = summary({ iterations: 9_900, droppedIterations: 100 });
    expect(runValidity({ summary: at, model: 'open' }).valid).toBe(true);
    // one dropped iteration in 100 000 is no reason to throw a run away
    const one = summary({ iterations: 99_999, droppedIterations: 1 });
    expect(runValidity({ summary: one, model: 'open' }).valid).toBe(true);
    const beyond = summary({ iterations: 9_680, droppedIterations: 320 });
    expect(runValidity({ summary: beyond, model: 'open' })).toEqual({
      valid: false,
      reasons: [
        { code: 'load-not-offered', message: 'load not offered (3.2 % of iterations dropped)' },
      ],
    });
  });

  it('the same bound as the advisor: one rule, one constant', () => {
    const slo = { kind: 'slo' as const, p99Ms: 100, errorRate: 0.01, rate: 1 };
    for (const [iterations, dropped] of [
      [2970, 30],
      [2969, 31],
      [99_999, 1],
      [900, 100],
    ] as const) {
      const advisorDropped = checkRunAgainstSlo(
        { setting: 1, p99Ms: 1, errorRate: 0, rps: 1, droppedIterations: dropped, iterations },
        slo,
      ).reasons.some((r) => r.includes('iterations dropped'));
      const invalid = !runValidity({
        summary: summary({ iterations, droppedIterations: dropped }),
        model: 'open',
      }).valid;
      expect(invalid).toBe(advisorDropped);
    }
  });

  it('an arrival-rate run below 95 % of its target rate is invalid, a closed model is not held to it', () => {
    const short = summary({ iterations: 11_000 });
    expect(runValidity({ summary: short, model: 'open', plannedIterations: 12_000 })).toEqual({
      valid: false,
      reasons: [
        {
          code: 'load-not-offered',
          message:
            'load not offered (91.7 % of the target rate achieved: 11000 of 12000 iterations)',
        },
      ],
    });
    expect(
      runValidity({
        summary: summary({ iterations: 11_400 }),
        model: 'open',
        plannedIterations: 12_000,
      }).valid,
    ).toBe(true);
    expect(runValidity({ summary: short, model: 'closed', plannedIterations: 12_000 }).valid).toBe(
      true,
    );
    // dropped iterations already say it: one reason, not two
    const dropped = summary({ iterations: 10_000, droppedIterations: 2_000 });
    expect(
      runValidity({ summary: dropped, model: 'open', plannedIterations: 12_000 }).reasons,
    ).toHaveLength(1);
  });

  it('a generator so starved that more than 1 % of the requests reached the output late', () => {
    const delivery = { lateSamples: 400, lateRequests: 200, maxLagMs: 1800, graceMs: 1000 };
    expect(runValidity({ summary: summary({ delivery }), model: 'closed' })).toEqual({
      valid: false,
      reasons: [
        {
          code: 'samples-late',
          message: 'samples lost (1.64 % of requests reached the output late)',
        },
      ],
    });
    const few = { ...delivery, lateRequests: 3 };
    expect(runValidity({ summary: summary({ delivery: few }), model: 'closed' }).valid).toBe(true);
  });

  it('a run without a summary is not judged here', () => {
    expect(runValidity({ summary: null, model: 'open' }).valid).toBe(true);
  });
});
