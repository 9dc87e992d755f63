import { describe, expect, it } from 'vitest';
import { compareRunGroups, RUN_METRICS } from './run-metrics';
import {
  parseGateMetrics,
  RUN_METRIC_KEYS,
  TESTED_RUN_METRIC_KEYS,
  type RunMetricKey,
} from '@poolbench/contracts';
import { summary } from './testing/summary-fixture';
import { cellState, isSuspectedWorse } from './gate-outcome';

describe('compareRunGroups', () => {
  it('calls a clearly faster candidate better on throughput and latency, and never tests max', () => {
    const base = {
      label: 'A',
      summaries: [100, 102, 98, 101, 99, 100].map((r) => summary(r, 10 + (r % 3) * 0.1)),
    };
    const cand = {
      label: 'B',
      summaries: [150, 152, 149, 151, 148, 150].map((r) => summary(r, 6 + (r % 3) * 0.1)),
    };
    const c = compareRunGroups(base, cand);
    const by = (k: string) => c.metrics.find((m) => m.name === k)!;
    expect(by('rps').verdict).toBe('better');
    expect(by('rps').changePercent!.estimate).toBeGreaterThan(40);
    expect(by('p50Ms').verdict).toBe('better');
    expect(c.metrics.find((m) => m.name === 'maxMs')).toBeUndefined();
    expect(RUN_METRICS.find((m) => m.key === 'maxMs')!.tested).toBe(false);
  });

  it('flags p99 from runs with fewer than 1000 requests', () => {
    const small = (r: number) => ({ ...summary(r, 10), requests: 500 });
    const c = compareRunGroups(
      { label: 'A', summaries: [1, 2, 3, 4].map(() => small(100)) },
      { label: 'B', summaries: [1, 2, 3, 4].map(() => small(100)) },
    );
    expect(c.metrics.find((m) => m.name === 'p99Ms')!.lowRequests).toBe(true);
    expect(c.metrics.find((m) => m.name === 'p50Ms')!.lowRequests).toBe(false);
  });
});

describe('compareRunGroups gated on chosen metrics', () => {
  // Every metric identical across all runs except p99, which is ~50 % worse in every candidate run:
  // the best p-value 4 vs 4 runs can reach (2 / C(8, 4) = 0.029) for p99, p = 1 for the rest.
  const withP99 = (p99: number) => {
    const s = summary(100, 10);
    return { ...s, latency: { ...s.latency!, p99 } };
  };
  const group = (label: string, p99s: number[]) => ({ label, summaries: p99s.map(withP99) });
  const base4 = group('main', [20, 20.4, 19.8, 20.2]);
  const cand4 = group('pr', [30, 30.5, 29.7, 30.2]);
  const p99 = (c: ReturnType<typeof compareRunGroups>) =>
    c.metrics.find((m) => m.name === 'p99Ms')!;

  it('4 vs 4: a clear p99 regression is inconclusive when adjusted over the primary metrics', () => {
    const c = compareRunGroups(base4, cand4);
    expect(c.gatedOn).toEqual(TESTED_RUN_METRIC_KEYS);
    expect(c.metrics).toHaveLength(11);
    expect(c.metrics.filter((m) => m.primary).map((m) => m.name)).toEqual([
      'rps',
      'p95Ms',
      'p99Ms',
      'errorRate',
    ]);
    expect(p99(c).rawPValue).toBeCloseTo(2 / 70, 10);
    expect(p99(c).pValue).toBeCloseTo((4 * 2) / 70, 10); // Holm over the 4 primary metrics
    expect(p99(c).changePercent!.lower).toBeGreaterThan(40);
    expect(p99(c).verdict).toBe('inconclusive');
    expect(p99(c).rule).toBe('beyond-floor-not-significant');
  });

  it('5 vs 5: a clean 10x slowdown of p95 alone is worse, and the cell a regression', () => {
    const withP95 = (p95: number) => {
      const s = summary(100, 10);
      return { ...s, latency: { ...s.latency!, p95 } };
    };
    const c = compareRunGroups(
      { label: 'main', summaries: [20, 20.4, 19.8, 20.2, 20.1].map(withP95) },
      { label: 'pr', summaries: [200, 204, 198, 202, 201].map(withP95) },
    );
    expect(c.metrics).toHaveLength(11);
    const p95 = c.metrics.find((m) => m.name === 'p95Ms')!;
    expect(p95.primary).toBe(true);
    expect(p95.rawPValue).toBeCloseTo(2 / 252, 10);
    expect(p95.pValue).toBeCloseTo((4 * 2) / 252, 10); // Holm over 4 primaries: 0.032
    expect(p95.verdict).toBe('worse');
    const state = cellState({
      metrics: c.metrics.map((m) => ({ ...m, suspected: isSuspectedWorse(m) })),
      failedThresholds: [],
    });
    expect(state).toBe('regression');
  });

  it('4 vs 4: the same runs are a p99 regression when the gate is p99 alone', () => {
    const c = compareRunGroups(base4, cand4, {}, { metrics: ['p99Ms'] });
    expect(c.gatedOn).toEqual(['p99Ms']);
    expect(c.metrics.map((m) => m.name)).toEqual(['p99Ms']);
    expect(p99(c).pValue).toBeCloseTo(2 / 70, 10); // nothing to adjust over
    expect(p99(c).verdict).toBe('worse');
  });

  it('Holm adjusts over the chosen metrics only: 4 vs 4 is not enough for a lone regression among two, 5 vs 5 is', () => {
    const two: RunMetricKey[] = ['p99Ms', 'rps'];
    const four = compareRunGroups(base4, cand4, {}, { metrics: two });
    expect(four.gatedOn).toEqual(['rps', 'p99Ms']);
    expect(p99(four).pValue).toBeCloseTo((2 * 2) / 70, 10);
    expect(p99(four).verdict).toBe('inconclusive');
    const five = compareRunGroups(
      group('main', [20, 20.4, 19.8, 20.2, 20.1]),
      group('pr', [30, 30.5, 29.7, 30.2, 30.1]),
      {},
      { metrics: two },
    );
    expect(p99(five).pValue).toBeCloseTo((2 * 2) / 252, 10);
    expect(p99(five).verdict).toBe('worse');
    expect(five.metrics.find((m) => m.name === 'rps')!.verdict).toBe('no-change');
  });

  it.each([
    [['p99'], 'unknown metric "p99"'],
    [['maxMs'], '"maxMs" is shown but never tested'],
    [[], 'choose at least one metric'],
  ])('%j is rejected with the valid keys listed', (keys, reason) => {
    const run = () => compareRunGroups(base4, cand4, {}, { metrics: keys as RunMetricKey[] });
    expect(run).toThrow(RangeError);
    expect(run).toThrow(`metrics: ${reason}`);
    expect(run).toThrow(`valid keys: ${TESTED_RUN_METRIC_KEYS.join(', ')}`);
  });

  it('parseGateMetrics drops duplicates and keeps the metric order', () => {
    expect(parseGateMetrics(['p99Ms', 'rps', 'p99Ms'])).toEqual(['rps', 'p99Ms']);
  });

  it('the dependency-free key list matches RUN_METRICS and its tested flags', () => {
    expect(RUN_METRICS.map((m) => m.key)).toEqual(RUN_METRIC_KEYS);
    expect(RUN_METRICS.filter((m) => m.tested).map((m) => m.key)).toEqual(TESTED_RUN_METRIC_KEYS);
  });
});
