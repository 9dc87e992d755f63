import { describe, expect, it } from 'vitest';
import { parseRequestFlag, parseRunArgs } from './args';
import { UsageError } from './exit-codes';

const env = { POOLBENCH_URL: 'http://localhost:3000/', POOLBENCH_TOKEN: 'pb_x' };

describe('parseRunArgs', () => {
  it('builds an inline start from flags', () => {
    const o = parseRunArgs(
      [
        '--target',
        'Lab target',
        '--pool-config',
        'a',
        '--pool-config',
        'b',
        '--scenario-template',
        'constant-arrival-rate',
        '--scenario-params',
        '{"ratePerSec":100,"durationMs":3000,"preAllocatedVUs":20}',
        '--request',
        'GET /work?ms=50',
        '--repeats',
        '4',
        '--baseline',
        'main',
      ],
      env,
    );
    expect(o.start).toEqual({
      kind: 'inline',
      target: 'Lab target',
      poolConfigs: ['a', 'b'],
      repeats: 4,
      scenario: {
        template: 'constant-arrival-rate',
        params: { ratePerSec: 100, durationMs: 3000, preAllocatedVUs: 20 },
        requests: [{ method: 'GET', path: '/work', query: { ms: 50 } }],
      },
    });
    expect(o.url).toBe('http://localhost:3000');
    expect(o.wait).toBe(true); // a baseline needs the finished runs
    expect(o.failOn).toBe('any');
  });

  it('creates a share link only when asked (--share); --no-share is still accepted', () => {
    expect(parseRunArgs(['--experiment', 'x'], env).share).toBe(false);
    expect(parseRunArgs(['--experiment', 'x', '--share'], env).share).toBe(true);
    expect(parseRunArgs(['--experiment', 'x', '--no-share'], env).share).toBe(false);
  });

  it('--gate-base compares the configs of one experiment, waits, and takes --metrics and --window', () => {
    const o = parseRunArgs(
      ['--experiment', 'x', '--gate-base', '10 conn', '--metrics', 'p99Ms', '--window', '2-10'],
      env,
    );
    expect([o.gateBase, o.baseline, o.wait, o.metrics, o.window]).toEqual([
      '10 conn',
      null,
      true,
      ['p99Ms'],
      { from: 2, to: 10 },
    ]);
    expect(() =>
      parseRunArgs(['--experiment', 'x', '--gate-base', 'a', '--baseline', 'main'], env),
    ).toThrow(
      'give --baseline (a saved baseline) or --gate-base (a pool config of this experiment), not both',
    );
    expect(() =>
      parseRunArgs(['--experiment', 'x', '--gate-base', 'a', '--save-baseline', 'main'], env),
    ).toThrow('--save-baseline goes with --baseline');
    expect(() => parseRunArgs(['--experiment', 'x', '--metrics', 'p99Ms'], env)).toThrow(
      'give one of them too',
    );
  });

  it('starts a saved experiment by name', () => {
    expect(parseRunArgs(['--experiment', 'nightly', '--repeats', '5'], env).start).toEqual({
      kind: 'saved',
      experiment: 'nightly',
      repeats: 5,
    });
  });

  it('--load-generators splits each run across that many workers (1-16), for saved and inline starts', () => {
    expect(parseRunArgs(['--experiment', 'nightly', '--load-generators', '3'], env).start).toEqual({
      kind: 'saved',
      experiment: 'nightly',
      loadGenerators: 3,
    });
    expect(
      parseRunArgs(
        ['--target', 't', '--pool-config', 'p', '--scenario-id', 's', '--load-generators', '16'],
        env,
      ).start,
    ).toMatchObject({ kind: 'inline', loadGenerators: 16 });
    expect(parseRunArgs(['--experiment', 'nightly'], env).start).not.toHaveProperty(
      'loadGenerators',
    );
    expect(() => parseRunArgs(['--experiment', 'x', '--load-generators', '17'], env)).toThrow(
      '--load-generators must be at most 16',
    );
    expect(() => parseRunArgs(['--experiment', 'x', '--load-generators', '0'], env)).toThrow(
      '--load-generators',
    );
  });

  it.each([
    [[], 'give --experiment'],
    [['--experiment', 'x', '--target', 't'], 'do not combine'],
    [['--target', 't', '--scenario-id', 's'], 'at least one --pool-config'],
    [['--target', 't', '--pool-config', 'p'], 'exactly one of'],
    [
      ['--target', 't', '--pool-config', 'p', '--scenario-id', 's', '--fail-on', 'sometimes'],
      '--fail-on must be one of',
    ],
    [['--target', 't', '--pool-config', 'p', '--scenario', '{nope'], 'not valid JSON'],
    [['--experiment', 'x', '--repeats', '0'], 'whole number'],
    [['--experiment', 'x', '--bogus'], 'Unknown option'],
  ])('%j is a usage error', (argv, message) => {
    expect(() => parseRunArgs(argv, env)).toThrow(UsageError);
    expect(() => parseRunArgs(argv, env)).toThrow(message);
  });

  it('--metrics gates the baseline comparison on the given tested metrics; absent means all', () => {
    expect(
      parseRunArgs(
        ['--experiment', 'x', '--baseline', 'main', '--metrics', 'p99Ms, rps,p99Ms'],
        env,
      ).metrics,
    ).toEqual(['p99Ms', 'rps']);
    expect(parseRunArgs(['--experiment', 'x', '--baseline', 'main'], env).metrics).toBeNull();
  });

  it.each([
    [['--metrics', 'p99Ms'], 'give one of them too'],
    [
      ['--baseline', 'main', '--metrics', 'p99'],
      '--metrics: unknown metric "p99"; valid keys: rps, p50Ms, p95Ms, p99Ms, errorRate, checkPassRate, connectP95Ms, cpuMeanPercent, cpuPeakPercent, rssMeanBytes, rssPeakBytes, poolWaitMsMean',
    ],
    [['--baseline', 'main', '--metrics', 'maxMs'], '--metrics: "maxMs" is shown but never tested'],
    [['--baseline', 'main', '--metrics', ' , '], '--metrics: choose at least one metric'],
  ])('--metrics %j is a usage error before anything starts', (argv, message) => {
    expect(() => parseRunArgs(['--experiment', 'x', ...argv], env)).toThrow(UsageError);
    expect(() => parseRunArgs(['--experiment', 'x', ...argv], env)).toThrow(message);
  });

  it('--window compares only those seconds of every run; absent means whole runs', () => {
    expect(
      parseRunArgs(['--experiment', 'x', '--baseline', 'main', '--window', '10-60'], env).window,
    ).toEqual({ from: 10, to: 60 });
    expect(parseRunArgs(['--experiment', 'x', '--baseline', 'main'], env).window).toBeNull();
  });

  it.each([
    [['--window', '10-60'], 'give one of them too'],
    [
      ['--baseline', 'main', '--window', '10'],
      '--window must look like 10-60 (from-to, whole seconds), got "10"',
    ],
    [['--baseline', 'main', '--window', '1.5-60'], '--window must look like 10-60'],
    [
      ['--baseline', 'main', '--window', '60-10'],
      '--window: the end (10) must be after the start (60)',
    ],
  ])('--window %j is a usage error before anything starts', (argv, message) => {
    expect(() => parseRunArgs(['--experiment', 'x', ...argv], env)).toThrow(UsageError);
    expect(() => parseRunArgs(['--experiment', 'x', ...argv], env)).toThrow(message);
  });

  it('needs POOLBENCH_URL and POOLBENCH_TOKEN', () => {
    expect(() => parseRunArgs(['--experiment', 'x'], {})).toThrow('POOLBENCH_URL');
    expect(() => parseRunArgs(['--experiment', 'x'], { POOLBENCH_URL: 'http://x' })).toThrow(
      'POOLBENCH_TOKEN',
    );
  });

  it('parses request flags', () => {
    expect(parseRequestFlag('/health')).toEqual({ method: 'GET', path: '/health' });
    expect(parseRequestFlag('post /items?name=a')).toEqual({
      method: 'POST',
      path: '/items',
      query: { name: 'a' },
    });
    expect(() => parseRequestFlag('health')).toThrow(UsageError);
  });
});

describe('--until-decided', () => {
  const env = { POOLBENCH_URL: 'http://pb.test', POOLBENCH_TOKEN: 'pb_x' };
  const inline = ['--target', 'Lab', '--pool-config', 'a', '--pool-config', 'b'];
  const tpl = ['--scenario-template', 'constant-arrival-rate', '--scenario-params', '{}'];
  it('asks the server for an until-decided experiment with that budget', () => {
    const o = parseRunArgs([...inline, ...tpl, '--until-decided', '15'], env);
    expect(o.start).toMatchObject({ kind: 'inline', untilDecided: { maxRepeats: 15 } });
  });
  it('refuses a budget below the starting repeats, above 50, or with a saved experiment', () => {
    expect(() => parseRunArgs([...inline, ...tpl, '--until-decided', '3'], env)).toThrow(
      /from the starting repeats \(5\) to 50/,
    );
    expect(() => parseRunArgs([...inline, ...tpl, '--until-decided', '51'], env)).toThrow(/to 50/);
    expect(() => parseRunArgs(['--experiment', 'x', '--until-decided', '10'], env)).toThrow(
      /inline experiment/,
    );
  });
});
