import { describe, expect, it } from 'vitest';
import { compareSamples } from './compare-samples';

const codes = (c: { warnings: { code: string }[] }) => c.warnings.map((w) => w.code);
const base5 = [100, 102, 98, 101, 99];
const slower5 = [120, 125, 119, 121, 118];

describe('compareSamples', () => {
  it('calls a clear 20 % latency increase worse, with the exact test and a log-scale interval', () => {
    const c = compareSamples(base5, slower5);
    expect(c.verdict).toBe('worse');
    expect(c.rule).toBe('beyond-floor');
    expect(c.scale).toBe('log');
    expect(c.test?.method).toBe('exact');
    expect(c.pValue).toBeCloseTo(2 / 252, 15); // all 5 above all 5: 2 / C(10, 5)
    // Moses interval: the 3rd smallest and 3rd largest of the 25 ratios (qwilcox(0.025, 5, 5) = 3).
    expect(c.changePercent!.lower).toBeCloseTo(100 * (118 / 101 - 1), 10);
    expect(c.changePercent!.upper).toBeCloseTo(100 * (125 / 100 - 1), 10);
    expect(c.achievedConfidence).toBeCloseTo(1 - 8 / 252, 15); // 1 − 2·P(U ≤ 2), P(U ≤ 2) = 4/252
    expect(c.baseline).toEqual({ n: 5, median: 100 });
    expect(c.candidate).toEqual({ n: 5, median: 120 });
    expect(c.insufficient).toBe(false);
    expect(c.warnings).toEqual([]);
    expect(c.reason).toContain('beyond the no-change band');
  });

  it('calls the same increase better when higher is better (throughput)', () => {
    expect(compareSamples(base5, slower5, { direction: 'higher-is-better' }).verdict).toBe(
      'better',
    );
    expect(compareSamples(slower5, base5, { direction: 'higher-is-better' }).verdict).toBe('worse');
  });

  it('reports the change as candidate relative to baseline: 100·(e^d − 1)', () => {
    const c = compareSamples([10, 10.1, 9.9, 10.05], [20, 20.2, 19.8, 20.1]);
    expect(c.changePercent!.estimate).toBeCloseTo(100, 0);
    expect(c.changePercent!.estimate).toBeCloseTo(100 * Math.expm1(c.shift!.estimate), 12);
  });

  it('refuses a verdict with fewer than 2 runs on a side', () => {
    const c = compareSamples([1], [1, 2, 3]);
    expect(c.verdict).toBe('inconclusive');
    expect(c.rule).toBe('insufficient');
    expect(c.insufficient).toBe(true);
    expect(c.shift).toBeNull();
    expect(c.pValue).toBeNull();
    expect(codes(c)).toEqual(['too-few-runs']);
    expect(compareSamples([], []).baseline).toEqual({ n: 0, median: null });
  });

  it('says that 3 runs per side cannot reach p < 0.05 and returns inconclusive even for a big change', () => {
    const c = compareSamples([100, 102, 98], [120, 125, 119]);
    expect(c.pValue).toBeCloseTo(0.1, 15);
    expect(c.minPValue).toBeCloseTo(0.1, 15);
    expect(c.achievedConfidence).toBeCloseTo(0.9, 15);
    expect(c.verdict).toBe('inconclusive');
    expect(c.insufficient).toBe(true);
    expect(codes(c)).toEqual(['p-floor-above-alpha', 'confidence-not-reachable']);
    expect(c.warnings[0]?.message).toContain('at least 4 repeats per side');
    // The estimate is still reported so the UI can show it.
    expect(c.changePercent!.estimate).toBeGreaterThan(15);
  });

  it('calls a significant but small change no-change when its interval is inside the floor', () => {
    const b = [100, 100.2, 99.8, 100.1, 99.9, 100.05, 99.95, 100.15, 99.85, 100.12];
    const c = compareSamples(
      b,
      b.map((v) => v * 1.01),
    );
    expect(c.pValue!).toBeLessThan(0.05);
    expect(c.verdict).toBe('no-change');
    expect(c.rule).toBe('within-floor');
  });

  it('is inconclusive when the interval crosses the floor', () => {
    const c = compareSamples([100, 110, 95, 105, 102, 98], [104, 112, 99, 110, 106, 100]);
    expect(c.verdict).toBe('inconclusive');
    expect(c.rule).toBe('crosses-floor');
    expect(c.changePercent!.lower).toBeLessThan(5);
    expect(c.changePercent!.upper).toBeGreaterThan(5);
  });

  it('uses a symmetric band on the log scale: a factor 1.05 either way', () => {
    const c = compareSamples(base5, base5);
    expect(c.noChangeBand!.upper).toBeCloseTo(Math.log(1.05), 15);
    expect(c.noChangeBand!.lower).toBeCloseTo(-Math.log(1.05), 15);
  });

  it('falls back to the linear scale for zeros and says so, with an absolute floor', () => {
    const zeros = [0, 0, 0, 0, 0];
    const errs = [0.01, 0.02, 0.015, 0.01, 0.03];
    const c = compareSamples(zeros, errs, { absoluteFloor: 0.001 });
    expect(c.scale).toBe('linear');
    expect(c.changePercent).toBeNull();
    expect(c.shift).toEqual({ estimate: 0.015, lower: 0.01, upper: 0.03 });
    expect(codes(c)).toEqual(['linear-scale', 'baseline-median-zero', 'ties']);
    expect(c.verdict).toBe('worse');
    const wide = compareSamples(zeros, errs, { absoluteFloor: 0.02 });
    expect(wide.verdict).toBe('inconclusive');
  });

  it('says when the band in percent comes from an absolute floor, not the 5 % one (±12.5 % around an error rate of 0.008)', () => {
    const base = [0.008, 0.0075, 0.0085, 0.008, 0.0079];
    const c = compareSamples(base, [0.0081, 0.0079, 0.008, 0.0082, 0.0078], {
      scale: 'linear',
      absoluteFloor: 0.001,
    });
    expect(c.floor).toEqual({ percent: 5, absolute: 0.001 });
    expect(c.reason).toContain('no-change band -12.50 % … +12.50 %');
    expect(c.reason).toContain(
      "this metric's absolute floor of ±0.001 in its own units around a baseline median of 0.008, not the 5 % floor",
    );
    // a log-scale metric keeps the documented floor and needs no explanation
    const log = compareSamples(base5, base5);
    expect(log.floor).toEqual({ percent: 5, absolute: null });
    expect(log.reason).not.toContain('absolute floor');
  });

  it('on the linear scale measures the floor against the baseline median', () => {
    const c = compareSamples(base5, slower5, { scale: 'linear' });
    expect(c.shift!.estimate).toBe(20);
    expect(c.changePercent!.estimate).toBe(20);
    expect(c.noChangeBand).toEqual({ lower: -5, upper: 5 });
    expect(compareSamples(base5, [103, 104.5, 101, 103.5, 102], { scale: 'linear' }).verdict).toBe(
      'inconclusive',
    );
  });

  it('gives no-change, p = 1 and a zero interval for identical constant samples', () => {
    const c = compareSamples([5, 5, 5, 5], [5, 5, 5, 5]);
    expect(c.verdict).toBe('no-change');
    expect(c.pValue).toBe(1);
    expect(c.shift).toEqual({ estimate: 0, lower: 0, upper: 0 });
    expect(codes(c)).toEqual(['all-tied']);
  });

  it('handles each side constant but different (ties within each sample only)', () => {
    const c = compareSamples([10, 10, 10, 10, 10], [12, 12, 12, 12, 12, 12]);
    expect(c.test?.method).toBe('asymptotic');
    expect(c.shift!.lower).toBeCloseTo(Math.log(1.2), 15);
    expect(c.shift!.upper).toBeCloseTo(Math.log(1.2), 15);
    expect(c.verdict).toBe('worse');
  });

  it('compares a sample with itself as p = 1 and a shift of 0', () => {
    const a = [12.1, 11.8, 12.4, 12.0, 11.9, 12.2];
    const c = compareSamples(a, a);
    expect(c.pValue).toBe(1);
    expect(c.shift!.estimate).toBe(0);
    expect(c.shift!.lower).toBe(-c.shift!.upper);
  });

  it('falls back from a requested exact test when there are ties, and warns', () => {
    const c = compareSamples([1, 2, 3, 4], [3, 4, 5, 6], { method: 'exact' });
    expect(c.test?.method).toBe('asymptotic');
    expect(codes(c)).toContain('exact-unavailable');
  });

  it('honours alpha and confidence', () => {
    const c = compareSamples(base5, slower5, { alpha: 0.001 });
    expect(c.confidence).toBe(0.999);
    expect(c.verdict).toBe('inconclusive'); // 2/252 is the smallest p for 5 vs 5
    expect(codes(c)).toContain('p-floor-above-alpha');
  });

  it('rejects non-finite values and bad options with a message naming the field', () => {
    expect(() => compareSamples([1, Number.NaN], [1, 2])).toThrow('baseline[1] is NaN');
    expect(() => compareSamples([1, 2], [1, Infinity])).toThrow('candidate[1]');
    expect(() => compareSamples([1, 2], [1, 2], { alpha: 0 })).toThrow('alpha');
    expect(() => compareSamples([1, 2], [1, 2], { floorPercent: -1 })).toThrow('floorPercent');
  });
});
