import { describe, expect, it } from 'vitest';
import { benjaminiHochberg } from './benjamini-hochberg';
import { newcombeDifference, wilsonInterval } from './proportion';

describe('rates and multiple testing edge cases', () => {
  it('keeps Wilson intervals inside [0, 1] with exact ends at 0 and n failures', () => {
    expect(wilsonInterval(0, 200).lower).toBe(0);
    expect(wilsonInterval(200, 200).upper).toBe(1);
    expect(wilsonInterval(0, 200).upper).toBeGreaterThan(0);
    const d = newcombeDifference(0, 100, 0, 100);
    expect(d.estimate).toBe(0);
    expect(d.lower).toBeLessThan(0);
    expect(d.upper).toBeGreaterThan(0);
  });

  it('rejects impossible counts', () => {
    expect(() => wilsonInterval(3, 2)).toThrow('k <= n');
    expect(() => wilsonInterval(1.5, 10)).toThrow('integers');
    expect(() => wilsonInterval(0, 0)).toThrow('n > 0');
  });

  it('leaves untested metrics out of the Benjamini–Hochberg count, like NA in R p.adjust', () => {
    const r = benjaminiHochberg([0.01, null, 0.04]);
    expect(r.adjusted).toEqual([0.02, null, 0.04]);
    expect(r.significant).toEqual([true, false, true]);
    expect(() => benjaminiHochberg([1.2])).toThrow('[0, 1]');
  });
});
