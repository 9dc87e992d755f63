import { describe, expect, it } from 'vitest';
import { parseRunArgs } from './args';
import { UsageError } from './exit-codes';
import { applyHypothesisGate, hypothesisLines } from './hypothesis-gate';
import type { Experiment, ExperimentHypothesis } from './types';

const env = { POOLBENCH_URL: 'http://localhost:3000', POOLBENCH_TOKEN: 'pb_x' };
const h = (
  position: number,
  status: ExperimentHypothesis['status'],
  extra: Partial<ExperimentHypothesis> = {},
): ExperimentHypothesis => ({
  position,
  status,
  statement: `claim ${position + 1}`,
  change: -30,
  low: -40,
  high: -22,
  changeUnit: 'percent',
  p: 0.008,
  reason: `because ${position + 1}`,
  repeatsNeeded: null,
  ...extra,
});
const exp = (hypotheses?: ExperimentHypothesis[]): Experiment => ({
  id: 'e',
  name: 'E',
  status: 'completed',
  finished: true,
  target: { id: 't', name: 'T' },
  poolConfigs: [],
  scenarios: [],
  progress: { done: 1, total: 1, byStatus: {} },
  runs: [],
  webUrl: 'http://x/e',
  hypotheses,
});
const pass = { outcome: 'pass' as const, exitCode: 0, problems: [] };

describe('--fail-on-hypothesis', () => {
  it('parses bare (does-not-hold), =unresolved, and refuses other values; it implies --wait', () => {
    expect(parseRunArgs(['--experiment', 'x'], env).failOnHypothesis).toBeNull();
    const bare = parseRunArgs(['--experiment', 'x', '--fail-on-hypothesis'], env);
    expect(bare).toMatchObject({ failOnHypothesis: 'does-not-hold', wait: true });
    expect(
      parseRunArgs(['--fail-on-hypothesis=unresolved', '--experiment', 'x'], env).failOnHypothesis,
    ).toBe('unresolved');
    expect(() => parseRunArgs(['--experiment', 'x', '--fail-on-hypothesis=maybe'], env)).toThrow(
      UsageError,
    );
  });

  it('fails the build (exit 1) on a hypothesis that does not hold, naming it with its reason', () => {
    const r = applyHypothesisGate(
      pass,
      exp([h(0, 'holds'), h(1, 'does_not_hold'), h(2, 'unresolved')]),
      'does-not-hold',
    );
    expect(r).toEqual({
      outcome: 'hypothesis',
      exitCode: 1,
      problems: ['hypothesis 2 does not hold: claim 2 (because 2)'],
    });
  });

  it('=unresolved also fails on unresolved and undecided ones; holds passes; off changes nothing', () => {
    expect(
      applyHypothesisGate(pass, exp([h(0, 'unresolved'), h(1, 'pending')]), 'unresolved').problems,
    ).toEqual([
      'hypothesis 1 unresolved: claim 1 (because 1)',
      'hypothesis 2 pending: claim 2 (because 2)',
    ]);
    expect(applyHypothesisGate(pass, exp([h(0, 'unresolved')]), 'does-not-hold')).toEqual(pass);
    expect(applyHypothesisGate(pass, exp([h(0, 'holds')]), 'unresolved')).toEqual(pass);
    expect(applyHypothesisGate(pass, exp([h(0, 'does_not_hold')]), null)).toEqual(pass);
  });

  it('keeps an earlier failure’s outcome and code, and says when the server has no hypotheses', () => {
    const regression = { outcome: 'regression' as const, exitCode: 1, problems: ['p99 worse'] };
    expect(
      applyHypothesisGate(regression, exp([h(0, 'does_not_hold')]), 'does-not-hold'),
    ).toMatchObject({ outcome: 'regression', exitCode: 1 });
    expect(applyHypothesisGate(pass, exp(undefined), 'does-not-hold')).toMatchObject({
      exitCode: 0,
      problems: [expect.stringContaining('reports no hypotheses')],
    });
  });

  it('the text report lists every hypothesis with its change, interval and p', () => {
    expect(
      hypothesisLines(exp([h(0, 'holds'), h(1, 'unresolved', { change: null, repeatsNeeded: 7 })])),
    ).toEqual([
      'Hypotheses (pre-registered):',
      '  HOLDS         claim 1, change -30 % [-40, -22], p 0.008',
      '  UNRESOLVED    claim 2; about 7 repeats per side would likely resolve it',
    ]);
  });
});
