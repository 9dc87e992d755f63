import { describe, expect, it } from 'vitest';
import {
  createHistogram,
  decodeHistogram,
  encodeHistogram,
  histogramStatsMs,
  mergeEncodedHistograms,
  mergeHistograms,
  percentileMs,
} from './hdr';

// Written by hdrhistogram-go (the k6 output's library): values 0..1000 µs and 2.5 s.
const FROM_GO =
  'HISTFAAAADZ42pJpmSzMwMD8loGBgZGBgYGZAQJAbIZrk5cw2H+ACDCNglEwCoY/2LqZkQkQAAD//1xgDrU=';

// Deterministic pseudo-random latencies (µs), log-normal-ish like real ones.
function latencies(n: number, seed: number): number[] {
  let x = seed;
  const next = () => (x = (x * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  return Array.from({ length: n }, () => Math.round(200 * Math.exp(3 * next())));
}

function exactPercentile(sorted: number[], p: number): number {
  const i = Math.max(Math.ceil((p / 100) * sorted.length) - 1, 0);
  return sorted[i] ?? NaN;
}

describe('hdr helpers', () => {
  it('decodes a histogram written by hdrhistogram-go with the same statistics Go computes', () => {
    const stats = histogramStatsMs(decodeHistogram(FROM_GO));
    // Go: TotalCount 1002, Min 0, Max 2500607, Mean 2994.0958, p50 500, p90 901, p99 991, p99.9 1000 (µs)
    expect(stats).toMatchObject({
      count: 1002,
      min: 0,
      max: 2500.607,
      p50: 0.5,
      p90: 0.901,
      p99: 0.991,
      p999: 1,
    });
    expect(stats?.mean).toBeCloseTo(2.9940958, 6);
  });

  it('merging per-window histograms equals one histogram of every value', () => {
    const all = createHistogram();
    const windows = [latencies(3000, 1), latencies(5000, 2), latencies(100, 3)].map((values) => {
      const h = createHistogram();
      for (const v of values) {
        h.recordValue(v);
        all.recordValue(v);
      }
      return encodeHistogram(h);
    });
    const merged = mergeHistograms(windows);
    expect(histogramStatsMs(merged)).toEqual(histogramStatsMs(all));
    for (const p of [1, 33.3, 75, 99.99])
      expect(percentileMs(merged, p)).toBe(percentileMs(all, p));
    expect(histogramStatsMs(decodeHistogram(mergeEncodedHistograms(windows)))).toEqual(
      histogramStatsMs(all),
    );
  });

  it('percentiles stay within 0.1 % of the exact ones (3 significant digits)', () => {
    const values = latencies(20_000, 7);
    const h = createHistogram();
    for (const v of values) h.recordValue(v);
    const sorted = [...values].sort((a, b) => a - b);
    for (const p of [50, 90, 95, 99, 99.9, 100]) {
      const exact = exactPercentile(sorted, p) / 1000;
      expect(Math.abs((percentileMs(h, p) ?? NaN) - exact) / exact).toBeLessThan(0.001);
    }
  });

  it('re-encoding keeps every count', () => {
    const h = decodeHistogram(FROM_GO);
    expect(histogramStatsMs(decodeHistogram(encodeHistogram(h)))).toEqual(histogramStatsMs(h));
  });

  it('reports an empty histogram as no value rather than 0 ms', () => {
    const empty = createHistogram();
    expect(histogramStatsMs(empty)).toBeNull();
    expect(percentileMs(empty, 99)).toBeUndefined();
    expect(histogramStatsMs(mergeHistograms([]))).toBeNull();
  });

  it('rejects garbage and impossible percentiles with a clear message', () => {
    expect(() => decodeHistogram('not-a-histogram')).toThrow(/V2-compressed HDR histogram/);
    expect(() => percentileMs(decodeHistogram(FROM_GO), 101)).toThrow(/0\.\.100/);
  });
});
