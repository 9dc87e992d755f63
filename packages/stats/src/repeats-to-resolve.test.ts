import { describe, expect, it } from 'vitest';
import { decideHypothesis } from './decide-hypothesis';
import {
  comparisonRepeatsNeeded,
  hypothesisRepeatsNeeded,
  runMetricRepeatsNeeded,
} from './repeats-to-resolve';
import { compareRunGroups, runMetric, type RunGroup } from './run-metrics';
import type { RunSummary } from './run-summary';
import { summary } from './testing/summary-fixture';

function withPoolWait(poolWaitMsMean: number): RunSummary {
  const s = summary(200, 10);
  return { ...s, latency: null, blocked: null, resources: { ...s.resources!, poolWaitMsMean } };
}

describe('repeats needed to resolve (bootstrap power estimate)', () => {
  it('a clear difference seen in 3 vs 3 runs needs the smallest count that can be significant', () => {
    const base = [100, 104, 98];
    const cand = [70, 72, 69];
    expect(
      decideHypothesis(base, cand, { metric: 'p99Ms', expect: 'better', band: 5 }).status,
    ).toBe('unresolved');
    expect(
      hypothesisRepeatsNeeded(base, cand, { metric: 'p99Ms', expect: 'better', band: 5 }),
    ).toBe(4);
  });

  it('a small effect in a wide spread needs more, and the estimate does not change between calls', () => {
    const base = [100, 110, 95, 105, 102];
    const cand = [80, 112, 85, 99, 78];
    const n = hypothesisRepeatsNeeded(base, cand, { metric: 'rps', expect: 'worse', band: 5 });
    expect(decideHypothesis(base, cand, { metric: 'rps', expect: 'worse', band: 5 }).status).toBe(
      'unresolved',
    );
    expect(n).toBeGreaterThan(5);
    expect(n).toBeLessThanOrEqual(50);
    expect(hypothesisRepeatsNeeded(base, cand, { metric: 'rps', expect: 'worse', band: 5 })).toBe(
      n,
    );
  });

  it('says null when no count up to the limit would settle it (identical sides and no difference)', () => {
    expect(
      comparisonRepeatsNeeded(
        [10, 30, 10, 30],
        [10, 30, 10, 30],
        { direction: 'lower-is-better' },
        { maxRepeats: 10 },
      ),
    ).toBeNull();
  });

  it('reaches a verdict count for a compare-view metric', () => {
    expect(
      comparisonRepeatsNeeded([10, 11, 12], [20, 21, 22], { direction: 'lower-is-better' }),
    ).toBe(4);
  });

  it("a run metric's estimate is of the test its verdict used: same values, the metric's own scale and floor", () => {
    // pool wait 0.30 vs 0.285 ms: −5 % sits on the default relative floor's edge, but well inside
    // pool wait's absolute 0.1 ms floor on the linear scale, so more runs would show no change
    const group = (label: string, waits: Array<number | null>): RunGroup => ({
      label,
      summaries: waits.map((w) => (w === null ? null : withPoolWait(w))),
    });
    const base = group('base', [0.3, 0.34, null, 0.26]);
    const cand = group('cand', [0.285, 0.32, 0.25]);
    const def = runMetric('poolWaitMsMean')!;
    expect(
      compareRunGroups(base, cand, {}, { metrics: ['poolWaitMsMean'] }).metrics[0]!.verdict,
    ).toBe('inconclusive');
    const n = runMetricRepeatsNeeded(base, cand, def);
    expect(n).toBe(
      comparisonRepeatsNeeded([0.3, 0.34, 0.26], [0.285, 0.32, 0.25], {
        direction: 'lower-is-better',
        scale: 'linear',
        absoluteFloor: 0.1,
      }),
    );
    expect(n).toBe(4);
    // with the default options the same values sit on the floor's edge: no count up to 50 settles it
    expect(
      comparisonRepeatsNeeded([0.3, 0.34, 0.26], [0.285, 0.32, 0.25], {
        direction: 'lower-is-better',
      }),
    ).toBeNull();
  });
});
