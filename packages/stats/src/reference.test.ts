/**
 * Results checked against established statistics packages. The numbers come from
 * packages/stats/reference/gen_reference.py (kept in reference-values.json, so no Python at test
 * time), produced with:
 *   Python 3.11.7, NumPy 2.4.6, SciPy 1.17.1 (scipy.stats.mannwhitneyu exact / asymptotic with
 *   use_continuity=True, scipy.stats.norm), statsmodels 0.15.0 (proportion_confint wilson,
 *   confint_proportions_2indep newcomb, multipletests fdr_bh), R 4.2.2 (wilcox.test with
 *   conf.int=TRUE and correct=TRUE for the Hodges–Lehmann estimate and interval, p.adjust BH,
 *   quantile type 7, IQR, mad).
 */
import { describe, expect, it } from 'vitest';
import ref from '../reference/reference-values.json';
import { benjaminiHochberg } from './benjamini-hochberg';
import { iqr, mad, quantiles } from './descriptive';
import { hodgesLehmann } from './hodges-lehmann';
import { mannWhitneyU } from './mann-whitney';
import { pnorm, qnorm } from './normal';
import { newcombeDifference, wilsonInterval } from './proportion';

const logs = (v: readonly number[]) => v.map(Math.log);

/** |a − b| <= tol relative to |b| (or absolute tol near zero). */
function close(a: number, b: number, tol: number): void {
  expect(Math.abs(a - b), `${a} vs ${b}`).toBeLessThanOrEqual(tol * Math.max(1, Math.abs(b)));
}

describe('reference values', () => {
  it('were generated with the package versions cited in this file', () => {
    expect(ref.versions).toEqual({
      python: '3.11.7',
      numpy: '2.4.6',
      scipy: '1.17.1',
      statsmodels: '0.15.0',
      R: '4.2.2',
    });
  });
});

describe('mannWhitneyU against scipy.stats.mannwhitneyu', () => {
  for (const c of ref.mannWhitney) {
    it(c.name, () => {
      const x = logs(c.candidate);
      const y = logs(c.baseline);
      const auto = mannWhitneyU(x, y);
      expect(auto.method).toBe(c.autoMethod);
      expect(auto.hasTies).toBe(c.hasTies);
      expect(auto.u).toBe(c.u);
      const asym = mannWhitneyU(x, y, 'asymptotic');
      close(asym.pValue, c.asymptoticP, 1e-12);
      if ('exactP' in c && typeof c.exactP === 'number') {
        const exact = mannWhitneyU(x, y, 'exact');
        expect(exact.method).toBe('exact');
        close(exact.pValue, c.exactP, 1e-12);
      }
    });
  }
});

describe("hodgesLehmann against R's wilcox.test(conf.int = TRUE)", () => {
  for (const c of ref.mannWhitney) {
    for (const [level, h] of Object.entries(c.hl)) {
      it(`${c.name} at ${level}`, () => {
        const method = c.autoMethod as 'exact' | 'asymptotic';
        const got = hodgesLehmann(logs(c.candidate), logs(c.baseline), Number(level), method);
        // The independent Python construction: same order statistic, same numbers.
        expect(got.k).toBe(h.python.k);
        close(got.lower, h.python.lower, 1e-12);
        close(got.upper, h.python.upper, 1e-12);
        close(got.estimate, h.python.estimate, 1e-12);
        close(got.achievedConfidence, h.python.achievedConfidence, 1e-9);
        if (h.r === null) return; // R refuses when every shifted value ties
        if (method === 'exact') {
          close(got.lower, h.r.lower, 1e-12);
          close(got.upper, h.r.upper, 1e-12);
          close(got.estimate, h.r.estimate, 1e-12);
          if (h.r.confLevel !== Number(level))
            close(got.achievedConfidence, h.r.confLevel ?? Number.NaN, 1e-12);
        } else {
          // R finds these endpoints with uniroot(tol = 1e-4); ours is the step it converges to.
          expect(Math.abs(got.lower - h.r.lower)).toBeLessThan(2e-4);
          expect(Math.abs(got.upper - h.r.upper)).toBeLessThan(2e-4);
        }
      });
    }
  }
});

describe('normal distribution against scipy.stats.norm', () => {
  it('cdf keeps relative accuracy in both tails', () => {
    for (const { x, p } of ref.normal.cdf) {
      if (p === 0)
        expect(pnorm(x)).toBeLessThan(1e-300); // SciPy underflows to 0 here
      else expect(Math.abs(pnorm(x) - p) / p, `x=${x}`).toBeLessThan(1e-13);
    }
  });
  it('ppf', () => {
    for (const { p, x } of ref.normal.ppf) close(qnorm(p), x, 1e-12);
  });
});

describe('wilsonInterval against statsmodels proportion_confint(method="wilson")', () => {
  for (const w of ref.wilson) {
    it(`${w.k}/${w.n} at ${w.confidence}`, () => {
      const got = wilsonInterval(w.k, w.n, w.confidence);
      expect(got.estimate).toBe(w.k / w.n);
      expect(Math.abs(got.lower - w.lower)).toBeLessThan(1e-14);
      expect(Math.abs(got.upper - w.upper)).toBeLessThan(1e-14);
    });
  }
});

describe('newcombeDifference against statsmodels confint_proportions_2indep(method="newcomb")', () => {
  for (const c of ref.newcombe) {
    it(`${c.k1}/${c.n1} − ${c.k2}/${c.n2}`, () => {
      const got = newcombeDifference(c.k1, c.n1, c.k2, c.n2);
      expect(Math.abs(got.lower - c.lower)).toBeLessThan(1e-14);
      expect(Math.abs(got.upper - c.upper)).toBeLessThan(1e-14);
    });
  }
});

describe('benjaminiHochberg against statsmodels multipletests(method="fdr_bh") and R p.adjust', () => {
  for (const [i, s] of ref.bh.entries()) {
    it(`set ${i}`, () => {
      const got = benjaminiHochberg(s.p, s.q);
      got.adjusted.forEach((a, j) => close(a ?? Number.NaN, s.adjusted[j] as number, 1e-14));
      expect(got.significant).toEqual(s.reject);
    });
  }
});

describe('quantiles, IQR and MAD against numpy.quantile(linear) and R (type 7, IQR, mad)', () => {
  for (const [i, d] of ref.descriptive.entries()) {
    it(`sample ${i}`, () => {
      quantiles(d.values, d.probs).forEach((q, j) => close(q, d.quantiles[j] as number, 1e-14));
      close(iqr(d.values), d.iqr, 1e-14);
      close(mad(d.values), d.mad, 1e-14);
      close(mad(d.values, 1), d.madRaw, 1e-14);
    });
  }
});
