import { describe, expect, it } from 'vitest';
import { compareSamples } from './compare-samples';
import {
  cellState,
  failedThresholdText,
  gateOutcome,
  bestPossibleGateP,
  incompleteReason,
  loadNotTakenReason,
  isSuspectedWorse,
  MAX_CRASHED_SHARE,
  MIN_RUNS_PER_SIDE,
  runsPerSideNeeded,
} from './gate-outcome';
import { holm } from './holm';
import { compareRunGroups } from './run-metrics';
import { summary } from './testing/summary-fixture';

describe('the one outcome rule', () => {
  // the nightly check that reported `pass`: p95 23.2 ms → ~220 ms on 3 repeats each, noisy
  const base = [21.5, 23.2, 25.0];
  const cand = [60, 220, 640];
  const p95 = compareSamples(base, cand, { direction: 'lower-is-better' });

  it('a ~10x slowdown at 3 vs 3 cannot reach alpha: not suspected, and the cell is incomplete', () => {
    expect(p95.verdict).toBe('inconclusive');
    expect(p95.changePercent!.estimate).toBeGreaterThan(300);
    // every candidate run beyond every baseline run: one-sided p = 1/20 = 0.05, not below alpha
    expect(isSuspectedWorse(p95)).toBe(false);
    const reason = incompleteReason({ baselineRuns: 3, candidateRuns: 3 });
    expect(reason).toBe(
      '3 vs 3 measured runs: no change of the 4 primary metrics can reach p < 0.05 (at best 0.2); the test needs 5 per side, or fewer primary metrics',
    );
    const state = cellState({
      metrics: [{ verdict: p95.verdict, suspected: isSuspectedWorse(p95) }],
      failedThresholds: [],
      incomplete: reason,
    });
    expect(state).toBe('incomplete');
    expect(gateOutcome([{ state, hasBaseline: true, candidateRuns: 3 }])).toBe('incomplete');
  });

  it('how many runs per side the primaries need before any verdict can be reached', () => {
    expect(runsPerSideNeeded(4)).toBe(5);
    expect(runsPerSideNeeded(1)).toBe(4);
    expect(bestPossibleGateP(5, 5, 4)).toBeCloseTo(4 / 252, 12);
    expect(incompleteReason({ baselineRuns: 4, candidateRuns: 4 })).toMatch(/^4 vs 4 measured/);
    expect(incompleteReason({ baselineRuns: 4, candidateRuns: 4, primaryMetrics: 1 })).toBeNull();
    expect(incompleteReason({ baselineRuns: 5, candidateRuns: 5 })).toBeNull();
    expect(incompleteReason({ baselineRuns: 5, candidateRuns: 3 })).toMatch(/^5 vs 3 measured/);
  });

  it('suspected: inconclusive, beyond the floor, and one-sided significant at 5 vs 5', () => {
    const b5 = [20, 21, 22, 23, 24];
    const c = compareSamples(b5, [22.5, 30, 40, 60, 200], { direction: 'lower-is-better' });
    expect(c.verdict).toBe('inconclusive');
    expect(c.pValue).toBeCloseTo(8 / 252, 12); // one-sided 4/252 = 0.016
    expect(isSuspectedWorse(c)).toBe(true);
    // the same estimate with a family of four primaries: the one-sided p times 4 is 0.063
    expect(isSuspectedWorse({ ...c, suspicionPValue: 0.063 })).toBe(false);
    expect(isSuspectedWorse({ ...c, primary: false })).toBe(false);
  });

  it('an inconclusive estimate inside the floor, or better, is not suspected', () => {
    const same = compareSamples([20, 21, 22, 22.5, 23], [20.2, 21.1, 21.9, 22.4, 23.1], {});
    expect(isSuspectedWorse(same)).toBe(false);
    const faster = compareSamples(cand, base, { direction: 'lower-is-better' });
    expect(faster.verdict).toBe('inconclusive');
    expect(isSuspectedWorse(faster)).toBe(false);
    // throughput rising is better, falling is worse
    const up = compareSamples([40, 60, 95, 96, 97], [100, 101, 99, 102, 98], {
      direction: 'higher-is-better',
    });
    expect(isSuspectedWorse(up)).toBe(false);
    const down = compareSamples([100, 101, 99, 102, 98], [97, 60, 95, 40, 99.5], {
      direction: 'higher-is-better',
    });
    expect(down.verdict).toBe('inconclusive');
    expect(isSuspectedWorse(down)).toBe(true);
  });

  it('a failed threshold is a regression even with no baseline and identical numbers', () => {
    const t = { runId: 'r1', metric: 'http_req_duration', expr: 'p(95)<50', observed: 80 };
    const state = cellState({ metrics: [], failedThresholds: [t] });
    expect(state).toBe('regression');
    expect(gateOutcome([{ state, hasBaseline: false, candidateRuns: 3 }])).toBe('regression');
    expect(failedThresholdText(t)).toBe('http_req_duration p(95)<50 (observed 80) in run r1');
  });

  // One check through the functions schedules and the gate use: a cell's metrics, its state, the
  // check's outcome.
  const check = (
    base: ReturnType<typeof summary>[],
    cand: ReturnType<typeof summary>[],
    crashedRuns = 0,
  ) => {
    const cmp = compareRunGroups(
      { label: 'baseline', summaries: base },
      { label: 'candidate', summaries: cand },
    );
    const incomplete = incompleteReason({
      baselineRuns: base.length,
      candidateRuns: cand.length,
      crashedRuns,
    });
    const state = cellState({
      metrics: cmp.metrics.map((m) => ({ ...m, suspected: isSuspectedWorse(m) })),
      failedThresholds: [],
      incomplete,
    });
    return {
      incomplete,
      state,
      outcome: gateOutcome([{ state, hasBaseline: true, candidateRuns: cand.length }]),
    };
  };

  it('a 1-run baseline and an 8x slower candidate is incomplete, naming the count: never a pass', () => {
    expect(MIN_RUNS_PER_SIDE).toBe(2);
    const r = check([summary(100, 10)], [summary(12.5, 80), summary(12.4, 81), summary(12.6, 79)]);
    expect(r.state).toBe('incomplete');
    expect(r.outcome).toBe('incomplete');
    expect(r.incomplete).toBe('1 measured run of the baseline; the test needs at least 2 per side');
  });

  it('invalid runs are left out and named: too few valid ones make the cell incomplete', () => {
    const dropped = (runId: string, pct: string) => ({
      runId,
      reasons: [
        {
          code: 'load-not-offered' as const,
          message: `load not offered (${pct} of iterations dropped)`,
        },
      ],
    });
    // 2 of 5 candidate runs invalid: beyond the share, whatever the other 3 say
    expect(
      incompleteReason({
        baselineRuns: 5,
        candidateRuns: 3,
        invalidCandidate: [dropped('c2', '3.2 %'), dropped('c4', '1.5 %')],
      }),
    ).toBe(
      '2 of 5 candidate runs invalid (more than 33 %): run c2: load not offered (3.2 % of iterations dropped); run c4: load not offered (1.5 % of iterations dropped); the valid ones do not stand for the config',
    );
    // crashed and invalid runs count together
    expect(
      incompleteReason({
        baselineRuns: 5,
        candidateRuns: 3,
        crashedRuns: 1,
        invalidCandidate: [dropped('c2', '3.2 %')],
      }),
    ).toMatch(
      /^2 of 5 candidate runs crashed or invalid \(1 crashed, 1 invalid; more than 33 %\): run c2: /,
    );
    // the baseline's invalid runs are held to the same share
    expect(
      incompleteReason({
        baselineRuns: 2,
        candidateRuns: 5,
        invalidBaseline: [dropped('b1', '2 %'), dropped('b3', '5 %')],
      }),
    ).toMatch(/^2 of 4 baseline runs invalid \(more than 33 %\): run b1: load not offered/);
    // within the share, the count of valid runs decides, and the reason names the invalid one
    expect(
      incompleteReason({
        baselineRuns: 4,
        candidateRuns: 4,
        invalidCandidate: [dropped('c5', '3.2 %')],
      }),
    ).toBe(
      '4 vs 4 valid measured runs (1 candidate run invalid, left out: run c5: load not offered (3.2 % of iterations dropped)): no change of the 4 primary metrics can reach p < 0.05 (at best 0.057); the test needs 5 per side, or fewer primary metrics',
    );
    expect(
      incompleteReason({
        baselineRuns: 5,
        candidateRuns: 5,
        invalidCandidate: [dropped('c6', '2 %')],
      }),
    ).toBeNull();
  });

  it('2 of 3 candidate runs crashed: incomplete on the survivor, never a pass', () => {
    expect(MAX_CRASHED_SHARE).toBeCloseTo(1 / 3, 10);
    const base = [summary(100, 10), summary(101, 10.1), summary(99, 9.9)];
    const r = check(base, [summary(100, 10)], 2);
    expect(r.outcome).toBe('incomplete');
    expect(r.incomplete).toMatch(/^2 of 3 candidate runs crashed/);
    // 1 of 5 crashed is within the share: judged on the 4 survivors against 5
    const base5 = [...base, summary(100.5, 10.05), summary(99.5, 9.95)];
    const four = [summary(100, 10), summary(100.5, 10), summary(99.5, 10), summary(100.2, 10)];
    const ok = check(base5, four, 1);
    expect(ok.incomplete).toBeNull();
    expect(ok.outcome).toBe('pass');
    // too few runs is outranked by a failed threshold
    const t = { runId: 'r1', metric: 'http_req_duration', expr: 'p(95)<50', observed: 80 };
    expect(cellState({ metrics: [], failedThresholds: [t], incomplete: r.incomplete })).toBe(
      'regression',
    );
  });

  it('a worse secondary metric is reported and decides nothing; a worse primary one is a regression', () => {
    const t = (primary: boolean) =>
      cellState({
        metrics: [{ verdict: 'worse', suspected: false, primary }],
        failedThresholds: [],
      });
    expect(t(true)).toBe('regression');
    expect(t(false)).toBe('pass');
    expect(
      cellState({
        metrics: [{ verdict: 'inconclusive', suspected: true, primary: false }],
        failedThresholds: [],
      }),
    ).toBe('pass');
    expect(
      cellState({ metrics: [{ verdict: 'worse', suspected: false }], failedThresholds: [] }),
    ).toBe('regression');
  });

  it('Holm agrees with R p.adjust(method = "holm")', () => {
    // p.adjust(c(0.01, 0.04, 0.03, 0.005), "holm") = 0.03 0.06 0.06 0.02
    const a = holm([0.01, 0.04, null, 0.03, 0.005]);
    expect(a[2]).toBeNull();
    [0.03, 0.06, null, 0.06, 0.02].forEach((v, i) =>
      v === null ? expect(a[i]).toBeNull() : expect(a[i]).toBeCloseTo(v, 12),
    );
  });

  it('precedence: regression > suspected > no-baseline > incomplete > pass', () => {
    const c = (
      state: 'regression' | 'suspected-regression' | 'incomplete' | 'pass',
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
    expect(gateOutcome([c('pass'), c('pass', true, 1)])).toBe('incomplete');
    expect(gateOutcome([c('pass'), c('incomplete')])).toBe('incomplete');
    expect(gateOutcome([c('incomplete'), c('suspected-regression')])).toBe('suspected-regression');
    expect(gateOutcome([c('pass'), c('pass')])).toBe('pass');
    expect(gateOutcome([])).toBe('incomplete');
  });
});

describe('a candidate that could not take the load its baseline took', () => {
  const dropped = (runId: string, share = '17.4 %') => ({
    runId,
    reasons: [
      {
        code: 'load-not-offered' as const,
        message: `load not offered (${share} of iterations dropped)`,
      },
    ],
  });
  const late = (runId: string) => ({
    runId,
    reasons: [
      {
        code: 'samples-late' as const,
        message: 'samples lost (3 % of requests reached the output late)',
      },
    ],
  });

  it('is a regression naming the runs, where leaving them out would make the cell incomplete', () => {
    const c = {
      baselineRuns: 5,
      candidateRuns: 0,
      invalidCandidate: ['a', 'b', 'c', 'd', 'e'].map((id) => dropped(id)),
    };
    const reason = loadNotTakenReason(c);
    expect(reason).toMatch(
      /^5 of 5 candidate runs could not take the load all 5 valid baseline runs took with the same scenario \(run a: load not offered \(17.4 % of iterations dropped\);.*\): the config falls behind it$/,
    );
    expect(incompleteReason(c)).not.toBeNull();
    expect(
      cellState({ metrics: [], failedThresholds: [], incomplete: null, loadNotTaken: reason }),
    ).toBe('regression');
  });

  it('is nothing when the baseline fell short too, had too few valid runs, or half or fewer fell behind', () => {
    const five = ['a', 'b', 'c', 'd', 'e'].map((id) => dropped(id));
    expect(
      loadNotTakenReason({
        baselineRuns: 4,
        candidateRuns: 0,
        invalidBaseline: [dropped('z')],
        invalidCandidate: five,
      }),
    ).toBeNull();
    expect(
      loadNotTakenReason({ baselineRuns: 1, candidateRuns: 0, invalidCandidate: five }),
    ).toBeNull();
    expect(
      loadNotTakenReason({ baselineRuns: 5, candidateRuns: 4, invalidCandidate: [dropped('a')] }),
    ).toBeNull();
    expect(
      loadNotTakenReason({
        baselineRuns: 5,
        candidateRuns: 3,
        invalidCandidate: [dropped('a'), dropped('b')],
      }),
    ).toBeNull();
    expect(
      loadNotTakenReason({
        baselineRuns: 5,
        candidateRuns: 2,
        invalidCandidate: [dropped('a'), dropped('b'), dropped('c')],
      }),
    ).not.toBeNull();
  });

  it('never reads lost samples (a starved generator) as the config falling behind', () => {
    expect(
      loadNotTakenReason({
        baselineRuns: 5,
        candidateRuns: 0,
        invalidCandidate: ['a', 'b', 'c', 'd', 'e'].map(late),
      }),
    ).toBeNull();
  });
});
