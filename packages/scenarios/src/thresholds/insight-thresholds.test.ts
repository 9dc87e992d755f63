import { describe, expect, it } from 'vitest';
import { evaluateThresholds, type ThresholdContext } from './evaluate-thresholds';
import { ThresholdSchema, thresholdsToK6 } from './threshold-schema';
import { generateScenario } from '../generate-scenario';

const noSamples: ThresholdContext = {
  trend: () => undefined,
  rate: () => undefined,
  count: () => undefined,
  durationSec: 1,
};

describe('insights as thresholds: "insight:<code>" is "absent"', () => {
  it('accepts "absent" only, and no abortOnFail, naming the field', () => {
    expect(ThresholdSchema.parse({ metric: 'insight:load-not-offered', expr: ' absent ' })).toEqual(
      {
        metric: 'insight:load-not-offered',
        expr: ' absent ',
        abortOnFail: false,
      },
    );
    const bad = ThresholdSchema.safeParse({ metric: 'insight:load-not-offered', expr: 'rate<1' });
    expect(bad.error?.issues[0]).toMatchObject({
      path: ['expr'],
      message: expect.stringMatching(/expression is "absent"/),
    });
    const abort = ThresholdSchema.safeParse({
      metric: 'insight:pool-never-waited',
      expr: 'absent',
      abortOnFail: true,
    });
    expect(abort.error?.issues[0]?.path).toEqual(['abortOnFail']);
    expect(ThresholdSchema.safeParse({ metric: 'insight:nope', expr: 'absent' }).success).toBe(
      false,
    );
  });

  it('fails when the insight was found, passes when not, and is not evaluated without insights', () => {
    const ts = [
      ThresholdSchema.parse({ metric: 'insight:pool-never-waited', expr: 'absent' }),
      ThresholdSchema.parse({ metric: 'insight:load-not-offered', expr: 'absent' }),
    ];
    expect(evaluateThresholds(ts, noSamples, ['pool-never-waited', 'machine-busy'])).toEqual([
      { metric: 'insight:pool-never-waited', expr: 'absent', observed: 1, pass: false },
      { metric: 'insight:load-not-offered', expr: 'absent', observed: 0, pass: true },
    ]);
    expect(evaluateThresholds(ts, noSamples).map((r) => [r.observed, r.pass])).toEqual([
      [null, true],
      [null, true],
    ]);
  });

  it('never reaches k6: the script keeps only k6 thresholds', () => {
    const thresholds = [
      ThresholdSchema.parse({ metric: 'http_req_failed', expr: 'rate<0.01' }),
      ThresholdSchema.parse({ metric: 'insight:pool-never-waited', expr: 'absent' }),
    ];
    expect(Object.keys(thresholdsToK6(thresholds))).toEqual(['http_req_failed']);
    const { script } = generateScenario({
      template: 'sustained',
      params: { vus: 1, durationMs: 1000 },
      requests: [{ path: '/work' }],
      thresholds,
    });
    expect(script).not.toContain('insight:');
  });
});
