import { describe, expect, it } from 'vitest';
import { decide } from './gate';
import { toJUnit } from './report/junit';
import { toMarkdown } from './report/markdown';
import { toText } from './report/text';
import type { Comparison, Experiment, ExperimentSummary, RunResult } from './types';

const ref = (id: string) => ({ id, name: id });
const experiment = (statuses: string[]): Experiment => ({
  id: 'e1',
  name: 'pr <1>',
  status: 'completed',
  finished: true,
  target: ref('lab'),
  poolConfigs: [ref('one')],
  scenarios: [ref('load')],
  progress: { done: statuses.length, total: statuses.length, byStatus: {} },
  runs: statuses.map((status, i) => ({
    id: `r${i}`,
    status,
    poolConfigId: 'one',
    scenarioId: 'load',
    repeatIndex: i,
    errorMessage: status === 'failed' ? 'k6 ended with exit code 107' : null,
  })),
  webUrl: 'http://pb/experiments/e1',
});
const summary = (failed: number): ExperimentSummary => ({
  experimentId: 'e1',
  status: 'completed',
  finished: true,
  thresholdsFailed: failed > 0,
  cells: [
    {
      poolConfig: ref('one'),
      scenario: ref('load'),
      runs: 4,
      succeeded: 4,
      metrics: [{ key: 'p99Ms', label: 'Latency p99', unit: 'ms', n: 4, median: 80 }],
      thresholds: {
        passed: 4 - failed,
        failed,
        failures: Array.from({ length: failed }, (_, i) => ({
          runId: `r${i}`,
          metric: 'http_req_duration',
          expr: 'p(99)<50',
          observed: 80,
          pass: false,
        })),
      },
    },
  ],
});
const comparison = (verdict: 'worse' | 'no-change', gatedOn: string[] = ['p99Ms']): Comparison => ({
  experimentId: 'e1',
  baseline: 'main',
  gatedOn,
  outcome: verdict === 'worse' ? 'regression' : 'pass',
  cells: [
    {
      poolConfig: ref('one'),
      scenario: ref('load'),
      baseline: { id: 'b', experimentId: 'e0', runId: null, poolConfig: ref('ten'), runs: 4 },
      candidateRuns: 4,
      regression: verdict === 'worse',
      metrics: [
        {
          key: 'p99Ms',
          label: 'Latency p99',
          unit: 'ms',
          direction: 'lower-is-better',
          verdict,
          baselineMedian: 10,
          candidateMedian: 80,
          changePercent: { estimate: 700, lower: 650, upper: 760 },
          confidence: 0.95,
          pValue: 0.029,
          insufficient: false,
          lowRequests: false,
          reason: 'the 95 % interval lies beyond the band',
        },
      ],
    },
  ],
});

describe('decide', () => {
  it.each([
    ['any', 'worse', 0, 1, 'regression'],
    ['any', 'no-change', 1, 1, 'threshold'],
    ['regression', 'no-change', 1, 0, 'threshold'],
    ['threshold', 'worse', 0, 0, 'regression'],
    ['none', 'worse', 1, 0, 'regression+threshold'],
    ['any', 'no-change', 0, 0, 'pass'],
  ] as const)(
    'fail-on %s with %s and %i threshold failures -> exit %i (%s)',
    (failOn, verdict, failed, exit, outcome) => {
      const d = decide(
        failOn,
        experiment(['succeeded', 'succeeded']),
        summary(failed),
        comparison(verdict),
      );
      expect(d.exitCode).toBe(exit);
      expect(d.outcome).toBe(outcome);
    },
  );
  const suspectedComparison = (): Comparison => {
    const c = comparison('no-change');
    const cell = c.cells[0]!;
    return {
      ...c,
      outcome: 'suspected-regression',
      cells: [
        {
          ...cell,
          state: 'suspected-regression',
          metrics: [{ ...cell.metrics[0]!, verdict: 'inconclusive', suspected: true }],
        },
      ],
    };
  };
  it.each([
    ['suspected', 1],
    ['any', 0],
    ['regression', 0],
    ['none', 0],
  ] as const)('a suspected regression with --fail-on %s -> exit %i', (failOn, exit) => {
    const d = decide(
      failOn,
      experiment(['succeeded', 'succeeded']),
      summary(0),
      suspectedComparison(),
    );
    expect(d.outcome).toBe('suspected-regression');
    expect(d.exitCode).toBe(exit);
    expect(d.problems[0]).toMatch(/^suspected regression: Latency p99 of one × load/);
  });

  it.each([
    ['any', 1],
    ['suspected', 1],
    ['regression', 0],
    ['threshold', 0],
  ] as const)(
    'a 1-run baseline is incomplete, never a pass: --fail-on %s -> exit %i',
    (failOn, exit) => {
      const c = comparison('no-change');
      const cell = c.cells[0]!;
      const reason = '1 measured run of the baseline; the test needs at least 2 per side';
      const d = decide(failOn, experiment(['succeeded', 'succeeded']), summary(0), {
        ...c,
        outcome: 'incomplete',
        cells: [
          {
            ...cell,
            baseline: { ...cell.baseline!, runs: 1 },
            state: 'incomplete',
            incomplete: reason,
            metrics: [{ ...cell.metrics[0]!, verdict: 'inconclusive', insufficient: true }],
          },
        ],
      });
      expect(d.outcome).toBe('incomplete');
      expect(d.exitCode).toBe(exit);
      expect(d.problems).toEqual([`incomplete: one × load: ${reason}`]);
    },
  );

  it('invalid runs the server left out are named, and the incomplete reason says why', () => {
    const c = comparison('no-change');
    const cell = c.cells[0]!;
    const reason =
      '2 of 5 candidate runs invalid (more than 33 %): run r1: load not offered (3.2 % of iterations dropped); run r3: load not offered (1.5 % of iterations dropped); the valid ones do not stand for the config';
    const dropped = (runId: string, pct: string) => ({
      runId,
      side: 'candidate' as const,
      reasons: [
        { code: 'load-not-offered', message: `load not offered (${pct} of iterations dropped)` },
      ],
    });
    const d = decide('any', experiment(['succeeded', 'succeeded']), summary(0), {
      ...c,
      outcome: 'incomplete',
      cells: [
        {
          ...cell,
          candidateRuns: 3,
          state: 'incomplete',
          incomplete: reason,
          invalidRuns: [dropped('r1', '3.2 %'), dropped('r3', '1.5 %')],
        },
      ],
    });
    expect(d.outcome).toBe('incomplete');
    expect(d.exitCode).toBe(1);
    expect(d.problems).toEqual([
      'invalid: candidate run r1 of one × load left out of the verdicts: load not offered (3.2 % of iterations dropped)',
      'invalid: candidate run r3 of one × load left out of the verdicts: load not offered (1.5 % of iterations dropped)',
      `incomplete: one × load: ${reason}`,
    ]);
  });

  it('a candidate that could not take the load its baseline took is a regression, also under --fail-on regression', () => {
    const c = comparison('no-change');
    const cell = c.cells[0]!;
    const reason =
      '5 of 5 candidate runs could not take the load all 5 valid baseline runs took with the same scenario (run r1: load not offered (17.4 % of iterations dropped); …): the config falls behind it';
    const withCell = {
      ...c,
      outcome: 'regression' as const,
      cells: [
        {
          ...cell,
          candidateRuns: 0,
          state: 'regression' as const,
          incomplete: null,
          loadNotTaken: reason,
        },
      ],
    };
    for (const failOn of ['regression', 'any'] as const) {
      const d = decide(failOn, experiment(['succeeded', 'succeeded']), summary(0), withCell);
      expect(d.outcome).toBe('regression');
      expect(d.exitCode).toBe(1);
      expect(d.problems).toContain(`regression: one × load: ${reason}`);
    }
  });

  it('a worse secondary metric is a suspicion, not a regression', () => {
    const c = comparison('worse');
    const cell = c.cells[0]!;
    const d = decide('any', experiment(['succeeded', 'succeeded']), summary(0), {
      ...c,
      outcome: 'suspected-regression',
      cells: [
        {
          ...cell,
          state: 'suspected-regression',
          regression: false,
          metrics: [{ ...cell.metrics[0]!, primary: false }],
        },
      ],
    });
    expect(d.outcome).toBe('suspected-regression');
    expect(d.exitCode).toBe(0);
    expect(d.problems[0]).toMatch(/secondary metric Latency p99 of one × load is worse/);
  });

  it('--metrics: a verdict gated on exactly the asked metrics counts, in any order', () => {
    const d = decide(
      'regression',
      experiment(['succeeded']),
      summary(0),
      comparison('worse', ['rps', 'p99Ms']),
      ['p99Ms', 'rps'],
    );
    expect(d).toEqual({ outcome: 'regression', exitCode: 1, problems: [] });
  });
  it.each([
    [
      'a server that does not know --metrics',
      undefined,
      'every metric (it does not know --metrics)',
    ],
    ['a server that gated on other metrics', ['p99Ms', 'rps', 'p50Ms'], 'p99Ms, rps, p50Ms'],
  ])('--metrics: %s is exit 3, not a verdict on other metrics', (_what, gatedOn, said) => {
    const c = comparison('no-change');
    const d = decide(
      'any',
      experiment(['succeeded']),
      summary(0),
      gatedOn ? { ...c, gatedOn } : { ...c, gatedOn: undefined },
      ['p99Ms', 'rps'],
    );
    expect(d.exitCode).toBe(3);
    expect(d.problems[0]).toBe(
      `asked to gate on p99Ms, rps but the server gated on ${said}; update PoolBench or drop --metrics`,
    );
  });
  it('--window: a comparison over exactly those seconds counts; a server that compared whole runs is exit 3', () => {
    const c = comparison('worse');
    expect(
      decide(
        'any',
        experiment(['succeeded']),
        summary(0),
        { ...c, window: { from: 10, to: 60 } },
        null,
        { from: 10, to: 60 },
      ).exitCode,
    ).toBe(1);
    for (const window of [undefined, null, { from: 0, to: 60 }]) {
      const d = decide('any', experiment(['succeeded']), summary(0), { ...c, window }, null, {
        from: 10,
        to: 60,
      });
      expect(d.exitCode).toBe(3);
      expect(d.problems[0]).toMatch(
        /^asked to compare seconds 10-60 of every run but the server compared (whole runs \(it does not know --window\)|seconds 0-60); update PoolBench or drop --window$/,
      );
    }
  });
  it('runs whose thresholds failed measured: the threshold outcome decides (exit 1 or 0), not an infrastructure error', () => {
    expect(
      decide(
        'any',
        experiment(['thresholds_failed', 'succeeded']),
        summary(1),
        comparison('no-change'),
      ),
    ).toEqual({ outcome: 'threshold', exitCode: 1, problems: [] });
    expect(
      decide('regression', experiment(['thresholds_failed']), summary(1), comparison('no-change'))
        .exitCode,
    ).toBe(0);
  });
  it('the text report counts runs by status, naming threshold failures', () => {
    const text = toText({
      experiment: experiment(['succeeded', 'thresholds_failed', 'thresholds_failed']),
      summary: summary(2),
      comparison: null,
      shareUrl: null,
      outcome: 'threshold',
      exitCode: 1,
      problems: [],
    });
    expect(text).toContain('  runs: 1 succeeded, 2 thresholds failed');
  });
  it("the text report gives a cell's check pass rate when its runs had checks, and names a failed checks threshold", () => {
    const s = summary(1);
    const cell = s.cells[0]!;
    cell.metrics.push({
      key: 'checkPassRate',
      label: 'Check pass rate',
      unit: '%',
      n: 4,
      median: 50,
    });
    cell.thresholds.failures[0] = {
      ...cell.thresholds.failures[0]!,
      metric: 'checks',
      expr: 'rate>0.99',
      observed: 0.5,
    };
    const result = {
      experiment: experiment(['thresholds_failed']),
      comparison: null,
      shareUrl: null,
      outcome: 'threshold' as const,
      exitCode: 1,
      problems: [],
    };
    const text = toText({ ...result, summary: s });
    expect(text).toContain('one / load: 4/4 runs, p99 80.0 ms, –, checks passed 50.0 %');
    expect(text).toContain('THRESHOLD FAILED one / load: checks rate>0.99 observed 0.5 (run r0)');
    // runs without checks have no such value, and their line says nothing of checks
    expect(toText({ ...result, summary: summary(0) })).not.toContain('checks');
  });
  it('runs that did not succeed are an infrastructure error (exit 3), never a pass', () => {
    const d = decide(
      'any',
      experiment(['succeeded', 'failed']),
      summary(0),
      comparison('no-change'),
    );
    expect(d.exitCode).toBe(3);
    expect(d.problems.join(' ')).toContain('k6 ended with exit code 107');
  });
});

describe('reports', () => {
  const result: RunResult = {
    experiment: experiment(['succeeded']),
    summary: summary(1),
    comparison: comparison('worse'),
    shareUrl: null,
    outcome: 'regression+threshold',
    exitCode: 1,
    problems: [],
  };
  it('JUnit fails a case with the reason when an incomplete check fails the build', () => {
    const xml = toJUnit({
      ...result,
      summary: summary(0),
      comparison: { ...comparison('no-change'), outcome: 'incomplete' },
      outcome: 'incomplete',
      problems: ['incomplete: one × load: 1 measured run of the baseline'],
    });
    expect(xml).toContain('<testcase classname="poolbench" name="incomplete">');
    expect(xml).toContain(
      '<failure message="incomplete: one × load: 1 measured run of the baseline">',
    );
  });

  it('JUnit has a failing case naming the metric, the change and its interval, escaped', () => {
    const xml = toJUnit(result);
    expect(xml).toContain('<testcase classname="poolbench.one / load" name="Latency p99 vs main">');
    expect(xml).toContain(
      'failure message="Latency p99 regressed: +700 % (95 % CI +650 % … +760 %)"',
    );
    expect(xml).toContain('name="threshold http_req_duration p(99)&lt;50"');
    expect(xml).toContain('name="pr &lt;1&gt;"');
    expect(xml).toMatch(/tests="2" failures="2"/);
  });
  it('Markdown has a table row with baseline, candidate, change and verdict', () => {
    const md = toMarkdown(result);
    expect(md).toContain('### PoolBench: ❌ regression and threshold failed');
    expect(md).toContain(
      '| one / load | Latency p99 | 10.0 ms | 80.0 ms | +700 % (95 % CI +650 % … +760 %) | ❌ worse |',
    );
    expect(md).toContain('`http_req_duration p(99)<50` observed 80');
  });
  it('text output names the regression', () => {
    expect(toText(result)).toContain(
      'REGRESSION   Latency p99: 10.0 ms -> 80.0 ms, change +700 % (95 % CI +650 % … +760 %)',
    );
  });
  it('every report says which metrics the verdict was gated on', () => {
    expect(toText(result)).toContain(
      'Compared with baseline "main" (gated on: p99Ms; over whole runs):',
    );
    expect(toMarkdown(result)).toContain(
      ' · baseline `main` · gated on: `p99Ms` · over whole runs',
    );
    expect(toJUnit(result)).toContain(
      '<property name="gatedOn" value="p99Ms"/><property name="window" value="whole runs"/>',
    );
    expect(toJUnit(result)).toContain('; gated on: p99Ms; over whole runs</failure>');
    const all = {
      ...result,
      comparison: comparison('worse', [
        'rps',
        'p50Ms',
        'p95Ms',
        'p99Ms',
        'errorRate',
        'checkPassRate',
        'connectP95Ms',
        'cpuMeanPercent',
        'cpuPeakPercent',
        'rssMeanBytes',
        'rssPeakBytes',
        'poolWaitMsMean',
      ]),
    };
    expect(toText(all)).toContain('(gated on: all 12 tested metrics; over whole runs)');
    expect(toMarkdown(all)).toContain('gated on: all 12 tested metrics');
  });
  it('every report says which seconds of each run were compared', () => {
    const windowed = {
      ...result,
      comparison: { ...comparison('worse'), window: { from: 10, to: 60 } },
    };
    expect(toText(windowed)).toContain('over seconds 10–60 of each run):');
    expect(toMarkdown(windowed)).toContain(' · over seconds 10–60 of each run');
    expect(toJUnit(windowed)).toContain(
      '<property name="window" value="seconds 10–60 of each run"/>',
    );
  });
  it('--gate-base: every report says the comparison is against a pool config of this experiment', () => {
    const based = {
      ...result,
      comparison: { ...comparison('worse'), baseline: 'ten', base: ref('ten') },
    };
    expect(toText(based)).toContain(
      'Compared with pool config "ten" of this experiment (gated on: p99Ms; over whole runs):',
    );
    expect(toText(based)).toContain('one / load (4 runs vs 4 runs of ten):');
    expect(toMarkdown(based)).toContain('against pool config `ten` of this experiment');
    expect(toMarkdown(based)).toContain(
      '| Pool config / scenario | Metric | ten | This run | Change | Verdict |',
    );
    expect(toJUnit(based)).toContain('name="Latency p99 vs ten"');
    expect(toJUnit(based)).toContain(
      '<property name="against" value="pool config &quot;ten&quot; of this experiment"/>',
    );
  });
  it('JUnit states the floor its bands come from: 5 %, except the metrics with an absolute floor', () => {
    const xml = toJUnit(result);
    expect(xml).toContain(
      '<property name="floor" value="no-change band: ±5 % for every metric except those with an absolute floor (errorRate ±0.001 percentage points, checkPassRate ±0.001 percentage points, connectP95Ms ±0.05 ms, poolWaitMsMean ±0.1 ms), whose band in percent depends on the baseline and is explained in each verdict"/>',
    );
  });
});
