import { describe, expect, it } from 'vitest';
import { benjaminiHochberg } from './benjamini-hochberg';
import { compareMetrics } from './compare-metrics';
import { compareSamples } from './compare-samples';

const base = [100, 102, 98, 101];
const separated = [120, 125, 119, 121]; // 4 vs 4 fully separated: p = 2/70
const same = [100.5, 101, 99, 102.5];

describe('compareMetrics', () => {
  it('decides with Benjamini–Hochberg adjusted p-values across the metrics', () => {
    expect(compareSamples(base, separated).verdict).toBe('worse');
    const results = compareMetrics([
      { name: 'p99Ms', baseline: base, candidate: separated },
      { name: 'p50Ms', baseline: base, candidate: same },
      {
        name: 'throughputRps',
        baseline: base,
        candidate: same,
        options: { direction: 'higher-is-better' },
      },
    ]);
    const raw = results.map((r) => r.rawPValue);
    expect(results.map((r) => r.pValue)).toEqual(benjaminiHochberg(raw).adjusted);
    const p99 = results[0]!;
    expect(p99.rawPValue).toBeCloseTo(2 / 70, 15);
    expect(p99.pValue).toBeCloseTo((3 * 2) / 70, 15);
    // Alone it would be "worse"; among three metrics the adjusted p is no longer below 0.05.
    expect(p99.verdict).toBe('inconclusive');
    expect(p99.rule).toBe('beyond-floor-not-significant');
    expect(p99.reason).toContain('not below 0.05');
    expect(results[2]!.direction).toBe('higher-is-better');
  });

  it('keeps a verdict that survives the adjustment and skips metrics without a test', () => {
    const b = [100, 101, 99, 100.5, 99.5, 100.2, 99.8];
    const results = compareMetrics([
      { name: 'p99Ms', baseline: b, candidate: b.map((v) => v * 1.3) },
      { name: 'cpu', baseline: [1], candidate: [2] },
    ]);
    expect(results[0]!.verdict).toBe('worse');
    expect(results[0]!.pValue).toBe(results[0]!.rawPValue); // the untestable metric does not count in m
    expect(results[1]!.pValue).toBeNull();
    expect(results[1]!.verdict).toBe('inconclusive');
  });
});
