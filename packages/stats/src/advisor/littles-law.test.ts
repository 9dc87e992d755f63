import { describe, expect, it } from 'vitest';
import { checkLittlesLaw } from './littles-law';

describe('checkLittlesLaw', () => {
  it('expects λ·W connections in use', () => {
    // 200 req/s each holding 45 ms: 9 connections busy on average.
    const r = checkLittlesLaw({ meanInUse: 9.3, throughputPerS: 200, meanHoldMs: 45 });
    expect(r.expected).toBeCloseTo(9, 12);
    expect(r.relativeDifference).toBeCloseTo(0.3 / 9, 12);
    expect(r.tolerance).toBeCloseTo(1.8, 12);
    expect(r.agrees).toBe(true);
  });

  it('disagrees beyond 20 % of λ·W', () => {
    const r = checkLittlesLaw({ meanInUse: 12, throughputPerS: 200, meanHoldMs: 45 });
    expect(r.agrees).toBe(false);
    expect(r.relativeDifference).toBeCloseTo(1 / 3, 12);
    expect(checkLittlesLaw({ meanInUse: 7.15, throughputPerS: 200, meanHoldMs: 45 }).agrees).toBe(
      false,
    );
    expect(checkLittlesLaw({ meanInUse: 7.25, throughputPerS: 200, meanHoldMs: 45 }).agrees).toBe(
      true,
    );
  });

  it('allows a quarter connection for small pools', () => {
    // λ·W = 0.5: 0.7 is 40 % off but within the 0.25-connection floor.
    const r = checkLittlesLaw({ meanInUse: 0.7, throughputPerS: 10, meanHoldMs: 50 });
    expect(r.tolerance).toBe(0.25);
    expect(r.agrees).toBe(true);
    expect(checkLittlesLaw({ meanInUse: 0.8, throughputPerS: 10, meanHoldMs: 50 }).agrees).toBe(
      false,
    );
  });

  it('has no relative difference when nothing is expected', () => {
    const r = checkLittlesLaw({ meanInUse: 0, throughputPerS: 0, meanHoldMs: 30 });
    expect(r.relativeDifference).toBeNull();
    expect(r.agrees).toBe(true);
  });

  it('refuses negative and non-finite inputs', () => {
    expect(() => checkLittlesLaw({ meanInUse: -1, throughputPerS: 1, meanHoldMs: 1 })).toThrow(
      'meanInUse',
    );
    expect(() =>
      checkLittlesLaw({ meanInUse: 1, throughputPerS: Number.NaN, meanHoldMs: 1 }),
    ).toThrow('throughputPerS');
  });
});
