import { describe, expect, it } from 'vitest';
import { interleaveSettings } from './advisor-runs';

describe('interleaveSettings', () => {
  it('counterbalanced: rounds of every setting with runs to go, taking turns to go first', () => {
    expect(interleaveSettings([32, 1, 1, 32, 1, 32, 1, 32], 'counterbalanced')).toEqual([
      1, 32, 32, 1, 1, 32, 32, 1,
    ]);
    // a setting with fewer runs leaves the later rounds; the rest still take turns
    expect(interleaveSettings([4, 2, 8, 2, 8, 2], 'counterbalanced')).toEqual([2, 4, 8, 8, 2, 2]);
  });
  it('interleaved (advisors launched before counterbalancing): ascending in every round', () => {
    expect(interleaveSettings([32, 1, 1, 32, 1, 32], 'interleaved')).toEqual([1, 32, 1, 32, 1, 32]);
  });
  it('every run of the step exactly once', () => {
    const next = [1, 2, 6, 13, 32, 1, 2, 6, 13, 32, 1, 2, 6, 13, 32];
    const out = interleaveSettings(next, 'counterbalanced');
    expect([...out].sort((a, b) => a - b)).toEqual([...next].sort((a, b) => a - b));
    // 5 settings x 3 rounds: each round has all five, and a different one goes first each time
    for (const start of [0, 5, 10]) expect(new Set(out.slice(start, start + 5)).size).toBe(5);
    expect(new Set([out[0], out[5], out[10]]).size).toBe(3);
  });
});
