import { describe, expect, it } from 'vitest';
import type { CustomMetrics, RunSummary } from '@poolbench/stats';
import { scriptMetricRows } from './script-metrics';

const trend = (p: number) => ({
  type: 'trend' as const,
  count: 100,
  trend: {
    count: 100,
    min: p / 2,
    max: p * 2,
    mean: p,
    p50: p,
    p90: p,
    p95: p * 1.5,
    p99: p * 1.8,
    p999: p * 2,
  },
});
/** A run of 10 load seconds with the given custom metrics. */
const run = (custom: CustomMetrics) => ({
  summary: { seconds: 10, loadStartMs: 0, loadEndMs: 10_000, custom } as unknown as RunSummary,
});

describe('scriptMetricRows', () => {
  it('compares each metric both sides recorded by its kind, median of runs, diff from the baseline', () => {
    const base = [
      run({
        login_ms: trend(10),
        orders: { type: 'counter', count: 5, sum: 50 },
        ok: { type: 'rate', count: 10, nonZero: 9, rate: 0.9 },
      }),
      run({
        login_ms: trend(30),
        orders: { type: 'counter', count: 5, sum: 70 },
        ok: { type: 'rate', count: 10, nonZero: 9, rate: 0.9 },
      }),
      run({
        login_ms: trend(20),
        orders: { type: 'counter', count: 5, sum: 60 },
        only_base: { type: 'gauge', count: 1, value: 3, max: 4 },
      }),
    ];
    const cand = [
      run({
        login_ms: trend(40),
        orders: { type: 'counter', count: 5, sum: 30 },
        ok: { type: 'rate', count: 10, nonZero: 5, rate: 0.5 },
        only_cand: { type: 'gauge', count: 1, value: 1, max: 1 },
      }),
    ];
    const rows = scriptMetricRows([{ runs: base }, { runs: cand }], 0);
    expect(rows.map((r) => `${r.name} ${r.stat}`)).toEqual([
      'login_ms p50',
      'login_ms p95',
      'login_ms p99',
      'orders rate',
      'orders total',
      'ok ratio',
    ]);
    const p50 = rows[0]!;
    expect(p50.cells).toEqual([
      { median: 20, n: 3 },
      { median: 40, n: 1 },
    ]);
    expect(p50.diffs).toEqual([null, { absolute: 20, percent: 100 }]);
    const rate = rows[3]!;
    expect(rate.unit).toBe('/s');
    expect(rate.cells.map((c) => c.median)).toEqual([6, 3]);
    expect(rate.diffs[1]).toEqual({ absolute: -3, percent: -50 });
    const ok = rows[5]!;
    expect(ok.cells).toEqual([
      { median: 90, n: 2 },
      { median: 50, n: 1 },
    ]);
    expect(ok.diffs[1]!.absolute).toBeCloseTo(-40, 12);
  });

  it('leaves out a metric of another kind on the other side, and compares against any baseline', () => {
    const a = [
      run({
        x: { type: 'counter', count: 1, sum: 1 },
        g: { type: 'gauge', count: 2, value: 2, max: 5 },
      }),
    ];
    const b = [run({ x: trend(5), g: { type: 'gauge', count: 2, value: 4, max: 4 } })];
    const rows = scriptMetricRows([{ runs: a }, { runs: b }], 1);
    expect(rows.map((r) => `${r.name} ${r.stat}`)).toEqual(['g last', 'g max']);
    expect(rows[0]!.diffs).toEqual([{ absolute: -2, percent: -50 }, null]);
    expect(rows[1]!.diffs[0]).toEqual({ absolute: 1, percent: 25 });
    expect(scriptMetricRows([{ runs: a }, { runs: [{ summary: null }] }], 0)).toEqual([]);
  });
});
