import { createHistogram, encodeHistogram } from '@poolbench/stats';
import { evaluateThresholds, ThresholdSchema } from '@poolbench/scenarios';
import { describe, expect, it } from 'vitest';
import { EndLineSchema, parseOutputLine, type SecondLine } from './ndjson-line';
import { subMetricsOf } from './run-k6';
import { SummaryAccumulator } from './summary-accumulator';
import { thresholdContextFromSummary } from './threshold-context';

function second(ts: number, latenciesUs: number[], over: Partial<SecondLine> = {}): SecondLine {
  const h = createHistogram();
  for (const v of latenciesUs) h.recordValue(v);
  return {
    v: 1,
    type: 'second',
    ts,
    requests: latenciesUs.length,
    failed: 1,
    status: { '200': latenciesUs.length - 1, '503': 1 },
    dataSentBytes: 100,
    dataReceivedBytes: 1000,
    iterations: latenciesUs.length,
    droppedIterations: 0,
    hist: { http_req_duration: encodeHistogram(h) },
    ...over,
  };
}

describe('SummaryAccumulator', () => {
  // Latencies stay below 2048 µs, where histogram buckets are exactly 1 µs wide.
  it('decodes each second and merges all of them into the summary', () => {
    const acc = new SummaryAccumulator();
    const first = acc.add(
      second(100, [100, 200, 300, 400], { vus: 3, vusMax: 5, vusAllocated: 10 }),
    );
    acc.add(
      second(
        101,
        Array.from({ length: 96 }, (_, i) => 1000 + i * 10),
        { vus: 2, vusMax: 2, vusAllocated: 25 },
      ),
    );
    expect(first.trends.http_req_duration).toMatchObject({
      count: 4,
      min: 0.1,
      max: 0.4,
      p50: 0.2,
    });
    expect(first.vus).toBe(3);
    const s = acc.summary();
    expect(s).toMatchObject({
      seconds: 2,
      firstTs: 100,
      lastTs: 101,
      requests: 100,
      failed: 2,
      vusMax: 5,
      vusAllocatedMax: 25,
    });
    expect(first.vusAllocated).toBe(10);
    expect(s.status).toEqual({ '200': 98, '503': 2 });
    expect(s.trends.http_req_duration).toMatchObject({ count: 100, min: 0.1, max: 1.95 });
    expect(s.percentile('http_req_duration', 4)).toBe(0.4);
    expect(s.percentile('http_req_duration', 50)).toBe(1.45);
    expect(s.percentile('http_req_waiting', 50)).toBeUndefined();
    expect(s.trends.http_req_waiting).toBeUndefined();
  });

  it('knows the seconds that carried load apart from vus-only setup and teardown seconds', () => {
    const acc = new SummaryAccumulator();
    acc.add(
      second(99, [], { requests: 0, failed: 0, status: {}, iterations: 0, hist: {}, vus: 0 }),
    );
    acc.add(second(100, [100]));
    acc.add(second(101, [100]));
    acc.add(
      second(102, [], { requests: 0, failed: 0, status: {}, iterations: 0, hist: {}, vus: 0 }),
    );
    expect(acc.summary()).toMatchObject({ firstTs: 99, lastTs: 102, loadSeconds: [100, 101] });
  });

  it('feeds evaluateThresholds with any percentile, rates and counts', () => {
    const acc = new SummaryAccumulator();
    // below 2048 µs a histogram bucket is exactly 1 µs wide, so the expected values are exact
    acc.add(
      second(
        1,
        Array.from({ length: 1000 }, (_, i) => i + 1),
      ),
    );
    acc.add(second(2, [2000]));
    const ctx = thresholdContextFromSummary(acc.summary());
    const t = (metric: string, expr: string) => ThresholdSchema.parse({ metric, expr });
    const r = evaluateThresholds(
      [
        t('http_req_duration', 'p(99.9)<1'),
        t('http_req_duration', 'p(99.9)<=1'),
        t('http_req_duration', 'med<=0.501'),
        t('http_req_duration', 'max>=2'),
        t('http_req_failed', 'rate<0.002'),
        t('http_reqs', 'count==1001'),
        t('http_reqs', 'rate>500'),
        t('iteration_duration', 'p(95)<1'),
      ],
      ctx,
    );
    expect(r.map((x) => [x.expr, x.observed, x.pass])).toEqual([
      ['p(99.9)<1', 1, false],
      ['p(99.9)<=1', 1, true],
      ['med<=0.501', 0.501, true],
      ['max>=2', 2, true],
      ['rate<0.002', 2 / 1001, true],
      ['count==1001', 1001, true],
      ['rate>500', 500.5, true],
      // no iteration_duration samples: k6 compares 0
      ['p(95)<1', 0, true],
    ]);
  });
});

describe('SummaryAccumulator: checks', () => {
  it('adds each second’s checks by group and name, and the checks threshold reads their pass rate', () => {
    const acc = new SummaryAccumulator();
    const s0 = acc.add(
      second(200, [100], {
        checks: [
          { name: 'status is 200', group: '', passes: 9, fails: 1 },
          { name: 'token', group: '::login', passes: 0, fails: 10 },
        ],
      }),
    );
    const s1 = acc.add(second(201, [100]));
    acc.add(
      second(202, [100], {
        checks: [{ name: 'status is 200', group: '', passes: 10, fails: 0 }],
        checksOverflow: { passes: 1, fails: 1 },
      }),
    );
    expect(s0.checks?.items).toHaveLength(2);
    expect(s1.checks).toBeNull();
    const s = acc.summary();
    expect(s.checks).toEqual({
      passes: 20,
      fails: 12,
      items: [
        { name: 'status is 200', group: '', passes: 19, fails: 1 },
        { name: 'token', group: '::login', passes: 0, fails: 10 },
      ],
      overflow: { passes: 1, fails: 1 },
    });
    const [pass, fail] = evaluateThresholds(
      [
        ThresholdSchema.parse({ metric: 'checks', expr: 'rate>0.6' }),
        ThresholdSchema.parse({ metric: 'checks', expr: 'rate>0.99' }),
      ],
      thresholdContextFromSummary(s),
    );
    expect([pass?.observed, pass?.pass, fail?.pass]).toEqual([20 / 32, true, false]);
  });

  it('a run without checks has none, and its checks threshold is not evaluated, as in k6', () => {
    const acc = new SummaryAccumulator();
    acc.add(second(300, [100]));
    expect(acc.summary().checks).toBeNull();
    const [r] = evaluateThresholds(
      [ThresholdSchema.parse({ metric: 'checks', expr: 'rate>0.99' })],
      thresholdContextFromSummary(acc.summary()),
    );
    expect(r).toMatchObject({ observed: null, pass: true });
  });
});

describe("the script's own trends: times or plain numbers, and samples below 0", () => {
  const hist = (us: number[]) => {
    const h = createHistogram();
    for (const v of us) h.recordValue(v);
    return encodeHistogram(h);
  };
  it('parses the output’s flags and carries them into each second and the summary', () => {
    const line = (ts: number, items: Record<string, unknown>) =>
      parseOutputLine(
        JSON.stringify({
          ...second(ts, [100]),
          custom: {
            login_ms: { type: 'trend', count: 1, time: true, hist: hist([12_000]) },
            items: { type: 'trend', ...items },
          },
        }),
      ) as SecondLine;
    const acc = new SummaryAccumulator();
    const s0 = acc.add(line(500, { count: 2, time: false, negative: 1, hist: hist([3000, 4000]) }));
    acc.add(line(501, { count: 0, time: false, negative: 2, hist: hist([]) }));
    expect(s0.custom?.items).toMatchObject({ time: false, negative: 1, count: 2 });
    expect(s0.custom?.login_ms).toMatchObject({ time: true });
    expect(acc.summary().custom?.items).toMatchObject({ time: false, negative: 3, count: 2 });
    // a line from an output older than the flag still parses, and says nothing of it
    const old = parseOutputLine(
      JSON.stringify({
        ...second(502, [100]),
        custom: { login_ms: { type: 'trend', count: 1, hist: hist([12_000]) } },
      }),
    ) as SecondLine;
    expect(old.custom?.login_ms).not.toHaveProperty('time');
    expect(() =>
      parseOutputLine(
        JSON.stringify({
          ...second(503, [100]),
          custom: { x: { type: 'trend', count: 1, negative: -1 } },
        }),
      ),
    ).toThrow();
  });

  it('a tagged series of a trend carries the same flags into the run', () => {
    const end = EndLineSchema.parse({
      v: 1,
      type: 'end',
      seconds: 1,
      lateSamples: 0,
      lateRequests: 0,
      durationMs: 1000,
      totals: {
        requests: 0,
        failed: 0,
        status: {},
        dataSentBytes: 0,
        dataReceivedBytes: 0,
        iterations: 0,
        droppedIterations: 0,
      },
      subMetrics: [
        {
          name: 'items{name:me}',
          metric: 'items',
          tags: { name: 'me' },
          type: 'trend',
          count: 1,
          time: false,
          negative: 1,
          hist: hist([3000]),
        },
      ],
    });
    expect(subMetricsOf(end)[0]).toMatchObject({ time: false, negative: 1, count: 1 });
  });
});

describe('thresholdContextFromSummary: sub-metrics', () => {
  it('are not evaluated without the run’s series, and read k6’s empty value when a kept series had no sample', () => {
    const acc = new SummaryAccumulator();
    acc.add(second(400, [100]));
    const ts = [ThresholdSchema.parse({ metric: 'http_req_duration{name:me}', expr: 'p(95)>1' })];
    expect(evaluateThresholds(ts, thresholdContextFromSummary(acc.summary()))).toEqual([
      { metric: 'http_req_duration{name:me}', expr: 'p(95)>1', observed: null, pass: true },
    ]);
    const kept = [
      {
        name: 'http_req_duration{name:me}',
        metric: 'http_req_duration',
        tags: { name: 'me' },
        type: 'none' as const,
        count: 0,
      },
    ];
    expect(evaluateThresholds(ts, thresholdContextFromSummary(acc.summary(), 1, kept))).toEqual([
      { metric: 'http_req_duration{name:me}', expr: 'p(95)>1', observed: 0, pass: false },
    ]);
  });
});
