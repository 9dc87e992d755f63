import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main, type Io } from './main';
import { toJUnit } from './report/junit';
import { toMarkdown } from './report/markdown';
import { scriptMetricLine, toText } from './report/text';
import type { ScriptMetricSummary } from '@poolbench/contracts';
import type { Comparison, Experiment, ExperimentSummary } from './types';

const ref = (id: string) => ({ id, name: id });
const experiment: Experiment = {
  id: 'e1',
  name: 'pr',
  status: 'completed',
  finished: true,
  target: ref('lab'),
  poolConfigs: [ref('one')],
  scenarios: [ref('load')],
  progress: { done: 2, total: 2, byStatus: { succeeded: 2 } },
  runs: [0, 1].map((i) => ({
    id: `r${i}`,
    status: 'succeeded',
    poolConfigId: 'one',
    scenarioId: 'load',
    repeatIndex: i,
    errorMessage: null,
  })),
  webUrl: 'http://pb/experiments/e1',
};
const none = { aboveTop: 0, p95: null, mean: null, sum: null, rate: null, last: null, max: null };
const scriptMetrics: ScriptMetricSummary[] = [
  {
    name: 'login_ms',
    type: 'trend',
    unit: 'ms',
    runs: 2,
    count: 40,
    negative: 0,
    ...none,
    p95: 31.5,
    mean: 21,
  },
  {
    name: 'items',
    type: 'trend',
    unit: '',
    runs: 2,
    count: 36,
    negative: 4,
    ...none,
    p95: 3,
    mean: 2.75,
  },
  { name: 'orders', type: 'counter', unit: '', runs: 2, count: 40, negative: 0, ...none, sum: 80 },
  { name: 'ok', type: 'rate', unit: '', runs: 1, count: 40, negative: 0, ...none, rate: 0.975 },
  {
    name: 'queue',
    type: 'gauge',
    unit: '',
    runs: 1,
    count: 12,
    negative: 0,
    ...none,
    last: 2,
    max: 7,
  },
];
const summary: ExperimentSummary = {
  experimentId: 'e1',
  status: 'completed',
  finished: true,
  thresholdsFailed: false,
  cells: [
    {
      poolConfig: ref('one'),
      scenario: ref('load'),
      runs: 2,
      succeeded: 2,
      metrics: [
        { key: 'p99Ms', label: 'Latency p99', unit: 'ms', n: 2, median: 80 },
        { key: 'checkPassRate', label: 'Check pass rate', unit: '%', n: 2, median: 100 },
      ],
      scriptMetrics,
      thresholds: { passed: 0, failed: 0, failures: [] },
    },
  ],
};
const comparison: Comparison = {
  experimentId: 'e1',
  baseline: 'main',
  gatedOn: ['p99Ms'],
  outcome: 'pass',
  cells: [
    {
      poolConfig: ref('one'),
      scenario: ref('load'),
      baseline: { id: 'b', experimentId: 'e0', runId: null, poolConfig: ref('one'), runs: 2 },
      candidateRuns: 2,
      regression: false,
      metrics: [],
      scriptMetrics: [
        {
          name: 'login_ms',
          type: 'trend',
          stat: 'p95',
          unit: 'ms',
          baselineMedian: 15,
          baselineRuns: 2,
          candidateMedian: 31.5,
          candidateRuns: 2,
          difference: { absolute: 16.5, percent: 110 },
        },
        {
          name: 'items',
          type: 'trend',
          stat: 'p95',
          unit: '',
          baselineMedian: 4,
          baselineRuns: 2,
          candidateMedian: 3,
          candidateRuns: 2,
          difference: { absolute: -1, percent: -25 },
        },
        {
          name: 'ok',
          type: 'rate',
          stat: 'ratio',
          unit: '%',
          baselineMedian: 100,
          baselineRuns: 2,
          candidateMedian: 97.5,
          candidateRuns: 2,
          difference: { absolute: -2.5, percent: -2.5 },
        },
      ],
    },
  ],
};

describe("the script's own metrics in the CLI's reports", () => {
  it('the text report lists them under the cell beside its checks: ms only for a trend of times', () => {
    const text = toText({
      experiment,
      summary,
      comparison: null,
      shareUrl: null,
      outcome: 'pass',
      exitCode: 0,
      problems: [],
    });
    expect(text).toContain('one / load: 2/2 runs, p99 80.0 ms, –, checks passed 100 %');
    expect(text).toContain(
      'SCRIPT       login_ms (trend): 40 samples, p95 31.5 ms, avg 21.0 ms (median of 2 runs)',
    );
    expect(text).toContain(
      'SCRIPT       items (trend): 36 samples, p95 3, avg 2.75, 4 samples below 0 left out (median of 2 runs)',
    );
    expect(text).toContain('SCRIPT       orders (counter): 40 samples, sum 80 (median of 2 runs)');
    expect(text).toContain('SCRIPT       ok (rate): 40 samples, rate 97.5 %');
    expect(text).toContain('SCRIPT       queue (gauge): 12 samples, last 2, max 7');
    // the metric lines follow their cell's line, before the outcome
    const lines = text.split('\n');
    const cell = lines.findIndex((l) => l.includes('one / load: 2/2 runs'));
    expect(lines[cell + 1]).toContain('login_ms');
  });

  it('the JUnit report carries them as the suite output, not as test cases', () => {
    const base = {
      experiment,
      shareUrl: null,
      outcome: 'pass' as const,
      exitCode: 0,
      problems: [] as string[],
    };
    const compared = toJUnit({ ...base, summary, comparison });
    const out = /<system-out>([\s\S]*)<\/system-out>/.exec(compared)?.[1] ?? '';
    expect(out).toContain('one / load:');
    expect(out).toContain(
      'SCRIPT       login_ms p95 (trend): 15.0 ms -&gt; 31.5 ms, +16.5 ms (+110 %)',
    );
    expect(out).toContain('SCRIPT       items p95 (trend): 4 -&gt; 3, -1 (-25.0 %)');
    // descriptive: no test case more than the report had without them
    const cases = (xml: string) => (xml.match(/<testcase /g) ?? []).length;
    expect(cases(compared)).toBe(
      cases(
        toJUnit({
          ...base,
          summary,
          comparison: { ...comparison, cells: [{ ...comparison.cells[0]!, scriptMetrics: [] }] },
        }),
      ),
    );
    // without a comparison, the cell's medians
    const summarized = toJUnit({ ...base, summary, comparison: null });
    expect(summarized).toContain('SCRIPT       queue (gauge): 12 samples, last 2, max 7');
    // the suite's output comes after its test cases, as the JUnit schema orders them
    expect(summarized.indexOf('<system-out>')).toBeGreaterThan(summarized.lastIndexOf('<testcase'));
  });

  it('a trend of plain numbers never reads ms, whatever its value', () => {
    const line = scriptMetricLine({ ...scriptMetrics[1]!, negative: 0, p95: 1200, mean: 0.5 });
    expect(line).toBe(
      '    SCRIPT       items (trend): 36 samples, p95 1200, avg 0.50 (median of 2 runs)',
    );
    expect(line).not.toMatch(/\d (ms|s)\b/);
  });

  it("says which samples were held at the top, in the trend's own unit", () => {
    const plain = scriptMetricLine({ ...scriptMetrics[1]!, negative: 0, aboveTop: 2 });
    expect(plain).toContain('p95 3, avg 2.75, 2 samples above 3,600,000 counted as 3,600,000');
    const times = scriptMetricLine({ ...scriptMetrics[0]!, aboveTop: 1 });
    expect(times).toContain('1 sample above 1 h counted as 1 h');
  });

  it('a comparison lists them, baseline -> candidate, after its verdicts', () => {
    const text = toText({
      experiment,
      summary,
      comparison,
      shareUrl: null,
      outcome: 'pass',
      exitCode: 0,
      problems: [],
    });
    expect(text).toContain(
      'SCRIPT       login_ms p95 (trend): 15.0 ms -> 31.5 ms, +16.5 ms (+110 %)',
    );
    expect(text).toContain('SCRIPT       items p95 (trend): 4 -> 3, -1 (-25.0 %)');
    expect(text).toContain('SCRIPT       ok ratio (rate): 100 % -> 97.5 %, -2.50 pp');
  });
});

describe("the script's own metrics in the pull-request comment (Markdown)", () => {
  const result = (c: Comparison | null) => ({
    experiment,
    summary,
    comparison: c,
    shareUrl: null,
    outcome: 'pass' as const,
    exitCode: 0,
    problems: [],
  });

  it('a summary lists each with its samples and values, ms only for a trend of times', () => {
    const md = toMarkdown(result(null));
    expect(md).toContain('| Pool config / scenario | Script metric | Samples | Value |');
    expect(md).toContain(
      '| one / load | login_ms (trend) | 40 | p95 31.5 ms, avg 21.0 ms (median of 2 runs) |',
    );
    expect(md).toContain(
      '| one / load | items (trend) | 36 | p95 3, avg 2.75, 4 samples below 0 left out (median of 2 runs) |',
    );
    expect(md).toContain('| one / load | queue (gauge) | 12 | last 2, max 7 |');
  });

  it('a comparison lists them baseline against this run, apart from the verdicts', () => {
    const md = toMarkdown(result(comparison));
    expect(md).toContain(
      '| Pool config / scenario | Script metric | Baseline | This run | Difference |',
    );
    expect(md).toContain(
      '| one / load | login_ms p95 (trend) | 15.0 ms | 31.5 ms | +16.5 ms (+110 %) |',
    );
    expect(md).toContain('| one / load | items p95 (trend) | 4 | 3 | -1 (-25.0 %) |');
    expect(md).toContain('| one / load | ok ratio (rate) | 100 % | 97.5 % | -2.50 pp |');
    expect(md).toContain('never part of a verdict');
  });
});

describe("poolbench run --json carries the script's own metrics", () => {
  let server: Server;
  let url = '';
  beforeAll(async () => {
    server = createServer((req, res) => {
      const path = (req.url ?? '').replace(/\?.*$/, '');
      const body =
        path === '/api/v1/experiments' || path === '/api/v1/experiments/e1'
          ? experiment
          : path === '/api/v1/experiments/e1/summary'
            ? summary
            : path === '/api/v1/experiments/e1/compare'
              ? comparison
              : null;
      res.writeHead(body ? (req.method === 'POST' ? 201 : 200) : 404, {
        'Content-Type': 'application/json',
      });
      res.end(JSON.stringify(body ?? { code: 'not_found', status: 404, detail: path }));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('in the summary and the comparison it prints', async () => {
    let out = '';
    const io: Io = {
      env: { POOLBENCH_URL: url, POOLBENCH_TOKEN: 'pb_x' },
      stdout: { write: (s: string) => ((out += s), true) },
      stderr: { write: () => true },
    };
    expect(await main(['run', '--experiment', 'main', '--baseline', 'main', '--json'], io)).toBe(0);
    const result = JSON.parse(out) as { summary: ExperimentSummary; comparison: Comparison };
    expect(result.summary.cells[0]!.scriptMetrics).toEqual(scriptMetrics);
    expect(result.comparison.cells[0]!.scriptMetrics!.map((m) => [m.name, m.unit])).toEqual([
      ['login_ms', 'ms'],
      ['items', ''],
      ['ok', '%'],
    ]);
  });
});
