import { describe, expect, it } from 'vitest';
import { normalDraw, seededRandom } from './seeded-random';
import { obrienFlemingSpent, spendingBoundaries } from './spending-boundaries';

describe('spendingBoundaries', () => {
  it('matches gsDesign for Lan–DeMets O’Brien–Fleming, 5 equal looks, one-sided 0.025', () => {
    // gsDesign 3.x: gsDesign(k = 5, test.type = 1, alpha = 0.025, sfu = sfLDOF)$upper$bound
    const gsDesign = [4.8769, 3.3569, 2.6803, 2.2898, 2.031];
    const b = spendingBoundaries([0.2, 0.4, 0.6, 0.8, 1], 0.025);
    b.forEach((x, i) => expect(x.z).toBeCloseTo(gsDesign[i]!, 3));
    expect(b.at(-1)!.spent).toBe(0.025);
  });

  it('spends what the spending function says, checked on simulated Brownian paths', () => {
    const t = Array.from({ length: 15 }, (_, i) => (i + 1) / 15);
    const b = spendingBoundaries(t, 0.025);
    const random = seededRandom(11);
    const paths = 40_000;
    let crossed = 0;
    for (let p = 0; p < paths; p++) {
      let s = 0;
      for (let k = 0; k < t.length; k++) {
        s += Math.sqrt(1 / 15) * normalDraw(random);
        if (s / Math.sqrt(t[k]!) >= b[k]!.z) {
          crossed++;
          break;
        }
      }
    }
    // 0.025 ± 4 binomial standard errors
    expect(Math.abs(crossed / paths - 0.025)).toBeLessThan(4 * Math.sqrt((0.025 * 0.975) / paths));
  });

  it('spends almost nothing early and all of alpha at t = 1', () => {
    expect(obrienFlemingSpent(0.2, 0.025)).toBeLessThan(1e-6);
    expect(obrienFlemingSpent(1, 0.025)).toBe(0.025);
    expect(() => spendingBoundaries([0.5, 0.5], 0.05)).toThrow(RangeError);
  });
});
