import { describe, expect, it } from 'vitest';
import { changePoints } from './change-points';
import { moments, pooledTTest, studentTTwoSided } from './student-t';
import { normalDraw, seededRandom } from './seeded-random';
import { changePointSeries } from './testing/change-point-series';

describe("Student's t", () => {
  // scipy 1.16.3: 2 * scipy.stats.t.sf(|t|, df), and scipy.stats.ttest_ind
  it.each([
    [2.0, 10, 0.07338803477074039],
    [0.5, 3, 0.651447964848151],
    [5.0, 2, 0.037749551350623724],
    [1.96, 1000, 0.05027318495574871],
    [10.0, 40, 1.931311700411556e-12],
    [0.0, 7, 1.0],
    [3.3, 1, 0.18731554186375862],
  ])('two-sided p of t = %f with %i df agrees with scipy', (t, df, p) => {
    expect(studentTTwoSided(t, df)).toBeCloseTo(p, 12);
    expect(Math.abs(studentTTwoSided(t, df) - p) / p).toBeLessThan(1e-9);
  });

  it('the pooled two-sample test agrees with scipy.stats.ttest_ind', () => {
    const p = pooledTTest(moments([1, 2, 3.5, 4]), moments([2.5, 4.5, 5, 6.5, 7]));
    expect(p).toBeCloseTo(0.056934119931065105, 12);
  });

  it('no spread: p = 0 when the means differ, 1 when not; two values in all: p = 1', () => {
    expect(pooledTTest(moments([1, 1, 1]), moments([2, 2]))).toBe(0);
    expect(pooledTTest(moments([1, 1]), moments([1, 1, 1]))).toBe(1);
    expect(pooledTTest(moments([1]), moments([5]))).toBe(1);
  });
});

describe('change points (E-divisive means, Otava-style split and merge)', () => {
  const series = changePointSeries();
  const byName = (n: string) => series.find((s) => s.name === n)!;

  it('finds every step of the labelled series within one index', () => {
    for (const s of series.filter((x) => x.truth.length > 0 && !x.name.startsWith('+10 %'))) {
      const found = changePoints(s.values).map((c) => c.index);
      expect(found.length, s.name).toBe(s.truth.length);
      found.forEach((f, k) => expect(Math.abs(f - s.truth[k]!), s.name).toBeLessThanOrEqual(1));
    }
  });

  it('finds nothing in flat series, from 2 % to 50 % noise, nor at single outliers', () => {
    for (const s of series.filter(
      (x) => x.name.startsWith('flat') || (x.name.includes('outlier') && x.truth.length === 0),
    ))
      expect(changePoints(s.values), s.name).toEqual([]);
  });

  it('a change needs minPerSide values after it: two high firings at the end are not yet one', () => {
    const values = byName('flat, 2 % noise').values.slice(0, 40);
    values[38] = values[38]! * 3;
    values[39] = values[39]! * 3;
    expect(changePoints(values)).toEqual([]);
    expect(changePoints(values, { minPerSide: 1 }).map((c) => c.index)).toEqual([38]);
    values.push(values[38]!);
    expect(changePoints(values).map((c) => c.index)).toEqual([38]);
  });

  it('states the size of a change and its interval', () => {
    const [cp] = changePoints(byName('+50 % step, 10 % noise').values);
    expect(cp!.index).toBe(30);
    expect(cp!.change).toBeGreaterThan(0.35);
    expect(cp!.change).toBeLessThan(0.65);
    expect(cp!.shift!.lower).toBeLessThan(cp!.shift!.estimate);
    expect(cp!.shift!.upper).toBeGreaterThan(cp!.shift!.estimate);
    expect(cp!.shift!.lower).toBeGreaterThan(0.3);
    expect(cp!.shift!.upper).toBeLessThan(0.7);
    expect(cp!.pValue).toBeLessThan(1e-10);
  });

  it('a slow drift shows as change points (a per-firing test never sees it)', () => {
    expect(changePoints(byName('slow drift +50 %, 5 % noise').values).length).toBeGreaterThan(0);
  });

  it('false alarms on stationary series at the defaults: under 5 % of 400 series of 40', () => {
    let alarms = 0;
    for (let k = 0; k < 400; k++) {
      const random = seededRandom(1000 + k);
      const values = Array.from({ length: 40 }, () => 100 * Math.exp(0.2 * normalDraw(random)));
      if (changePoints(values).length > 0) alarms++;
    }
    expect(alarms / 400).toBeLessThan(0.05);
  });

  it('refuses what is not a series of finite numbers', () => {
    expect(() => changePoints([1, NaN, 2])).toThrow(/finite/);
    expect(changePoints([])).toEqual([]);
    expect(changePoints([5])).toEqual([]);
  });
});
