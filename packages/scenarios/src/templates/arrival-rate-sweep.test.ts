import { describe, expect, it } from 'vitest';
import { ArrivalRateSweepParamsSchema, sweepStepWindows } from './arrival-rate-sweep';

const params = (p: Record<string, unknown>) =>
  ArrivalRateSweepParamsSchema.parse({
    startRatePerSec: 100,
    stepRatePerSec: 100,
    preAllocatedVUs: 10,
    ...p,
  });

describe('sweepStepWindows', () => {
  it('gives each step the whole seconds inside its hold, whatever fraction of a second the load started at', () => {
    const w = sweepStepWindows(params({ steps: 3, stepDurationMs: 10_000 }));
    expect(w).toEqual([
      { index: 0, ratePerSec: 100, fromSec: 1, toSec: 10, includesEdges: false },
      { index: 1, ratePerSec: 200, fromSec: 11, toSec: 20, includesEdges: false },
      { index: 2, ratePerSec: 300, fromSec: 21, toSec: 30, includesEdges: false },
    ]);
    // every second in a window lies inside its hold for any start offset f in [0, 1)
    for (const f of [0, 0.3, 0.999]) {
      for (const [i, s] of w.entries()) {
        const a = f + i * 10;
        expect(s.fromSec).toBeGreaterThanOrEqual(a);
        expect(s.toSec).toBeLessThanOrEqual(a + 10);
      }
    }
  });

  it('skips the ramps between steps', () => {
    const w = sweepStepWindows(params({ steps: 2, stepDurationMs: 5_000, stepRampMs: 2_500 }));
    expect(w.map((s) => [s.fromSec, s.toSec])).toEqual([
      [1, 5],
      [9, 12],
    ]);
  });

  it('a step too short to trim keeps its rounded seconds and says so', () => {
    const w = sweepStepWindows(params({ steps: 2, stepDurationMs: 1_500 }));
    expect(w).toEqual([
      { index: 0, ratePerSec: 100, fromSec: 0, toSec: 2, includesEdges: true },
      { index: 1, ratePerSec: 200, fromSec: 2, toSec: 3, includesEdges: true },
    ]);
  });
});
