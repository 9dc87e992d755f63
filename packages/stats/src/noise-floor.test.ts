import { describe, expect, it } from 'vitest';
import { simulateGate } from './gate-simulation';
import { measureNoiseFloor } from './noise-floor';
import {
  NOISE_FLOOR_CAP_FACTOR,
  noiseWarning,
  withNoiseFloor,
  type NoiseFloors,
} from './noise-floor-options';
import { DEFAULT_FLOOR_PERCENT } from '@poolbench/contracts';
import { normalDraw, seededRandom } from './seeded-random';
import { compareRunGroups } from './run-metrics';
import { summary } from './testing/summary-fixture';

const group = (label: string, p50s: number[], rps = 100) => ({
  label,
  summaries: p50s.map((p) => summary(rps, p)),
});

// p95 of a calibration side: runs of one config whose p95 varies log-normally by `cv`, times `f`
const noisy = (random: () => number, label: string, n: number, cv: number, f = 1) => {
  const sigma = Math.sqrt(Math.log1p(cv * cv));
  return {
    label,
    summaries: Array.from({ length: n }, () => {
      const s = summary(100, 10);
      const p95 = s.latency!.p95 * f * Math.exp(sigma * normalDraw(random));
      return { ...s, latency: { ...s.latency!, p95 } };
    }),
  };
};
const p95Floor = (floors: ReturnType<typeof measureNoiseFloor>) =>
  floors.find((f) => f.key === 'p95Ms')!;

describe('measureNoiseFloor: the excess A/A shift', () => {
  it('runs that vary by 10 % and nothing else leave the default floor (the reach of the A/A interval read ±16 %)', () => {
    const random = seededRandom(202);
    const values = Array.from({ length: 200 }, () =>
      p95Floor(measureNoiseFloor(noisy(random, 'A', 8, 0.1), noisy(random, 'B', 8, 0.1))),
    );
    const raised = values.filter((f) => f.value > DEFAULT_FLOOR_PERCENT).length / values.length;
    const sorted = values.map((f) => f.value).sort((x, y) => x - y);
    expect(sorted[100]!).toBeLessThan(1);
    expect(raised).toBeLessThanOrEqual(0.05);
    // the run-to-run spread itself is recorded: about 10 %
    const spreads = values.map((f) => f.spread!).sort((x, y) => x - y);
    expect(spreads[100]!).toBeGreaterThan(8);
    expect(spreads[100]!).toBeLessThan(12);
  });

  it('measures a systematic offset between the identical sides beyond their spread, capped at 4x the default floor', () => {
    const random = seededRandom(7);
    const offset = p95Floor(
      measureNoiseFloor(noisy(random, 'A', 8, 0.05), noisy(random, 'B', 8, 0.05, 1.15)),
    );
    // 15 % apart with 5 % run-to-run spread: about 15 % less 1.96 standard errors (~5 %)
    expect(offset.value).toBeGreaterThan(5);
    expect(offset.value).toBeLessThan(15);
    const doubled = p95Floor(
      measureNoiseFloor(noisy(random, 'A', 8, 0.05), noisy(random, 'B', 8, 0.05, 2)),
    );
    expect(doubled.value).toBe(NOISE_FLOOR_CAP_FACTOR * DEFAULT_FLOOR_PERCENT);
    // a floor stored before the cap is capped where it is used
    expect(withNoiseFloor({}, { unit: 'percent', value: 99 }).options.floorPercent).toBe(20);
  });

  it('measures linear metrics in their own unit and leaves out metrics without a test', () => {
    const errors = (label: string, rates: number[]) => ({
      label,
      summaries: rates.map((r) => summary(100, 10, r)),
    });
    const a = [0.01, 0.02, 0.015, 0.01, 0.03];
    const b = [0.02, 0.01, 0.025, 0.02, 0.01];
    const rate = measureNoiseFloor(errors('A', a), errors('B', b)).find(
      (f) => f.key === 'errorRate',
    )!;
    expect(rate.unit).toBe('absolute');
    // 0 shift beyond the spread; the spread is the pooled SD of the percentages
    expect(rate.value).toBe(0);
    expect(rate.spread).toBeGreaterThan(0.5);
    expect(rate.spread).toBeLessThan(1);
    expect(measureNoiseFloor(group('A', [10]), group('B', [11]))).toEqual([]);
  });
});

describe('noiseWarning: when a comparison cannot see a doubling', () => {
  it('names the metric, the noise and what to do, at the run counts compared', () => {
    const runs = { baseline: 5, candidate: 5 };
    expect(noiseWarning('p99', { unit: 'percent', spread: 48 }, runs)).toBe(
      'p99 noise on this machine is ±48 % between runs (A/A calibration): at 5 vs 5 runs a change under 3.1× can read as no change; use longer runs or more repeats',
    );
    expect(noiseWarning('p99', { unit: 'percent', spread: 10 }, runs)).toBeNull();
    expect(
      noiseWarning('p99', { unit: 'percent', spread: 48 }, { baseline: 25, candidate: 25 }),
    ).toBeNull();
    expect(noiseWarning('p99', { unit: 'percent' }, runs)).toBeNull();
  });

  it('with a calibration from a noisy machine (50 %), neither an A/A check nor a true 2x regression at 5 vs 5 is a pass: incomplete, naming the noise', () => {
    for (const [f, seed] of [
      [1, 301],
      [2, 302],
    ] as const) {
      const r = simulateGate({
        runs: 5,
        cv: 0.5,
        p95Factor: f,
        calibrationRunsPerSide: 8,
        checks: 200,
        seed,
      });
      expect(r.pass / 200).toBeLessThanOrEqual(0.05);
    }
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
    // capped at 4x the metric's own floor
    expect(withNoiseFloor(linear, { unit: 'absolute', value: 0.5 })).toEqual({
      options: { scale: 'linear', absoluteFloor: 0.004 },
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
