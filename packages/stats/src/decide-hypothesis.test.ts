import { describe, expect, it } from 'vitest';
import {
  decideHypothesis,
  type HypothesisBandUnit,
  type HypothesisExpect,
} from './decide-hypothesis';
import type { Direction } from './verdict';

interface JudgedCase {
  name: string;
  metric: string;
  direction?: Direction;
  expect: HypothesisExpect;
  band: number;
  bandUnit: HypothesisBandUnit;
  unit?: string;
  /** the elapsed-seconds window the values were taken over (the rule is the same; only the values differ) */
  window?: { from: number; to: number };
  base: number[];
  cand: number[];
  /** what apps/lab-targets/go/bench/summarize.mjs judge() decided for these values (run on 2026-11-23, before it was deleted) */
  judge: {
    status: string;
    why: string;
    change: number | null;
    low: number | null;
    high: number | null;
    p: number | null;
  };
  /**
   * Where the product deliberately decides otherwise than judge(): a claim whose whole interval
   * falls short of the band the claimed way is refuted (judge() left it unresolved).
   */
  product?: { status: string; why: string };
}

// Per-run values shaped after docs/benchmarks.md's seed reproductions (medians and min–max of 5
// repeats), plus edge cases. The expected decisions were produced by running the lab bench's own
// judge() on exactly these values, so the product's rule cannot drift from it silently.
const JUDGED: JudgedCase[] = [
  {
    name: '004 shared vs open+close per request, throughput',
    metric: 'rps',
    expect: 'better',
    band: 5,
    bandUnit: 'percent',
    base: [127, 117, 162, 121, 140],
    cand: [4225, 3180, 5791, 3900, 4600],
    judge: {
      status: 'holds',
      why: "the interval lies beyond the ±5 % band in the seed's direction and p < 0.05",
      change: 3185.714286,
      low: 2307.407407,
      high: 4459.84252,
      p: 0.007936507937,
    },
  },
  {
    name: '004 shared vs pool per request, throughput',
    metric: 'rps',
    expect: 'better',
    band: 5,
    bandUnit: 'percent',
    base: [18, 15, 20, 17, 19],
    cand: [4225, 3180, 5791, 3900, 4600],
    judge: {
      status: 'holds',
      why: "the interval lies beyond the ±5 % band in the seed's direction and p < 0.05",
      change: 23372.22222,
      low: 17566.66667,
      high: 32072.22222,
      p: 0.007936507937,
    },
  },
  {
    name: '004 shared fails less than open+close (points)',
    metric: 'errorRate',
    expect: 'better',
    band: 1,
    bandUnit: 'absolute',
    base: [1.8, 0.8, 2.1, 1.9, 1.2],
    cand: [0, 0, 0, 0, 0],
    judge: {
      status: 'unresolved',
      why: "the interval reaches into the ±1 percentage point no-change band; 25 of 25 run pairs point the seed's way",
      change: -1.8,
      low: -2.1,
      high: -0.8,
      p: 0.007494957517,
    },
  },
  {
    name: '000 TC1 prewarm cuts max latency',
    metric: 'maxMs',
    expect: 'better',
    band: 5,
    bandUnit: 'percent',
    base: [258, 190, 320, 240, 300],
    cand: [234, 260, 200, 310, 228],
    judge: {
      status: 'unresolved',
      why: "the interval reaches into the ±5 % no-change band; 15 of 25 run pairs point the seed's way",
      change: -5,
      low: -28.75,
      high: 29.16666667,
      p: 0.6904761905,
    },
  },
  {
    name: '000 TC2 same throughput (equivalence, unresolved)',
    metric: 'rps',
    expect: 'equivalent',
    band: 5,
    bandUnit: 'percent',
    base: [304.2, 290, 330, 315, 298],
    cand: [318.1, 300, 296, 325, 310],
    judge: {
      status: 'unresolved',
      why: 'the interval reaches beyond the ±5 % no-change band, so neither equal nor different is shown',
      change: 0.9841269841,
      low: -6.060606061,
      high: 9.060402685,
      p: 0.8412698413,
    },
  },
  {
    name: '000 TC3 same throughput (equivalence, difference shown)',
    metric: 'rps',
    expect: 'equivalent',
    band: 5,
    bandUnit: 'percent',
    base: [1752, 1700, 1800, 1650, 1780],
    cand: [1989, 1900, 2050, 1960, 2000],
    judge: {
      status: 'does_not_hold',
      why: 'a difference beyond the ±5 % band (candidate better)',
      change: 13.88888889,
      low: 8.447488584,
      high: 20.58823529,
      p: 0.007936507937,
    },
  },
  {
    name: '000 TC4 lazy memory grows (MB, absolute 1)',
    metric: 'rssMeanBytes',
    expect: 'worse',
    band: 1,
    bandUnit: 'absolute',
    unit: 'MB',
    base: [-0.23, -0.1, -0.5, 0.2, -0.3],
    cand: [-1.1, -0.9, -1.5, -1, -1.3],
    judge: {
      status: 'unresolved',
      why: "the interval reaches into the ±1 MB no-change band; 0 of 25 run pairs point the seed's way",
      change: -1,
      low: -1.4,
      high: -0.6,
      p: 0.007936507937,
    },
    product: {
      status: 'does_not_hold',
      why: "the whole interval falls short of the ±1 MB band in the hypothesis's direction: candidate is not worse by more than the band",
    },
  },
  {
    name: '000 TC4 lazy CPU spikes',
    metric: 'cpuPeakPercent',
    expect: 'worse',
    band: 5,
    bandUnit: 'percent',
    base: [9, 8, 10, 11, 9.5],
    cand: [24, 20, 30, 22, 26],
    judge: {
      status: 'holds',
      why: "the interval lies beyond the ±5 % band in the seed's direction and p < 0.05",
      change: 152.6315789,
      low: 100,
      high: 225,
      p: 0.007936507937,
    },
  },
  {
    name: '002 x3 500/s five beat one (opposite)',
    metric: 'p99Ms',
    expect: 'better',
    band: 5,
    bandUnit: 'percent',
    base: [68.4, 60.1, 75.2, 55, 70],
    cand: [233.3, 210, 250, 198, 240],
    judge: {
      status: 'does_not_hold',
      why: 'the opposite of the seed: candidate is worse beyond the ±5 % band, p < 0.05',
      change: 242.8571429,
      low: 182.8571429,
      high: 324.1818182,
      p: 0.007936507937,
    },
  },
  {
    name: '003 elastic fails less than fixed (points)',
    metric: 'errorRate',
    expect: 'better',
    band: 1,
    bandUnit: 'absolute',
    base: [35.6, 30, 40, 33, 38],
    cand: [0, 0, 0, 0, 0],
    judge: {
      status: 'holds',
      why: "the interval lies beyond the ±1 percentage point band in the seed's direction and p < 0.05",
      change: -35.6,
      low: -40,
      high: -30,
      p: 0.007494957517,
    },
  },
  {
    name: '003 prewarm fails less than elastic (points, opposite)',
    metric: 'errorRate',
    expect: 'better',
    band: 1,
    bandUnit: 'absolute',
    base: [0, 0, 0, 0, 0],
    cand: [10.2, 8, 12, 9, 11],
    judge: {
      status: 'does_not_hold',
      why: 'the opposite of the seed: candidate is worse beyond the ±1 percentage point band, p < 0.05',
      change: 10.2,
      low: 8,
      high: 12,
      p: 0.007494957517,
    },
  },
  {
    name: '003 adaptive p99 lower than prewarm (inside band)',
    metric: 'p99Ms',
    expect: 'better',
    band: 5,
    bandUnit: 'percent',
    base: [1741, 1700, 1780, 1720, 1760],
    cand: [1730, 1710, 1750, 1725, 1740],
    judge: {
      status: 'does_not_hold',
      why: 'the whole interval lies inside the ±5 % band: no difference that matters',
      change: -0.5813953488,
      low: -2.840909091,
      high: 1.764705882,
      p: 0.6904761905,
    },
  },
  {
    name: 'equivalence holds',
    metric: 'rps',
    expect: 'equivalent',
    band: 5,
    bandUnit: 'percent',
    base: [100, 101, 99, 100.5, 99.5],
    cand: [100.2, 100.8, 99.3, 100.1, 99.9],
    judge: {
      status: 'holds',
      why: 'the whole interval lies inside the ±5 % no-change band',
      change: 0.1,
      low: -1.089108911,
      high: 1.212121212,
      p: 1,
    },
  },
  {
    name: '3 vs 3 runs: too few for a test',
    metric: 'p95Ms',
    expect: 'better',
    band: 5,
    bandUnit: 'percent',
    base: [20, 21, 22],
    cand: [10, 11, 12],
    judge: {
      status: 'unresolved',
      why: "too few repeats for a test at α = 0.05 (smallest possible exact p with 3 vs 3 runs: 0.100); 9 of 9 run pairs point the seed's way",
      change: -47.61904762,
      low: -54.54545455,
      high: -40,
      p: 0.1,
    },
  },
  {
    name: '3 vs 3 runs: too few to show equivalence',
    metric: 'rps',
    expect: 'equivalent',
    band: 5,
    bandUnit: 'percent',
    base: [100, 101, 99],
    cand: [100.2, 100.8, 99.3],
    judge: {
      status: 'unresolved',
      why: 'too few repeats to show equivalence (with 3 baseline and 3 candidate runs the smallest possible p-value is 0.100, so p < 0.05 cannot be reached: run at least 4 repeats per side)',
      change: 0.2,
      low: -1.683168317,
      high: 1.818181818,
      p: 1,
    },
  },
  {
    name: 'window 0-3 s: cold-start p99 lower',
    metric: 'p99Ms',
    expect: 'better',
    band: 5,
    bandUnit: 'percent',
    window: { from: 0, to: 3 },
    base: [80, 95, 70, 88, 92],
    cand: [20, 25, 18, 22, 30],
    judge: {
      status: 'holds',
      why: "the interval lies beyond the ±5 % band in the seed's direction and p < 0.05",
      change: -73.68421053,
      low: -79.54545455,
      high: -64.28571429,
      p: 0.007936507937,
    },
  },
  {
    name: 'window 3-10 s: steady p99 the same (equivalence)',
    metric: 'p99Ms',
    expect: 'equivalent',
    band: 5,
    bandUnit: 'percent',
    window: { from: 3, to: 10 },
    base: [10.1, 10.3, 9.9, 10, 10.2],
    cand: [10, 10.2, 10.1, 9.95, 10.25],
    judge: {
      status: 'holds',
      why: 'the whole interval lies inside the ±5 % no-change band',
      change: 0,
      low: -2.450980392,
      high: 2.5,
      p: 1,
    },
  },
  {
    name: 'p >= alpha with a wide spread',
    metric: 'rps',
    expect: 'worse',
    band: 5,
    bandUnit: 'percent',
    base: [35.7, 40, 30, 45, 33],
    cand: [26.9, 44, 29, 38, 31],
    judge: {
      status: 'unresolved',
      why: "the interval reaches into the ±5 % no-change band; 17 of 25 run pairs point the seed's way",
      change: -10.33333333,
      low: -32.75,
      high: 26.66666667,
      p: 0.4206349206,
    },
  },
  {
    name: 'ties: percentage points with equal runs',
    metric: 'errorRate',
    expect: 'better',
    band: 1,
    bandUnit: 'absolute',
    base: [5, 5, 6, 6, 5],
    cand: [0, 0, 0, 1, 0],
    judge: {
      status: 'holds',
      why: "the interval lies beyond the ±1 percentage point band in the seed's direction and p < 0.05",
      change: -5,
      low: -6,
      high: -5,
      p: 0.008561916896,
    },
  },
];

// judge() spoke of "the seed"; a hypothesis is the general case.
const asHypothesis = (why: string) =>
  why
    .replace(/the seed's/g, "the hypothesis's")
    .replace('the opposite of the seed', 'the opposite of the hypothesis')
    .replace(/ runs: ([0-9.]+)\)/, ' runs is $1)');

describe('decideHypothesis reproduces the lab bench judge()', () => {
  it.each(JUDGED.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const d = decideHypothesis(
      c.base,
      c.cand,
      {
        metric: c.metric,
        direction: c.direction,
        expect: c.expect,
        band: c.band,
        bandUnit: c.bandUnit,
      },
      { candidateName: 'candidate', unit: c.unit },
    );
    expect(d.status).toBe(c.product?.status ?? c.judge.status);
    expect(d.reason).toBe(c.product?.why ?? asHypothesis(c.judge.why));
    expect(d.change).toBeCloseTo(c.judge.change!, 4);
    expect(d.interval?.low).toBeCloseTo(c.judge.low!, 4);
    expect(d.interval?.high).toBeCloseTo(c.judge.high!, 4);
    expect(d.p).toBeCloseTo(c.judge.p!, 8);
  });

  it('covers every status, equivalence, percentage points and windows', () => {
    expect(new Set(JUDGED.map((c) => c.judge.status))).toEqual(
      new Set(['holds', 'does_not_hold', 'unresolved']),
    );
    expect(JUDGED.some((c) => c.expect === 'equivalent' && c.judge.status === 'holds')).toBe(true);
    expect(JUDGED.some((c) => c.metric === 'errorRate' && c.bandUnit === 'absolute')).toBe(true);
    expect(JUDGED.filter((c) => c.window).length).toBeGreaterThanOrEqual(2);
  });
});

describe('decideHypothesis beyond judge()', () => {
  const base = [100, 104, 98, 101, 99];
  const cand = [70, 72, 69, 74, 71];

  it('uses the band as the practical floor: a 29 % drop holds at 20 % but not at 50 %', () => {
    expect(
      decideHypothesis(base, cand, { metric: 'p99Ms', expect: 'better', band: 20 }).status,
    ).toBe('holds');
    const at50 = decideHypothesis(base, cand, { metric: 'p99Ms', expect: 'better', band: 50 });
    expect(at50.status).toBe('does_not_hold');
    expect(at50.reason).toContain('±50 % band: no difference that matters');
  });

  it('takes better from the metric: higher throughput, lower latency', () => {
    expect(decideHypothesis(base, cand, { metric: 'rps', expect: 'worse', band: 5 }).status).toBe(
      'holds',
    );
    expect(
      decideHypothesis(base, cand, { metric: 'p95Ms', expect: 'better', band: 5 }).status,
    ).toBe('holds');
  });

  it('refutes a claim whose whole interval falls short of the band the claimed way', () => {
    // Go claimed faster than PHP-FPM, measured about 4 % slower in every run: the interval reaches
    // past −5 %, so neither "no difference" nor "worse" is shown, but "better by 5 %" is ruled out
    const php = [41.0, 41.8, 40.4, 41.1, 40.6, 41.5, 41.0, 40.2];
    const go = [39.1, 39.6, 39.3, 38.7, 39.8, 39.2, 38.6, 39.4];
    const d = decideHypothesis(php, go, { metric: 'rps', expect: 'better', band: 5 });
    expect(d.interval!.low).toBeLessThan(-5);
    expect(d.interval!.high).toBeLessThan(5);
    expect(d.status).toBe('does_not_hold');
    expect(d.reason).toBe(
      "the whole interval falls short of the ±5 % band in the hypothesis's direction: candidate is not better by more than the band",
    );
    // the same runs claimed the other way ("worse") are not refuted by that rule
    expect(decideHypothesis(php, go, { metric: 'rps', expect: 'worse', band: 5 }).status).toBe(
      'unresolved',
    );
    // an error rate in points: a claim of 1 point fewer errors, measured at most ~0.8 fewer
    const perRequest = [0.8, 0.6, 0.8, 0.7, 0.9, 0.8, 0.7, 0.8];
    const shared = [0, 0, 0, 0, 0, 0, 0, 0];
    const e = decideHypothesis(perRequest, shared, {
      metric: 'errorRate',
      expect: 'better',
      band: 1,
    });
    expect(e.interval!.low).toBeGreaterThan(-1);
    expect(e.status).toBe('does_not_hold');
  });

  it('compares error rates in percentage points by default', () => {
    const d = decideHypothesis([5, 6, 5.5, 6.2, 5.8], [1, 1.2, 0.8, 1.1, 0.9], {
      metric: 'errorRate',
      expect: 'better',
      band: 1,
    });
    expect(d.status).toBe('holds');
    expect(d.changeUnit).toBe('units');
    expect(d.change).toBeCloseTo(-4.8, 1);
    expect(d.reason).toContain('±1 percentage point band');
  });

  it('leaves out runs without the metric and says when a side has fewer than 2', () => {
    const d = decideHypothesis([1, Number.NaN], [2, 3], {
      metric: 'p50Ms',
      expect: 'better',
      band: 5,
    });
    expect(d.status).toBe('unresolved');
    expect(d.baseN).toBe(1);
    expect(d.reason).toMatch(/1 vs 2 usable runs/);
  });

  it('names the field of a bad hypothesis', () => {
    expect(() =>
      decideHypothesis(base, cand, { metric: 'nope', expect: 'better', band: 5 }),
    ).toThrow(/^metric: /);
    expect(() =>
      decideHypothesis(base, cand, { metric: 'rps', expect: 'better', band: -1 }),
    ).toThrow(/^band: /);
  });
});
