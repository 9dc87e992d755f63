import { describe, expect, it } from 'vitest';
import { createHistogram, encodeHistogram } from './hdr';
import { customMetricFromLine, isTimeTrend, sumCustomMetrics } from './run-custom-metrics';

function hist(values: number[]): string {
  const h = createHistogram();
  for (const v of values) h.recordValue(v);
  return encodeHistogram(h);
}

describe('isTimeTrend', () => {
  it('reads a trend as times unless it says it holds plain numbers', () => {
    expect(isTimeTrend({ type: 'trend', time: true })).toBe(true);
    expect(isTimeTrend({ type: 'trend', time: false })).toBe(false);
    // stored before the output wrote the flag: read as times, as it always was
    expect(isTimeTrend({ type: 'trend' })).toBe(true);
    expect(isTimeTrend({ type: 'counter' })).toBe(false);
    expect(isTimeTrend({ type: 'gauge', time: true })).toBe(false);
    expect(isTimeTrend({ type: 'none' })).toBe(false);
  });
});

describe('sumCustomMetrics', () => {
  it('adds up the samples above a trend’s top, which stay in its count', () => {
    const a = customMetricFromLine({
      type: 'trend',
      count: 2,
      time: false,
      aboveTop: 1,
      hist: hist([1000, 3_600_000_000]),
    });
    const b = customMetricFromLine({ type: 'trend', count: 1, time: false, hist: hist([2000]) });
    const c = customMetricFromLine({
      type: 'trend',
      count: 1,
      time: false,
      aboveTop: 1,
      hist: hist([3_600_000_000]),
    });
    const sum = sumCustomMetrics([{ items: a }, { items: b }, { items: c }])!;
    expect(sum.items).toMatchObject({ type: 'trend', count: 4, aboveTop: 2 });
    expect(sumCustomMetrics([{ items: b }])!.items).not.toHaveProperty('aboveTop');
  });

  it('keeps a trend’s time flag and adds up its samples below 0', () => {
    const a = customMetricFromLine({
      type: 'trend',
      count: 2,
      time: false,
      negative: 1,
      hist: hist([1000, 1500]),
    });
    const b = customMetricFromLine({ type: 'trend', count: 1, time: false, hist: hist([2000]) });
    // a second whose samples were all below 0
    const c = customMetricFromLine({
      type: 'trend',
      count: 0,
      time: false,
      negative: 2,
      hist: hist([]),
    });
    const sum = sumCustomMetrics([{ items: a }, { items: b }, { items: c }])!;
    expect(sum.items).toMatchObject({ type: 'trend', count: 3, time: false, negative: 3 });
    expect(sum.items!.trend).toMatchObject({ count: 3, max: 2 });
    expect(isTimeTrend(sum.items!)).toBe(false);
  });

  it('leaves a stored trend without the flag as it was', () => {
    const sum = sumCustomMetrics([
      { login_ms: { type: 'trend', count: 1, histogram: hist([12_000]) } },
    ])!;
    expect(sum.login_ms).not.toHaveProperty('time');
    expect(sum.login_ms).not.toHaveProperty('negative');
    expect(isTimeTrend(sum.login_ms!)).toBe(true);
  });
});
