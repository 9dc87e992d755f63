import type { Prisma } from '@poolbench/db';
import { thresholdContextFromSummary } from '@poolbench/k6';
import { evaluateThresholds } from '@poolbench/scenarios';
import { createHistogram, encodeHistogram, histogramStatsMs } from '@poolbench/stats';
import { describe, expect, it } from 'vitest';
import { subMetricsFromMergedRows, summaryFromMergedRows } from './merged-summary';

const trend = (ms: number[]) => {
  const h = createHistogram();
  for (const v of ms) h.recordValue(v * 1000);
  return { type: 'trend', count: ms.length, time: true, histogram: encodeHistogram(h) };
};

const second = (
  n: number,
  subMetrics: Prisma.InputJsonValue | null,
): Prisma.RunSecondCreateManyInput => ({
  runId: 'r',
  second: n,
  segment: 'all',
  ts: new Date(1_700_000_000_000 + n * 1000),
  requests: 10,
  failed: 0,
  statusCounts: { '200': 10 },
  bytesSent: 0n,
  bytesReceived: 0n,
  iterations: 10,
  droppedIterations: 0,
  vus: 2,
  vusMax: 2,
  ...(subMetrics ? { subMetrics } : {}),
});

describe("a distributed run's summary, from its merged seconds", () => {
  it('counts the requests that failed a check among the failed ones', () => {
    const rows = [0, 1, 2].map((n) => ({ ...second(n, null), failed: n, checkFailed: n }));
    expect(summaryFromMergedRows(rows)).toMatchObject({ requests: 30, failed: 3, checkFailed: 3 });
    expect(summaryFromMergedRows([second(0, null)])).not.toHaveProperty('checkFailed');
  });

  it('keeps the most VUs the generators allocated together in a second', () => {
    const rows = [12, 30, 18].map((vusAllocated, n) => ({ ...second(n, null), vusAllocated }));
    expect(summaryFromMergedRows(rows).vusAllocatedMax).toBe(30);
    expect(summaryFromMergedRows([second(0, null)]).vusAllocatedMax).toBeNull();
  });
});

describe("a distributed run's tagged series, from its merged seconds", () => {
  const me = 'http_req_duration{name:me}';
  const errors = 'http_reqs{status:500}';
  const rows = [
    second(0, { [me]: trend([10, 20, 30]), [errors]: { type: 'counter', count: 1, sum: 1 } }),
    second(1, { [me]: trend([40, 250]) }),
    second(2, null),
  ];

  it('sums each series over the run and lists a named series without samples as none', () => {
    const series = subMetricsFromMergedRows(rows, [
      'http_req_duration{ name: me }',
      'http_req_failed{name:never}',
      'http_req_duration',
    ]);
    const all = createHistogram();
    for (const v of [10, 20, 30, 40, 250]) all.recordValue(v * 1000);
    expect(series).toEqual([
      {
        name: me,
        metric: 'http_req_duration',
        tags: { name: 'me' },
        type: 'trend',
        count: 5,
        time: true,
        trend: histogramStatsMs(all),
        histogram: expect.any(String),
      },
      {
        name: errors,
        metric: 'http_reqs',
        tags: { status: '500' },
        type: 'counter',
        count: 1,
        sum: 1,
      },
      {
        name: 'http_req_failed{name:never}',
        metric: 'http_req_failed',
        tags: { name: 'never' },
        type: 'none',
        count: 0,
      },
    ]);
  });

  it('judges sub-metric thresholds on them, as a single generator is judged', () => {
    const thresholds = [
      { metric: 'http_req_duration{name:me}', expr: 'p(95)<200', abortOnFail: false },
      { metric: 'http_req_duration{name:me}', expr: 'p(50)<50', abortOnFail: false },
      { metric: 'http_reqs{status:500}', expr: 'count<1', abortOnFail: false },
    ];
    const results = evaluateThresholds(
      thresholds,
      thresholdContextFromSummary(
        summaryFromMergedRows(rows),
        3,
        subMetricsFromMergedRows(
          rows,
          thresholds.map((t) => t.metric),
        ),
      ),
    );
    expect(results.map((r) => [r.expr, r.pass])).toEqual([
      ['p(95)<200', false],
      ['p(50)<50', true],
      ['count<1', false],
    ]);
    expect(results[0]!.observed).toBeCloseTo(250, 0);
  });
});
