import { describe, expect, it } from 'vitest';
import { plannedIterations } from './planned-duration';
import { planTemplate } from './templates/registry';

describe('plannedIterations', () => {
  it('a constant arrival rate: rate x duration', () => {
    const plan = planTemplate('constant-arrival-rate', {
      ratePerSec: 200,
      durationMs: 30_000,
      preAllocatedVUs: 10,
    });
    expect(plannedIterations(plan)).toBe(6000);
  });

  it('a sweep: each hold, and each ramp at its mean rate', () => {
    const plan = planTemplate('arrival-rate-sweep', {
      startRatePerSec: 100,
      stepRatePerSec: 100,
      steps: 3,
      stepDurationMs: 10_000,
      stepRampMs: 2_000,
      preAllocatedVUs: 10,
    });
    // holds 100, 200, 300 for 10 s; ramps 100->200 and 200->300 over 2 s
    expect(plannedIterations(plan)).toBe(1000 + 2000 + 3000 + 300 + 500);
  });

  it('a closed model asks for no rate', () => {
    const plan = planTemplate('sustained', { vus: 5, durationMs: 10_000, thinkTimeMs: 0 });
    expect(plannedIterations(plan)).toBeNull();
  });
});
