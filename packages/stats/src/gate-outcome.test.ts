import { describe, expect, it } from 'vitest';
import { compareSamples } from './compare-samples';
import { cellState, failedThresholdText, gateOutcome, isSuspectedWorse } from './gate-outcome';

describe('the one outcome rule', () => {
  // the nightly check that reported `pass`: p95 23.2 ms → ~220 ms on 3 repeats each, noisy
  const base = [21.5, 23.2, 25.0];
  const cand = [60, 220, 640];
  const p95 = compareSamples(base, cand, { direction: 'lower-is-better' });

  it('a ~10x slowdown on too few runs is inconclusive, and suspected: never a pass', () => {
    expect(p95.verdict).toBe('inconclusive');
    expect(p95.changePercent!.estimate).toBeGreaterThan(300);
    expect(isSuspectedWorse(p95)).toBe(true);
    const state = cellState({
      metrics: [{ verdict: p95.verdict, suspected: isSuspectedWorse(p95) }],
      failedThresholds: [],
    });
    expect(state).toBe('suspected-regression');
    expect(gateOutcome([{ state, hasBaseline: true, candidateRuns: 3 }])).toBe(
      'suspected-regression',
    );
  });

  it('an inconclusive estimate inside the floor, or better, is not suspected', () => {
    const same = compareSamples([20, 21, 22], [20.2, 21.1, 21.9], {});
    expect(isSuspectedWorse(same)).toBe(false);
    const faster = compareSamples(cand, base, { direction: 'lower-is-better' });
    expect(faster.verdict).toBe('inconclusive');
    expect(isSuspectedWorse(faster)).toBe(false);
    // throughput falling is worse
    const rps = compareSamples([100, 101, 99], [40, 60, 95], { direction: 'higher-is-better' });
    expect(isSuspectedWorse(rps)).toBe(rps.verdict === 'inconclusive');
  });

  it('a failed threshold is a regression even with no baseline and identical numbers', () => {
    const t = { runId: 'r1', metric: 'http_req_duration', expr: 'p(95)<50', observed: 80 };
    const state = cellState({ metrics: [], failedThresholds: [t] });
    expect(state).toBe('regression');
    expect(gateOutcome([{ state, hasBaseline: false, candidateRuns: 3 }])).toBe('regression');
    expect(failedThresholdText(t)).toBe('http_req_duration p(95)<50 (observed 80) in run r1');
  });

  it('precedence: regression > suspected > no-baseline > incomplete > pass', () => {
    const c = (
      state: 'regression' | 'suspected-regression' | 'pass',
      hasBaseline = true,
      n = 3,
    ) => ({
      state,
      hasBaseline,
      candidateRuns: n,
    });
    expect(gateOutcome([c('pass'), c('suspected-regression'), c('regression')])).toBe('regression');
    expect(gateOutcome([c('pass', false), c('suspected-regression')])).toBe('suspected-regression');
    expect(gateOutcome([c('pass', false), c('pass', true, 0)])).toBe('no-baseline');
    expect(gateOutcome([c('pass'), c('pass', true, 0)])).toBe('incomplete');
    expect(gateOutcome([c('pass'), c('pass')])).toBe('pass');
    expect(gateOutcome([])).toBe('incomplete');
  });
});
