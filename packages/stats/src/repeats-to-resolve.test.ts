import { describe, expect, it } from 'vitest';
import { decideHypothesis } from './decide-hypothesis';
import { comparisonRepeatsNeeded, hypothesisRepeatsNeeded } from './repeats-to-resolve';

describe('repeats needed to resolve (bootstrap power estimate)', () => {
  it('a clear difference seen in 3 vs 3 runs needs the smallest count that can be significant', () => {
    const base = [100, 104, 98];
    const cand = [70, 72, 69];
    expect(decideHypothesis(base, cand, { metric: 'p99Ms', expect: 'better', band: 5 }).status).toBe('unresolved');
    expect(hypothesisRepeatsNeeded(base, cand, { metric: 'p99Ms', expect: 'better', band: 5 })).toBe(4);
  });

  it('a small effect in a wide spread needs more, and the estimate does not change between calls', () => {
    const base = [100, 110, 95, 105, 102];
    const cand = [80, 112, 85, 99, 78];
    const n = hypothesisRepeatsNeeded(base, cand, { metric: 'rps', expect: 'worse', band: 5 });
    expect(decideHypothesis(base, cand, { metric: 'rps', expect: 'worse', band: 5 }).status).toBe('unresolved');
    expect(n).toBeGreaterThan(5);
    expect(n).toBeLessThanOrEqual(50);
    expect(hypothesisRepeatsNeeded(base, cand, { metric: 'rps', expect: 'worse', band: 5 })).toBe(n);
  });

  it('says null when no count up to the limit would settle it (identical sides and no difference)', () => {
    expect(comparisonRepeatsNeeded([10, 30, 10, 30], [10, 30, 10, 30], { direction: 'lower-is-better' }, { maxRepeats: 10 })).toBeNull();
  });

  it('reaches a verdict count for a compare-view metric', () => {
    expect(comparisonRepeatsNeeded([10, 11, 12], [20, 21, 22], { direction: 'lower-is-better' })).toBe(4);
  });
});
