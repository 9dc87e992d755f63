import { describe, expect, it } from 'vitest';
import { compareSamples } from './compare-samples';
import { hodgesLehmann } from './hodges-lehmann';
import { mannWhitneyU } from './mann-whitney';
import { normalDraw, seededRandom } from './seeded-random';
import { type Verdict } from './verdict';

const random = seededRandom(0x5eed);
const int = (lo: number, hi: number) => lo + Math.floor(random() * (hi - lo + 1));

/** Log-normal run values around `center`; `digits` rounds them so that ties occur. */
function runs(n: number, center: number, spread: number, digits?: number): number[] {
  return Array.from({ length: n }, () => {
    const v = center * Math.exp(spread * normalDraw(random));
    return digits === undefined ? v : Number(v.toFixed(digits));
  });
}

const mirrored: Record<Verdict, Verdict> = {
  better: 'worse',
  worse: 'better',
  'no-change': 'no-change',
  inconclusive: 'inconclusive',
};
const plus0 = (v: number) => v + 0; // -0 → 0, so mirror images compare equal

describe('properties over seeded random samples', () => {
  it('comparing a sample with itself gives no-change once the floor covers its spread', () => {
    for (let i = 0; i < 200; i++) {
      const a = runs(int(4, 30), 100, 0.05, i % 3 === 0 ? 0 : undefined);
      const spreadPercent = 100 * (Math.max(...a) / Math.min(...a) - 1);
      const c = compareSamples(a, a, { floorPercent: spreadPercent + 0.01 });
      expect(c.pValue).toBe(1);
      expect(c.shift!.estimate).toBe(0);
      expect(c.verdict, JSON.stringify(a)).toBe('no-change');
      // With a floor of 0, no non-degenerate interval fits: never worse or better either.
      expect(compareSamples(a, a, { floorPercent: 0 }).verdict).not.toMatch(/better|worse/);
    }
  });

  it('swapping baseline and candidate mirrors the change, its interval and the verdict', () => {
    const seen = new Set<Verdict>();
    for (let i = 0; i < 300; i++) {
      const linear = i % 4 === 0;
      const ratio = [1, 1.02, 1.08, 1.3, 0.8][i % 5] as number;
      const digits = i % 3 === 0 ? 0 : undefined;
      const n = int(2, 25);
      const m = i % 10 === 0 ? int(50, 70) : int(2, 25);
      const b = runs(n, 100, 0.05, digits);
      const c = runs(m, 100 * ratio, 0.05, digits);
      if (linear) b[0] = 0; // a zero forces the linear scale; its floor must be absolute to be symmetric
      const opts = {
        floorPercent: [0, 2, 5, 10][i % 4] as number,
        absoluteFloor: linear ? 3 : undefined,
        direction: i % 2 === 0 ? ('lower-is-better' as const) : ('higher-is-better' as const),
      };
      const ab = compareSamples(b, c, opts);
      const ba = compareSamples(c, b, opts);
      expect(ab.scale).toBe(linear ? 'linear' : 'log');
      expect(ba.scale).toBe(ab.scale);
      expect(ba.pValue).toBe(ab.pValue);
      expect(ba.insufficient).toBe(ab.insufficient);
      expect(ba.verdict).toBe(mirrored[ab.verdict]);
      expect(ba.rule).toBe(ab.rule);
      seen.add(ab.verdict);
      if (ab.shift === null || ba.shift === null) continue;
      expect(plus0(ba.shift.estimate)).toBe(plus0(-ab.shift.estimate));
      expect(plus0(ba.shift.lower)).toBe(plus0(-ab.shift.upper));
      expect(plus0(ba.shift.upper)).toBe(plus0(-ab.shift.lower));
      if (!linear) {
        // Percent changes are mirror images as ratios: (1 + p/100)(1 + p'/100) = 1.
        const r = (p: number) => 1 + p / 100;
        expect(r(ab.changePercent!.estimate) * r(ba.changePercent!.estimate)).toBeCloseTo(1, 12);
        expect(r(ab.changePercent!.lower) * r(ba.changePercent!.upper)).toBeCloseTo(1, 12);
      }
    }
    // The cases exercise every verdict, so the mirror check is not vacuous.
    expect([...seen].sort()).toEqual(['better', 'inconclusive', 'no-change', 'worse']);
  });

  it('the interval covers the true shift at least as often as promised (simulation)', () => {
    const trueShift = Math.log(1.1);
    for (const [n, digits] of [
      [8, undefined],
      [12, 0],
    ] as const) {
      let covered = 0;
      const trials = 400;
      for (let t = 0; t < trials; t++) {
        const y = runs(n, 100, 0.08, digits).map(Math.log);
        const x = runs(n, 110, 0.08, digits).map(Math.log);
        const method = mannWhitneyU(x, y).method;
        const hl = hodgesLehmann(x, y, 0.95, method);
        if (hl.lower <= trueShift && trueShift <= hl.upper) covered++;
      }
      // Nominal 95 %; the binomial standard error of 400 trials is ~1.1 %.
      expect(covered / trials, `n=${n}`).toBeGreaterThan(0.92);
    }
  });

  it('under no difference, "worse" or "better" comes out at most about alpha of the time', () => {
    let called = 0;
    const trials = 400;
    for (let t = 0; t < trials; t++) {
      const c = compareSamples(runs(6, 100, 0.1), runs(6, 100, 0.1), { floorPercent: 0 });
      if (c.verdict === 'worse' || c.verdict === 'better') called++;
    }
    expect(called / trials).toBeLessThan(0.07);
  });
});
