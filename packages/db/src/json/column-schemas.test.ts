import { describe, expect, it } from 'vitest';
import { CustomMetricsSchema, RunSummarySchema } from './column-schemas';
import { toJson } from './to-json';

describe('CustomMetricsSchema: a trend of times or of plain numbers', () => {
  const trend = { count: 3, min: 1, max: 5, mean: 3, p50: 3, p90: 5, p95: 5, p99: 5, p999: 5 };

  it('keeps whether a trend holds times and how many of its samples were below 0', () => {
    const stored = {
      login_ms: { type: 'trend', count: 3, time: true, trend },
      cart_items: { type: 'trend', count: 3, time: false, negative: 2, trend },
    };
    expect(CustomMetricsSchema.parse(stored)).toEqual(stored);
  });

  it('reads a row stored before the flag as it was', () => {
    const legacy = { login_ms: { type: 'trend', count: 3, trend } };
    expect(CustomMetricsSchema.parse(legacy).login_ms).not.toHaveProperty('time');
  });

  it('refuses a flag of another kind', () => {
    expect(
      CustomMetricsSchema.safeParse({ x: { type: 'trend', count: 1, time: 'ms' } }).success,
    ).toBe(false);
    expect(() => toJson.customMetrics({ x: { type: 'trend', count: 1, negative: 'two' } })).toThrow(
      /RunSecond\.custom/,
    );
  });

  it('a run summary’s tagged series carry the same flags', () => {
    const summary = RunSummarySchema.parse({
      requests: 0,
      failed: 0,
      errorRate: null,
      rps: null,
      durationMs: 0,
      seconds: 0,
      bytesSent: 0,
      bytesReceived: 0,
      iterations: 0,
      droppedIterations: 0,
      vusMax: null,
      statusCounts: {},
      latency: null,
      waiting: null,
      connecting: null,
      tlsHandshaking: null,
      blocked: null,
      iteration: null,
      resources: {
        cpuMeanPercent: null,
        cpuPeakPercent: null,
        rssMeanBytes: null,
        rssPeakBytes: null,
        poolWaitMsMean: null,
        poolWaitMsPeak: null,
        poolInUsePeak: null,
        poolAcquireTimeouts: null,
        dbConnectionsPeak: null,
        dbNewConnsTotal: null,
        dbTooManyClients: null,
      },
      subMetrics: [
        {
          name: 'cart_items{name:me}',
          metric: 'cart_items',
          tags: { name: 'me' },
          type: 'trend',
          count: 1,
          time: false,
          negative: 1,
          trend,
        },
      ],
    });
    expect(summary.subMetrics?.[0]).toMatchObject({ time: false, negative: 1 });
  });
});
