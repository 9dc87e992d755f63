import { describe, expect, it } from 'vitest';
import { normalDraw, seededRandom } from '../seeded-random';
import { type UslParameters, fitUsl, uslPeakN, uslThroughput } from './usl';

const NS = [1, 2, 4, 8, 12, 16, 24, 32, 48, 64];

function synthetic(p: UslParameters, ns: readonly number[] = NS) {
  return ns.map((n) => ({ n, throughput: uslThroughput(p, n) }));
}

function fitted(points: Parameters<typeof fitUsl>[0]) {
  const r = fitUsl(points);
  if (r.kind !== 'fit') throw new Error(`expected a fit, got ${r.reason}: ${r.message}`);
  return r;
}

describe('fitUsl', () => {
  it.each([
    { lambda1: 100, sigma: 0.05, kappa: 0.0004 },
    { lambda1: 2500, sigma: 0.2, kappa: 0.00002 },
    { lambda1: 40, sigma: 0.01, kappa: 0 },
    { lambda1: 900, sigma: 0, kappa: 0.001 },
  ])('recovers exact parameters from noiseless data: %o', (truth) => {
    const r = fitted(synthetic(truth));
    expect(r.lambda1 / truth.lambda1).toBeCloseTo(1, 6);
    expect(r.sigma).toBeCloseTo(truth.sigma, 6);
    expect(r.kappa).toBeCloseTo(truth.kappa, 8);
    expect(r.rSquared).toBeCloseTo(1, 10);
    for (const res of r.residuals) expect(res.fitted / res.observed).toBeCloseTo(1, 6);
  });

  it('recovers parameters from seeded noisy repeats within their noise', () => {
    const truth = { lambda1: 200, sigma: 0.08, kappa: 0.0005 };
    const random = seededRandom(7);
    const points = NS.flatMap((n) =>
      [0, 1, 2].map(() => ({
        n,
        throughput: uslThroughput(truth, n) * (1 + 0.02 * normalDraw(random)),
      })),
    );
    const r = fitted(points);
    expect(r.lambda1 / truth.lambda1).toBeGreaterThan(0.95);
    expect(r.lambda1 / truth.lambda1).toBeLessThan(1.05);
    expect(Math.abs(r.sigma - truth.sigma)).toBeLessThan(0.02);
    expect(Math.abs(r.kappa / truth.kappa - 1)).toBeLessThan(0.25);
    expect(r.rSquared).toBeGreaterThan(0.98);
    // N* = √((1 − σ)/κ) ≈ 42.9 for the truth.
    expect(Math.abs((r.peakN ?? 0) / (uslPeakN(truth) ?? 1) - 1)).toBeLessThan(0.15);
    expect(r.residuals).toHaveLength(points.length);
  });

  it('computes the peak as √((1 − σ)/κ), and none without coherency cost', () => {
    expect(uslPeakN({ lambda1: 1, sigma: 0.1, kappa: 0.001 })).toBeCloseTo(30, 12);
    expect(uslPeakN({ lambda1: 1, sigma: 0.1, kappa: 0 })).toBeNull();
    const r = fitted(synthetic({ lambda1: 10, sigma: 0.1, kappa: 0.001 }));
    expect(r.peakN).toBeCloseTo(30, 4);
  });

  it('fits flat throughput as σ = 1, κ = 0 with no R²', () => {
    const r = fitted([1, 2, 4, 8].map((n) => ({ n, throughput: 50 })));
    expect(r.sigma).toBe(1);
    expect(r.kappa).toBe(0);
    expect(r.lambda1).toBeCloseTo(50, 10);
    expect(r.peakN).toBeNull();
    expect(r.rSquared).toBeNull();
  });

  it('refuses degenerate inputs with a named reason', () => {
    expect(fitUsl([{ n: 4, throughput: 10 }])).toMatchObject({
      kind: 'refused',
      reason: 'too-few-distinct-n',
    });
    expect(
      fitUsl([
        { n: 1, throughput: 10 },
        { n: 2, throughput: 19 },
        { n: 2, throughput: 18 },
      ]),
    ).toMatchObject({ reason: 'too-few-distinct-n' });
    expect(fitUsl([])).toMatchObject({ reason: 'too-few-distinct-n' });
    const ok = synthetic({ lambda1: 10, sigma: 0.1, kappa: 0.001 }, [1, 2, 4]);
    expect(fitUsl([...ok, { n: 8, throughput: Number.NaN }])).toMatchObject({
      reason: 'invalid-throughput',
    });
    expect(fitUsl([...ok, { n: 8, throughput: -1 }])).toMatchObject({
      reason: 'invalid-throughput',
    });
    expect(fitUsl([...ok, { n: Number.POSITIVE_INFINITY, throughput: 1 }])).toMatchObject({
      reason: 'invalid-n',
    });
    expect(fitUsl([...ok, { n: 0, throughput: 1 }])).toMatchObject({ reason: 'invalid-n' });
    expect(fitUsl([1, 2, 3].map((n) => ({ n, throughput: 0 })))).toMatchObject({
      reason: 'no-throughput',
    });
  });
});
