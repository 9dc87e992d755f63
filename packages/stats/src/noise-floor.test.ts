import { describe, expect, it } from 'vitest';
import { measureNoiseFloor } from './noise-floor';
import { withNoiseFloor, type NoiseFloors } from './noise-floor-options';
import { compareRunGroups } from './run-metrics';
import { summary } from './testing/summary-fixture';

const group = (label: string, p50s: number[], rps = 100) => ({
  label,
  summaries: p50s.map((p) => summary(rps, p)),
});

describe('measureNoiseFloor', () => {
  it("is the reach of the A/A interval, which for 5 vs 5 runs is the 3rd and 23rd of the 25 pairwise log differences (Mann–Whitney's exact critical U = 2 at α = 0.05)", () => {
    const a = [100, 104, 97, 110, 93];
    const b = [101, 99, 120, 96, 105];
    const floors = measureNoiseFloor(group('A', a), group('B', b));
    const p50 = floors.find((f) => f.key === 'p50Ms')!;
    // independent of the library: every pairwise difference of the logs, sorted
    const d = b.flatMap((y) => a.map((x) => Math.log(y) - Math.log(x))).sort((x, y) => x - y);
    const reach = Math.max(Math.abs(d[2]!), Math.abs(d[22]!));
    expect(p50.unit).toBe('percent');
    expect(p50.n).toBe(5);
    expect(p50.value).toBeCloseTo(100 * Math.expm1(reach), 10);
    // the A/A change (Hodges–Lehmann: the median pairwise difference) lies inside the floor
    expect(p50.estimate).toBeCloseTo(100 * Math.expm1(d[12]!), 10);
    expect(Math.abs(p50.estimate)).toBeLessThanOrEqual(p50.value);
  });

  it('measures linear metrics in their own unit and leaves out metrics without an interval', () => {
    const errors = (label: string, rates: number[]) => ({
      label,
      summaries: rates.map((r) => summary(100, 10, r)),
    });
    const a = [0.01, 0.02, 0.015, 0.01, 0.03];
    const b = [0.02, 0.01, 0.025, 0.02, 0.01];
    const floors = measureNoiseFloor(errors('A', a), errors('B', b));
    // error rates are compared in percentage points: the pairwise differences of the percents
    const d = b.flatMap((y) => a.map((x) => 100 * y - 100 * x)).sort((x, y) => x - y);
    const rate = floors.find((f) => f.key === 'errorRate')!;
    expect(rate.unit).toBe('absolute');
    expect(rate.value).toBeCloseTo(Math.max(Math.abs(d[2]!), Math.abs(d[22]!)), 10);
    expect(measureNoiseFloor(group('A', [10]), group('B', [11]))).toEqual([]);
  });
});

describe('a calibrated floor in a comparison', () => {
  const base = group('base', [100, 101, 99, 102, 98, 100]);
  const cand = group('cand', [112, 113, 111, 114, 110, 112]);

  it('raises the practical floor only where the measured noise exceeds the default', () => {
    expect(withNoiseFloor({}, { unit: 'percent', value: 3 })).toEqual({
      options: {},
      raised: false,
    });
    expect(withNoiseFloor({}, { unit: 'percent', value: 20 })).toEqual({
      options: { floorPercent: 20 },
      raised: true,
    });
    // a percent floor says nothing about a metric compared in its own unit, and vice versa
    const linear = { scale: 'linear' as const, absoluteFloor: 0.001 };
    expect(withNoiseFloor(linear, { unit: 'percent', value: 20 }).raised).toBe(false);
    expect(withNoiseFloor({}, { unit: 'absolute', value: 20 }).raised).toBe(false);
    expect(withNoiseFloor(linear, { unit: 'absolute', value: 0.5 })).toEqual({
      options: { scale: 'linear', absoluteFloor: 0.5 },
      raised: true,
    });
  });

  it('turns a 12 % slowdown that the machine cannot tell from noise (floor 20 %) into no verdict, and says which floor it used', () => {
    const p50 = (noiseFloors?: NoiseFloors) =>
      compareRunGroups(base, cand, {}, { noiseFloors }).metrics.find((m) => m.name === 'p50Ms')!;
    expect(p50().verdict).toBe('worse');
    expect(p50().noiseFloor).toBe(false);
    const floored = p50({ p50Ms: { unit: 'percent', value: 20 } });
    expect(floored.verdict).toBe('no-change');
    expect(floored.noiseFloor).toBe(true);
    expect(floored.floor.percent).toBe(20);
    // a floor below the effect changes nothing but the band
    expect(p50({ p50Ms: { unit: 'percent', value: 8 } }).verdict).toBe('worse');
  });
});
