import { describe, expect, it } from 'vitest';
import { yTicks } from './y-ticks';

describe('yTicks', () => {
  it('gives distinct labels for a narrow range', () => {
    const { ticks, format } = yTicks([79.81, 79.84, 79.88, 79.9]);
    const labels = ticks.map(format);
    expect(new Set(labels).size).toBe(labels.length);
    expect(labels).toEqual(['79.80', '79.85', '79.90']);
  });

  it('covers the values with round steps', () => {
    const { ticks, format } = yTicks([3, 47]);
    expect(ticks[0]).toBeLessThanOrEqual(3);
    expect(ticks.at(-1)).toBeGreaterThanOrEqual(47);
    expect(ticks.map(format)).toEqual(['0', '20', '40', '60']);
  });

  it('abbreviates thousands without merging neighbours', () => {
    const labels = (({ ticks, format }) => ticks.map(format))(yTicks([10_100, 11_900]));
    expect(new Set(labels).size).toBe(labels.length);
    expect(labels[0]).toMatch(/k$/);
  });

  it('spreads a single value around itself', () => {
    const { ticks, format } = yTicks([42, 42]);
    expect(ticks.length).toBeGreaterThan(1);
    expect(new Set(ticks.map(format)).size).toBe(ticks.length);
  });

  it('keeps ticks of non-negative values at or above zero', () => {
    const { ticks, format } = yTicks([0, 0, 0]);
    expect(ticks[0]).toBe(0);
    expect(ticks.map(format)).toEqual(['0.0', '0.5', '1.0']);
    expect(yTicks([0.2, 3]).ticks[0]).toBe(0);
  });

  it("a run chart's connection set-up of a few microseconds: distinct labels, not 0.00 four times", () => {
    const { ticks, format } = yTicks([0.0009, 0.0011, 0.0015, 0.0004]);
    const labels = ticks.map(format);
    expect(new Set(labels).size).toBe(labels.length);
    expect(ticks[0]).toBe(0);
    expect(ticks.at(-1)).toBeGreaterThanOrEqual(0.0015);
  });

  it('has no ticks without values', () => {
    expect(yTicks([]).ticks).toEqual([]);
  });
});
