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

  it('refutes a directional claim once the whole change falls short of the floor that way', () => {
    // rps of a claimed-faster candidate that is about 4 % slower, every run within ±1 %: neither
    // "no difference" (the interval reaches past −5 %) nor "worse" is shown, but the claim is
    const random = seededRandom(6);
    const base = lognormalRuns(random, 15, 40, 0.01);
    const cand = lognormalRuns(random, 15, 40 * 0.956, 0.01);
    const rps = (claim?: 'increase' | 'decrease'): SequentialMetricSamples => ({
      name: 'rps',
      baseline: base,
      candidate: cand,
      options: { direction: 'higher-is-better' },
      ...(claim ? { claim } : {}),
    });
    const [d] = decideSequential([rps('increase')], { maxPairs: 15 });
    expect(d!.decision).toBe('short-of-claim');
    expect(d!.look!.pShortOfClaim).toBeLessThanOrEqual(d!.look!.boundary.nominalP);
    expect(d!.change!.upper).toBeLessThan(5);
    expect(d!.reason).toMatch(
      /^short of the claim: after \d+ of at most 15 pairs .* not higher by more than the 5 % floor, one-sided p = /,
    );
    // the refutation is the claim's alone: without one, or claiming the other way, it is not made
    expect(decideSequential([rps()], { maxPairs: 15 })[0]!.decision).not.toBe('short-of-claim');
    expect(decideSequential([rps()], { maxPairs: 15 })[0]!.look!.pShortOfClaim).toBe(1);
    expect(decideSequential([rps('decrease')], { maxPairs: 15 })[0]!.decision).not.toBe(
      'short-of-claim',
    );
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

describe("a claim's refutation over repeated looks (seeded simulation)", () => {
  const sequences = 2000;
  const alpha = 0.05;
  const design = { maxPairs: 15, alpha };
  const floor = { floorPercent: 5 };
  // Fails only if the rate is above the bound with 99.9 % confidence (Wilson lower bound).
  const clearlyAbove = (k: number, bound: number) =>
    wilsonInterval(k, sequences, 0.998).lower > bound;

  it('refutes a claim that is true, at the edge of the floor, at most alpha/2 of the time', () => {
    // the candidate is lower by exactly the 5 % floor (on the log scale the rule uses): the least
    // favourable truth for the claim "lower by more than the floor"
    const edge = simulateSequential(
      lognormalExperiment(0.1, 1 / 1.05, floor, undefined, 'decrease'),
      design,
      sequences,
      seededRandom(20261127),
      {},
      false,
    );
    expect(edge.firstShortOfClaim).toBeGreaterThan(0);
    expect(clearlyAbove(edge.firstShortOfClaim, alpha / 2)).toBe(false);
    // and a claim well beyond the floor is almost never refuted
    const true20 = simulateSequential(
      lognormalExperiment(0.1, 0.8, floor, undefined, 'decrease'),
      design,
      500,
      seededRandom(20261128),
      {},
      false,
    );
    expect(true20.firstShortOfClaim).toBeLessThanOrEqual(1);
  });

  it('keeps false better/worse at most alpha, and decides an A/A claim in fewer pairs', () => {
    const run = (claim?: 'decrease') =>
      simulateSequential(
        lognormalExperiment(0.1, 1, floor, undefined, claim),
        design,
        sequences,
        seededRandom(20261129),
        {},
        false,
      );
    const withClaim = run('decrease');
    const without = run();
    expect(clearlyAbove(withClaim.anyBetterOrWorse.sequential, alpha)).toBe(false);
    // the same sequences: the refutation can only stop earlier
    expect(withClaim.meanPairs).toBeLessThan(without.meanPairs);
    // sequences that stop on "no difference" stop there either way; the claim stops more of them
    expect(withClaim.firstShortOfClaim).toBeGreaterThan(0);
    expect(withClaim.allWithinFloor + withClaim.firstShortOfClaim).toBeGreaterThan(
      without.allWithinFloor,
    );
  });
});
