import { describe, expect, it } from 'vitest';
import { minPossiblePValue, mannWhitneyU } from './mann-whitney';
import { pMannWhitney, qMannWhitney } from './mann-whitney-distribution';
import { runsNeededFor } from './warnings';

describe('exact Mann–Whitney distribution', () => {
  it('matches hand-counted arrangements for 2 vs 2 and 3 vs 2', () => {
    // 2 vs 2: U = 0…4 with counts 1, 1, 2, 1, 1 of C(4, 2) = 6.
    expect([0, 1, 2, 3, 4].map((u) => pMannWhitney(u, 2, 2) * 6)).toEqual([1, 2, 4, 5, 6]);
    // 3 vs 2: counts 1, 1, 2, 2, 2, 1, 1 of 10, symmetric in the sample sizes.
    const cdf = [0, 1, 2, 3, 4, 5, 6].map((u) => pMannWhitney(u, 3, 2) * 10);
    cdf.forEach((v, i) => expect(v).toBeCloseTo([1, 2, 4, 6, 8, 9, 10][i] as number, 12));
    expect(pMannWhitney(2, 2, 3)).toBe(pMannWhitney(2, 3, 2));
  });

  it('inverts like R qwilcox', () => {
    expect(qMannWhitney(0.025, 5, 5)).toBe(3); // P(U <= 2) = 4/252 < 0.025 <= P(U <= 3) = 7/252
    expect(qMannWhitney(0.025, 3, 3)).toBe(0);
    expect(qMannWhitney(0.5, 4, 4)).toBe(8);
  });

  it('gives the permutation bound 2 / C(m + n, m) as the smallest p-value', () => {
    expect(minPossiblePValue(3, 3)).toBeCloseTo(0.1, 15);
    expect(minPossiblePValue(4, 4)).toBeCloseTo(2 / 70, 15);
    expect(minPossiblePValue(1, 1)).toBe(1);
    expect(mannWhitneyU([5, 6, 7, 8], [1, 2, 3, 4]).pValue).toBeCloseTo(2 / 70, 15);
    expect(runsNeededFor(0.05)).toBe(4);
    expect(runsNeededFor(0.01)).toBe(5); // 2/252 < 0.01 <= 2/70
  });

  it('counts ties as half a win and uses the normal approximation for them', () => {
    const r = mannWhitneyU([1, 2, 3], [3, 4, 5]);
    expect(r.u).toBe(0.5);
    expect(r.method).toBe('asymptotic');
    expect(r.hasTies).toBe(true);
  });
});
