import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { evaluateThresholds, type ThresholdContext } from './evaluate-thresholds';
import { thresholdContextFromK6Summary } from './k6-summary-context';
import { ThresholdSchema, type Threshold } from './threshold-schema';
import { generateScenario } from '../generate-scenario';
import { k6Run } from '../testing/k6-binary';
import { startRecordingServer, type RecordingServer } from '../testing/recording-server';

/** k6's end-of-test verdicts of one metric: threshold expression → failed. */
const K6Verdicts = z.record(z.string(), z.boolean()).optional();

const t = (metric: Threshold['metric'], expr: string): Threshold =>
  ThresholdSchema.parse({ metric, expr });

function ctx(over: Partial<ThresholdContext> = {}): ThresholdContext {
  const trends: Record<string, number> = {
    avg: 120,
    min: 3,
    max: 900,
    med: 100,
    'p(95)': 480,
    'p(99.9)': 850,
  };
  return {
    trend: (_m, stat) => trends[typeof stat === 'object' ? `p(${stat.p})` : stat],
    rate: (m) => (m === 'http_req_failed' ? 0.02 : undefined),
    count: (m) => ({ http_reqs: 1000, iterations: 990, dropped_iterations: 0 })[m as string],
    durationSec: 10,
    ...over,
  };
}

describe('evaluateThresholds', () => {
  it('applies each aggregation and operator like k6', () => {
    const r = evaluateThresholds(
      [
        t('http_req_duration', 'p(95)<500'),
        t('http_req_duration', 'p(99.9) <= 849'),
        t('http_req_duration', 'avg>=120'),
        t('http_req_duration', 'max!=900'),
        t('http_req_duration', 'med==100'),
        t('http_req_duration', 'min > 2'),
        t('http_req_failed', 'rate<0.01'),
        t('http_reqs', 'count>=1000'),
        t('http_reqs', 'rate>99.9'),
        t('dropped_iterations', 'count==0'),
      ],
      ctx(),
    );
    expect(r.map((x) => [x.expr, x.observed, x.pass])).toEqual([
      ['p(95)<500', 480, true],
      ['p(99.9) <= 849', 850, false],
      ['avg>=120', 120, true],
      ['max!=900', 900, false],
      ['med==100', 100, true],
      ['min > 2', 3, true],
      ['rate<0.01', 0.02, false],
      ['count>=1000', 1000, true],
      ['rate>99.9', 100, true],
      ['count==0', 0, true],
    ]);
  });

  it('treats metrics without samples as k6 v1.8 does', () => {
    const empty: ThresholdContext = {
      trend: () => undefined,
      rate: () => undefined,
      count: () => undefined,
      durationSec: 5,
    };
    const r = evaluateThresholds(
      [
        t('http_req_duration', 'p(95)>100'),
        t('http_req_duration', 'max<1'),
        t('http_req_failed', 'rate>0.5'),
        t('dropped_iterations', 'count>0'),
      ],
      empty,
    );
    expect(r.map((x) => [x.observed, x.pass])).toEqual([
      [0, false],
      [0, true],
      [null, true],
      [0, false],
    ]);
  });
});

describe('evaluateThresholds agrees with k6 on a real run', () => {
  let server: RecordingServer | undefined;
  afterAll(async () => server?.close());

  it('gives the same verdict as k6 for every threshold', async () => {
    server = await startRecordingServer();
    const thresholds = [
      t('http_req_duration', 'p(95)<5000'),
      t('http_req_duration', 'max<0.001'),
      t('http_req_duration', 'avg>0'),
      t('http_req_waiting', 'med<5000'),
      t('http_req_failed', 'rate<0.5'),
      t('http_req_failed', 'rate>0.1'),
      t('http_reqs', 'count==21'),
      t('http_reqs', 'count>21'),
      t('iterations', 'count>=20'),
      t('dropped_iterations', 'count<1'),
      t('iteration_duration', 'p(99)<10000'),
    ];
    const { script } = generateScenario({
      template: 'fixed-requests',
      params: { requests: 20, concurrency: 2 },
      // half the requests get a 503, which counts as failed
      requests: [{ path: '/ok' }, { path: '/fail' }],
      thresholds,
    });
    const r = await k6Run(script, [server.url]);
    const summary = r.summary;
    if (!summary) throw new Error(`no summary; k6 exit ${r.code}: ${r.stderr}`);
    const k6Verdicts = thresholds.map((th) => {
      const failed = K6Verdicts.parse(summary.metrics[th.metric]?.thresholds)?.[th.expr];
      if (failed === undefined) throw new Error(`k6 did not report ${th.metric} ${th.expr}`);
      return !failed;
    });
    const reqs = summary.metrics.http_reqs as { count: number; rate: number };
    const ours = evaluateThresholds(
      thresholds,
      thresholdContextFromK6Summary(summary, reqs.count / reqs.rate),
    );
    expect(ours.map((x) => x.pass)).toEqual(k6Verdicts);
    // not a vacuous agreement: both verdicts occur
    expect(new Set(k6Verdicts)).toEqual(new Set([true, false]));
    expect(r.code).toBe(99); // k6's exit code for crossed thresholds
  });
});
