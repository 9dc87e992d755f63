import { describe, expect, it } from 'vitest';
import { adviceText, parseAdviseArgs } from './advise';
import { main, type Io } from './main';
import type { AdvisorAnswer, Experiment } from './types';

const io = () => {
  let out = '';
  let err = '';
  const t: Io = {
    env: { POOLBENCH_URL: 'http://127.0.0.1:9', POOLBENCH_TOKEN: 'pb_x' },
    stdout: { write: (s: string) => ((out += s), true) },
    stderr: { write: (s: string) => ((err += s), true) },
  };
  return { io: t, out: () => out, err: () => err };
};

const required = ['--target', 'Lab target', '--pool-config', 'lazy', '--scenario-id', 'sc1'];

describe('poolbench advise', () => {
  it('builds the POST /advisors body from the flags', () => {
    const o = parseAdviseArgs([
      ...required,
      '--min',
      '1',
      '--max',
      '16',
      '--p99',
      '50',
      '--budget',
      '30',
    ]);
    expect(o.body).toEqual({
      target: 'Lab target',
      poolConfig: 'lazy',
      scenarioId: 'sc1',
      min: 1,
      max: 16,
      objective: { kind: 'slo', p99Ms: 50, errorRate: 0.001 },
      budgetRuns: 30,
    });
    expect(o.wait).toBe(true);
    const t = parseAdviseArgs([
      ...required,
      '--min',
      '2',
      '--max',
      '8',
      '--max-throughput',
      '--no-wait',
    ]);
    expect(t.body.objective).toEqual({ kind: 'max-throughput' });
    expect(t.wait).toBe(false);
    const inline = parseAdviseArgs([
      '--target',
      't',
      '--pool-config',
      'p',
      '--scenario-template',
      'constant-arrival-rate',
      '--scenario-params',
      '{"ratePerSec":50,"durationMs":5000,"preAllocatedVUs":10}',
      '--request',
      'GET /work?ms=50',
      '--min',
      '1',
      '--max',
      '4',
      '--p99',
      '100',
      '--max-error-rate',
      '1',
    ]);
    expect(inline.body.scenario).toEqual({
      template: 'constant-arrival-rate',
      params: { ratePerSec: 50, durationMs: 5000, preAllocatedVUs: 10 },
      requests: [{ method: 'GET', path: '/work', query: { ms: 50 } }],
    });
    expect(inline.body.objective).toEqual({ kind: 'slo', p99Ms: 100, errorRate: 0.01 });
  });

  it('refuses bad flags with a usage error (exit 2) naming the flag', async () => {
    const cases: Array<[string[], RegExp]> = [
      [
        ['--pool-config', 'p', '--scenario-id', 's', '--min', '1', '--max', '2', '--p99', '5'],
        /--target/,
      ],
      [[...required, '--max', '2', '--p99', '5'], /--min/],
      [[...required, '--min', '1', '--max', '2'], /--p99 <ms> or --max-throughput/],
      [
        [...required, '--min', '1', '--max', '2', '--p99', '5', '--max-throughput'],
        /exactly one objective/,
      ],
      [[...required, '--min', 'one', '--max', '2', '--p99', '5'], /--min must be a number/],
      [
        [...required, '--min', '1', '--max', '2', '--max-throughput', '--max-error-rate', '1'],
        /goes with --p99/,
      ],
      [
        ['--target', 't', '--pool-config', 'p', '--min', '1', '--max', '2', '--p99', '5'],
        /exactly one of --scenario-id/,
      ],
      [[...required, '--bogus'], /bogus/],
    ];
    for (const [args, why] of cases) {
      const t = io();
      expect(await main(['advise', ...args], t.io)).toBe(2);
      expect(t.err()).toMatch(why);
    }
  });

  it('prints the answer, its evidence and a row per setting', () => {
    const e = { id: 'e1', name: 'Advisor', webUrl: 'http://x/experiments/e1' } as Experiment;
    const a: AdvisorAnswer = {
      status: 'decided',
      recommended: 3,
      summary: 'maxConns 3 is the smallest setting that meets the SLO.',
      evidence: ['maxConns 2: fails, 3 runs'],
      runsUsed: 12,
      budgetRuns: 24,
      settings: [
        {
          setting: 2,
          runs: 3,
          meets: 0,
          verdict: 'fails',
          p99Median: 900,
          rpsMedian: 45,
          errorRateMedian: 0,
          dbConnectionsPeak: 2,
        },
        {
          setting: 3,
          runs: 3,
          meets: 3,
          verdict: 'meets',
          p99Median: 55.2,
          rpsMedian: 50,
          errorRateMedian: 0,
          dbConnectionsPeak: 3,
        },
      ],
      inDoubt: [],
      usl: null,
    };
    const text = adviceText(e, a);
    expect(text).toMatch(/maxConns 3 is the smallest/);
    expect(text).toMatch(/- maxConns 2: fails/);
    expect(text).toMatch(/\n\s+3\s+3\s+3\s+meets\s+55\.2/);
    expect(text).toMatch(/runs used: 12 of 24/);
  });

  it('is listed in the usage, with its own help', async () => {
    const t = io();
    expect(await main(['--help'], t.io)).toBe(0);
    expect(t.out()).toMatch(/poolbench advise/);
    const h = io();
    expect(await main(['advise', '--help'], h.io)).toBe(0);
    expect(h.out()).toMatch(/--p99 <ms>/);
  });
});
