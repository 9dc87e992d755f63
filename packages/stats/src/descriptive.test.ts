import { describe, expect, it } from 'vitest';
import { max, median, min, quantile, summarize } from './descriptive';

describe('descriptive statistics', () => {
  it('summarizes with type-7 quartiles', () => {
    expect(summarize([4, 1, 3, 2])).toEqual({
      n: 4,
      min: 1,
      q1: 1.75,
      median: 2.5,
      q3: 3.25,
      max: 4,
      mean: 2.5,
      iqr: 1.5,
      mad: 1.4826,
    });
    expect(median([3, 1, 2])).toBe(2);
    expect(min([3, -1, 2])).toBe(-1);
    expect(max([3, -1, 2])).toBe(3);
  });

  it('refuses empty samples and probabilities outside [0, 1]', () => {
    expect(() => median([])).toThrow('empty');
    expect(() => summarize([])).toThrow('empty');
    expect(() => quantile([1, 2], 1.5)).toThrow('[0, 1]');
  });
});
