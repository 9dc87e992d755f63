import { describe, expect, it } from 'vitest';
import { decideSequential } from './decide-sequential';
import { nextSequentialStep } from './next-sequential-step';
import { wilsonInterval } from './proportion';
import { seededRandom } from './seeded-random';
import type { SequentialMetricSamples } from './sequential-design';
import { lognormalExperiment, lognormalRuns, simulateSequential } from './sequential-simulation';

const p99 = (
  baseline: (number | null)[],
  candidate: (number | null)[],
): SequentialMetricSamples => ({
  name: 'p99Ms',
  baseline,
  candidate,
});

describe('decideSequential', () => {
  it('calls a large slowdown worse before the budget, with the look that decided it', () => {
    const random = seededRandom(3);
    const base = lognormalRuns(random, 15, 20, 0.05);
    const cand = lognormalRuns(random, 15, 30, 0.05);
    const [d] = decideSequential([p99(base, cand)], { maxPairs: 15 });
    expect(d!.decision).toBe('worse');
    expect(d!.look!.pairs).toBeLessThan(15);
    expect(d!.look!.pIncrease).toBeLessThanOrEqual(d!.look!.boundary.nominalP);
    expect(d!.change!.lower).toBeGreaterThan(5);
    expect(d!.reason).toMatch(
      /^worse: after \d+ of at most 15 pairs .* higher by more than the 5 % floor/,
    );
    // higher-is-better turns the same data into better
    const [t] = decideSequential(
      [{ ...p99(base, cand), options: { direction: 'higher-is-better' } }],
      {
        maxPairs: 15,
      },
    );
    expect(t!.decision).toBe('better');
  });

  it('continues, then says undecided at the budget when there is no difference to find', () => {
    const random = seededRandom(4);
    const base = lognormalRuns(random, 6, 20, 0.2);
    const cand = lognormalRuns(random, 6, 20, 0.2);
    const few = decideSequential([p99(base.slice(0, 3), cand.slice(0, 3))], { maxPairs: 6 })[0]!;
    expect(few.decision).toBe('continue');
    const all = decideSequential([p99(base, cand)], { maxPairs: 6 })[0]!;
    expect(all.decision).toBe('undecided-budget-reached');
    expect(all.look!.informationFraction).toBe(1);
    expect(all.look!.alphaSpent).toBeCloseTo(0.05, 12);
  });

  it('says no difference within the floor when the runs are tight and equal', () => {
    const random = seededRandom(5);
    const base = lognormalRuns(random, 20, 20, 0.01);
    const cand = lognormalRuns(random, 20, 20, 0.01);
    const d = decideSequential([p99(base, cand)], { maxPairs: 20 })[0]!;
    expect(d.decision).toBe('no-difference-within-floor');
    expect(d.change!.lower).toBeGreaterThan(-5);
    expect(d.change!.upper).toBeLessThan(5);
  });

  it('splits alpha over the metrics and leaves out missing values', () => {
    const d = decideSequential(
      [p99([10, null, 12], [11, 12, null]), { ...p99([1, 2, 3], [1, 2, 3]), name: 'rps' }],
      { maxPairs: 10, alpha: 0.1 },
    );
    expect(d.map((m) => m.alpha)).toEqual([0.05, 0.05]);
    expect(d[0]!.look!.runs).toEqual({ baseline: 2, candidate: 2 });
  });

  it('rejects designs and data it cannot honour, naming the field', () => {
    expect(() => decideSequential([p99([1, 2], [1, 2])], { maxPairs: 1 })).toThrow(/maxPairs/);
    expect(() => decideSequential([p99([], [])], { maxPairs: 5, looks: [2, 4] })).toThrow(/looks/);
    expect(() => decideSequential([p99([Number.NaN], [1])], { maxPairs: 5 })).toThrow(
      /p99Ms.baseline\[0\]/,
    );
  });
});

describe('nextSequentialStep', () => {
  it('asked after every pair, stops at the pair the replayed decision names', () => {
    const random = seededRandom(6);
    for (let s = 0; s < 20; s++) {
      const base = lognormalRuns(random, 12, 20, 0.1);
      const cand = lognormalRuns(random, 12, 20 * (1 + 0.05 * (s % 5)), 0.1);
      const final = decideSequential([p99(base, cand)], { maxPairs: 12 })[0]!;
      let pairs = 0;
      let step = nextSequentialStep([p99([], [])], { maxPairs: 12 });
      while (!step.stop) {
        pairs += step.nextPairs;
        step = nextSequentialStep([p99(base.slice(0, pairs), cand.slice(0, pairs))], {
          maxPairs: 12,
        });
      }
      expect(step.perMetric[0]!.decision).toBe(final.decision);
      expect(pairs).toBe(final.decision === 'undecided-budget-reached' ? 12 : final.look!.pairs);
    }
  });

  it('with planned looks, asks for the pairs up to the next look', () => {
    const step = nextSequentialStep([p99([1, 2, 3], [1, 2, 3])], {
      maxPairs: 15,
      looks: [5, 10, 15],
    });
    expect(step).toMatchObject({ stop: false, nextPairs: 2, pairs: 3 });
    expect(step.perMetric[0]!.look).toBeNull();
  });
});

describe('false positives over repeated looks (seeded simulation)', () => {
  // 2000 A/A sequences of up to 15 pairs, one look after every pair. The full table (10 000+
  // sequences, more distributions, power) comes from scripts/simulate-sequential.ts.
  const sequences = 2000;
  const alpha = 0.05;
  const result = simulateSequential(
    lognormalExperiment(0.1, 1, { floorPercent: 0 }),
    { maxPairs: 15, alpha },
    sequences,
    seededRandom(20261201),
  );
  // Fails only if the rate is above alpha with 99.9 % confidence (Wilson lower bound).
  const clearlyAbove = (k: number) => wilsonInterval(k, sequences, 0.998).lower > alpha;

  it('the sequential rule keeps better/worse at most alpha', () => {
    expect(clearlyAbove(result.anyBetterOrWorse.sequential)).toBe(false);
  });

  it('re-testing the fixed design after every pair does not: the same check fails on it', () => {
    expect(clearlyAbove(result.anyBetterOrWorse.naive)).toBe(true);
  });
});
