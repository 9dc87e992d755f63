import { describe, expect, it } from 'vitest';
import { RUN_METRICS } from '@poolbench/stats';
import { HYPOTHESIS_METRICS, HYPOTHESIS_METRIC_KEYS } from './hypothesis-metrics';
import { HypothesesSchema, HypothesisSchema, PresetHypothesisSchema } from './hypothesis-schema';
import { hypothesisStatement, presetHypothesisStatement } from './hypothesis-statement';
import { resolvePresetHypotheses } from './resolve-preset-hypotheses';

const A = { poolConfigId: 'pcA', scenarioId: 'sc1' };
const B = { poolConfigId: 'pcB', scenarioId: 'sc1' };
const names = {
  A: { poolConfig: 'lazy', scenario: 'burst' },
  B: { poolConfig: 'prewarm', scenario: 'burst' },
};

const issues = (r: {
  success: boolean;
  error?: { issues: Array<{ path: PropertyKey[]; message: string }> };
}) => (r.error?.issues ?? []).map((i) => `${i.path.join('.')}: ${i.message}`);

describe('HypothesisSchema', () => {
  it('accepts a directional hypothesis with a window, and an equivalence', () => {
    expect(
      HypothesisSchema.parse({
        base: A,
        candidate: B,
        metric: 'p99Ms',
        expect: 'better',
        band: 20,
        window: { from: 0, to: 10 },
      }),
    ).toMatchObject({ band: 20 });
    expect(
      HypothesisSchema.safeParse({
        base: A,
        candidate: B,
        metric: 'rps',
        expect: 'equivalent',
        band: 5,
      }).success,
    ).toBe(true);
  });

  it('names the field and the reason of every mistake', () => {
    expect(
      issues(
        HypothesisSchema.safeParse({
          base: A,
          candidate: A,
          metric: 'p99Ms',
          expect: 'better',
          band: 5,
        }),
      ),
    ).toEqual(['candidate: must be a different cell than base']);
    expect(
      issues(
        HypothesisSchema.safeParse({
          base: A,
          candidate: B,
          metric: 'p42',
          expect: 'better',
          band: 5,
        }),
      )[0],
    ).toMatch(/^metric: must be one of rps, /);
    expect(
      issues(
        HypothesisSchema.safeParse({
          base: A,
          candidate: B,
          metric: 'rps',
          expect: 'faster',
          band: -1,
        }),
      ),
    ).toEqual(['expect: must be better, worse or equivalent', 'band: must be at least 0']);
    expect(
      issues(
        HypothesisSchema.safeParse({
          base: A,
          candidate: B,
          metric: 'rps',
          expect: 'better',
          band: 5,
          window: { from: 5, to: 5 },
        }),
      ),
    ).toEqual(['window.to: must be after from']);
    expect(
      issues(
        HypothesisSchema.safeParse({
          base: A,
          candidate: B,
          metric: 'errorRate',
          expect: 'better',
          band: 5,
          bandUnit: 'percent',
        }),
      ),
    ).toEqual(['bandUnit: error rate bands are in percentage points (absolute)']);
    expect(
      issues(
        HypothesesSchema.safeParse(
          Array.from({ length: 11 }, () => ({
            base: A,
            candidate: B,
            metric: 'rps',
            expect: 'better',
            band: 5,
          })),
        ),
      ),
    ).toEqual([': at most 10 hypotheses per experiment']);
  });
});

describe('hypothesisStatement', () => {
  it('reads as one line, following the metric direction', () => {
    expect(
      hypothesisStatement({ metric: 'p99Ms', expect: 'better', band: 20 }, names.A, names.B),
    ).toBe('prewarm has a lower p99 latency than lazy by at least 20 % (scenario burst)');
    expect(
      hypothesisStatement(
        { metric: 'rps', expect: 'better', band: 5, window: { from: 0, to: 10 } },
        names.A,
        names.B,
      ),
    ).toBe(
      'prewarm has a higher throughput than lazy by at least 5 % (scenario burst, seconds 0–10)',
    );
    expect(
      hypothesisStatement({ metric: 'errorRate', expect: 'better', band: 1 }, names.A, names.B),
    ).toBe(
      'prewarm has a lower error rate than lazy by at least 1 percentage point (scenario burst)',
    );
    expect(
      hypothesisStatement({ metric: 'rps', expect: 'equivalent', band: 5 }, names.A, {
        poolConfig: 'prewarm',
        scenario: 'spike',
      }),
    ).toBe('prewarm under spike and lazy under burst have the same throughput within ±5 %');
  });
});

describe('preset hypotheses', () => {
  const h = PresetHypothesisSchema.parse({
    base: { poolConfig: 'lazy', scenario: 'tc1' },
    candidate: { poolConfig: 'prewarm', scenario: 'tc1' },
    metric: 'maxMs',
    expect: 'better',
    band: 5,
    claim: 'Prewarming cuts the max (seed: −72 %).',
  });

  it('states them with the preset names and resolves them to ids', () => {
    expect(presetHypothesisStatement(h, () => 'TC1 burst')).toBe(
      'prewarm has a lower max latency than lazy by at least 5 % (scenario TC1 burst)',
    );
    const [r] = resolvePresetHypotheses(
      [h],
      new Map([
        ['lazy', 'p1'],
        ['prewarm', 'p2'],
      ]),
      new Map([['tc1', 's1']]),
    );
    expect(r).toEqual({
      base: { poolConfigId: 'p1', scenarioId: 's1' },
      candidate: { poolConfigId: 'p2', scenarioId: 's1' },
      metric: 'maxMs',
      expect: 'better',
      band: 5,
      claim: 'Prewarming cuts the max (seed: −72 %).',
    });
    expect(HypothesisSchema.safeParse(r).success).toBe(true);
    expect(() =>
      resolvePresetHypotheses([h], new Map([['lazy', 'p1']]), new Map([['tc1', 's1']])),
    ).toThrow('hypotheses.0.candidate.poolConfig: "prewarm" is not a pool config of this preset');
  });
});

it('labels and directions agree with the statistics package', () => {
  expect([...HYPOTHESIS_METRIC_KEYS]).toEqual(RUN_METRICS.map((m) => m.key));
  for (const m of RUN_METRICS) {
    expect(HYPOTHESIS_METRICS[m.key].label).toBe(m.label);
    expect(HYPOTHESIS_METRICS[m.key].higherIsBetter).toBe(m.direction === 'higher-is-better');
    expect(HYPOTHESIS_METRICS[m.key].unit).toBe(m.unit);
  }
});
