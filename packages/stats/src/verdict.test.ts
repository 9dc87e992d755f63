import { describe, expect, it } from 'vitest';
import { type VerdictInput, decideVerdict } from './verdict';

const band = { lower: -0.05, upper: 0.05 };
const input = (
  lower: number,
  upper: number,
  pValue = 0.01,
  extra: Partial<VerdictInput> = {},
): VerdictInput => ({
  shift: { lower, upper },
  band,
  pValue,
  alpha: 0.05,
  direction: 'lower-is-better',
  insufficient: false,
  ...extra,
});

describe('decideVerdict', () => {
  it.each([
    [0.06, 0.2, 0.01, 'worse', 'beyond-floor'],
    [-0.2, -0.06, 0.01, 'better', 'beyond-floor'],
    [-0.05, 0.05, 0.9, 'no-change', 'within-floor'],
    [-0.01, 0.02, 0.01, 'no-change', 'within-floor'],
    [0.01, 0.2, 0.01, 'inconclusive', 'crosses-floor'],
    [-0.2, 0.2, 0.5, 'inconclusive', 'crosses-floor'],
    [0.06, 0.2, 0.05, 'inconclusive', 'beyond-floor-not-significant'],
    [0.05, 0.2, 0.01, 'inconclusive', 'crosses-floor'],
  ] as const)('interval [%s, %s], p = %s → %s (%s)', (lo, hi, p, verdict, rule) => {
    expect(decideVerdict(input(lo, hi, p))).toEqual({ verdict, rule });
  });

  it('flips better and worse for higher-is-better metrics', () => {
    expect(decideVerdict(input(0.06, 0.2, 0.01, { direction: 'higher-is-better' })).verdict).toBe(
      'better',
    );
    expect(decideVerdict(input(-0.2, -0.06, 0.01, { direction: 'higher-is-better' })).verdict).toBe(
      'worse',
    );
  });

  it('is inconclusive when the data are insufficient or missing', () => {
    expect(decideVerdict(input(0.06, 0.2, 0.01, { insufficient: true }))).toEqual({
      verdict: 'inconclusive',
      rule: 'insufficient',
    });
    expect(decideVerdict({ ...input(0, 0), shift: null }).rule).toBe('insufficient');
  });
});
