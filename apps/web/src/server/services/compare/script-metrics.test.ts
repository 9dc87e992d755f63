import { describe, expect, it } from 'vitest';
import type { CustomMetrics, RunSummary } from '@poolbench/stats';
import { scriptMetricRows, scriptMetricSummaries } from './script-metrics';
import { scriptColumns } from '../exports/script-columns';
import { formatScriptDiff, formatScriptValue } from '~/components/compare/format-metric';

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
      'ok ratio',
      'orders rate',
      'orders total',
    ]);
    const p50 = rows[0]!;
    expect(p50.cells).toEqual([
      { median: 20, n: 3 },
      { median: 40, n: 1 },
    ]);
    expect(p50.diffs).toEqual([null, { absolute: 20, percent: 100 }]);
    const rate = rows[4]!;
    expect(rate.unit).toBe('/s');
    expect(rate.cells.map((c) => c.median)).toEqual([6, 3]);
    expect(rate.diffs[1]).toEqual({ absolute: -3, percent: -50 });
    const ok = rows[3]!;
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

  it('reads ms only for a trend of times: a trend of numbers has no unit, and is not compared with one of times', () => {
    const time = { ...trend(10), time: true };
    const legacy = trend(12); // stored before the flag: a trend of times
    const items = { ...trend(3), time: false };
    const a = [run({ login_ms: time, items, mixed: { ...trend(3), time: false } })];
    const b = [run({ login_ms: legacy, items: { ...trend(4), time: false }, mixed: trend(4) })];
    const rows = scriptMetricRows([{ runs: a }, { runs: b }], 0);
    expect(rows.map((r) => `${r.name} ${r.stat} ${r.unit}`)).toEqual([
      'items p50 ',
      'items p95 ',
      'items p99 ',
      'login_ms p50 ms',
      'login_ms p95 ms',
      'login_ms p99 ms',
    ]);
    const itemsP50 = rows[0]!;
    expect(itemsP50.type).toBe('trend');
    expect(formatScriptValue(itemsP50.cells[1]!.median, itemsP50.unit)).toBe('4');
    expect(formatScriptDiff(itemsP50.diffs[1], itemsP50.unit)).toBe('+1 (+33 %)');
    expect(formatScriptValue(rows[3]!.cells[1]!.median, rows[3]!.unit)).toBe('12.0 ms');
  });
});

describe('the order of the script’s metrics', () => {
  it('is by name, as k6’s summary lists them, not the order Postgres stored them in', () => {
    // jsonb keeps keys shortest first: what a stored summary gives back
    const stored = { zz: trend(1), b_ms: trend(2), a_long_name: trend(3) };
    const names = ['a_long_name', 'b_ms', 'zz'];
    const rows = scriptMetricRows([{ runs: [run(stored)] }, { runs: [run(stored)] }], 0);
    expect([...new Set(rows.map((r) => r.name))]).toEqual(names);
    expect(scriptMetricSummaries([run(stored)]).map((m) => m.name)).toEqual(names);
    const cols = scriptColumns([run(stored)], (r) => ({
      checks: null,
      custom: r.summary?.custom,
      summary: r.summary,
    }));
    expect([...new Set(cols.map((c) => c.header.split(':')[1]))]).toEqual(names);
  });
});

describe('scriptColumns', () => {
  it('names a trend of times in ms and a trend of numbers without a unit', () => {
    const rows = [
      run({
        login_ms: { ...trend(10), time: true },
        old_ms: trend(10),
        items: { ...trend(3), time: false },
        orders: { type: 'counter', count: 5, sum: 50 },
      }),
    ];
    const cols = scriptColumns(rows, (r) => ({
      checks: null,
      custom: r.summary?.custom,
      summary: r.summary,
    }));
    expect(cols.map((c) => c.header)).toEqual([
      'custom:items:p50',
      'custom:items:p95',
      'custom:items:p99',
      'custom:login_ms:p50_ms',
      'custom:login_ms:p95_ms',
      'custom:login_ms:p99_ms',
      'custom:old_ms:p50_ms',
      'custom:old_ms:p95_ms',
      'custom:old_ms:p99_ms',
      'custom:orders:rate_per_s',
      'custom:orders:total',
    ]);
    expect(cols[0]!.value(rows[0]!)).toBe(3);
  });
});

describe('scriptMetricSummaries', () => {
  it('summarizes each metric of a cell’s runs by its kind, with ms only for a trend of times', () => {
    const runs = [
      run({
        login_ms: { ...trend(10), time: true },
        items: { ...trend(3), time: false, negative: 2, aboveTop: 1 },
        orders: { type: 'counter', count: 5, sum: 50 },
        ok: { type: 'rate', count: 10, nonZero: 9, rate: 0.9 },
        queue: { type: 'gauge', count: 3, value: 2, max: 7 },
      }),
      run({
        login_ms: trend(30), // stored before the flag: times
        items: { ...trend(5), time: false, negative: 1, aboveTop: 3 },
        orders: { type: 'counter', count: 5, sum: 70 },
      }),
      { summary: null },
    ];
    const out = scriptMetricSummaries(runs);
    expect(out.map((m) => [m.name, m.type, m.unit, m.runs])).toEqual([
      ['items', 'trend', '', 2],
      ['login_ms', 'trend', 'ms', 2],
      ['ok', 'rate', '', 1],
      ['orders', 'counter', '', 2],
      ['queue', 'gauge', '', 1],
    ]);
    expect(out[1]).toMatchObject({ count: 100, p95: 30, mean: 20, sum: null, negative: 0 });
    expect(out[1]).toMatchObject({ aboveTop: 0 });
    expect(out[0]).toMatchObject({ p95: 6, mean: 4, negative: 3, aboveTop: 4 });
    expect(out[3]).toMatchObject({ sum: 60, p95: null, rate: null });
    expect(out[2]).toMatchObject({ rate: 0.9, count: 10 });
    expect(out[4]).toMatchObject({ last: 2, max: 7 });
    expect(scriptMetricSummaries([{ summary: null }])).toEqual([]);
  });
});
