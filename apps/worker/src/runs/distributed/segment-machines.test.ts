import { describe, expect, it } from 'vitest';
import { segmentMachines } from './segment-machines';

const started = new Date(1_700_000_000_000);
const disturbance = (outsideCpuPercent: number) => ({
  outsideCpuPercent,
  machineCpuPercent: outsideCpuPercent + 100,
  stealPercent: 0,
  cores: 2,
  loadAvg1mAtEnd: 1,
  seconds: 10,
});
const segment = (
  index: number,
  over: Partial<Parameters<typeof segmentMachines>[0][number]> = {},
) => ({
  index,
  loadStartedAt: started,
  delivery: { lateSamples: index, lateRequests: 1, maxLagMs: 100 * index, graceMs: 1000 },
  disturbance: disturbance(10 * index),
  disturbanceBeforeStart: { outsideCpuPercent: 5, seconds: 2 },
  ...over,
});

describe("segmentMachines: a distributed run's generators recorded as one run", () => {
  it('sums the late samples and keeps the longest lag', () => {
    expect(segmentMachines([segment(0), segment(1), segment(2)]).delivery).toEqual({
      lateSamples: 3,
      lateRequests: 3,
      maxLagMs: 200,
      graceMs: 1000,
    });
  });

  it('knows no late-sample count when one generator that sent load has none', () => {
    expect(segmentMachines([segment(0), segment(1, { delivery: null })]).delivery).toBeNull();
  });

  it('leaves out a generator that never sent load', () => {
    const m = segmentMachines([segment(0), segment(1, { delivery: null, loadStartedAt: null })]);
    expect(m.delivery?.lateSamples).toBe(0);
  });

  it('names the most disturbed generator, the first of equals', () => {
    const m = segmentMachines([
      segment(0, { disturbance: disturbance(40) }),
      segment(1, { disturbance: disturbance(70) }),
      segment(2, { disturbance: disturbance(70) }),
    ]);
    expect(m.disturbance).toEqual({ ...disturbance(70), segment: 1 });
    expect(m.disturbanceBeforeStart).toEqual({ outsideCpuPercent: 5, seconds: 2, segment: 0 });
  });

  it('says nothing when no generator measured its machine', () => {
    const m = segmentMachines([segment(0, { disturbance: null, disturbanceBeforeStart: null })]);
    expect(m.disturbance).toBeNull();
    expect(m.disturbanceBeforeStart).toBeNull();
  });
});
