import { describe, expect, it } from 'vitest';
import { canonicalSubMetric, parseSubMetric, ThresholdSchema } from './threshold-schema';

describe('sub-metric thresholds', () => {
  it('read a metric and its tags as k6 does, spaces trimmed, in one spelling', () => {
    expect(parseSubMetric('http_reqs{ method : GET ,status:200}')).toEqual({
      metric: 'http_reqs',
      tags: [
        ['method', 'GET'],
        ['status', '200'],
      ],
    });
    expect(canonicalSubMetric('http_reqs{status:200, method:GET}')).toBe(
      'http_reqs{method:GET,status:200}',
    );
    // a group path holds colons: only the first one separates the tag from its value
    expect(parseSubMetric('checks{group:::login::token}')?.tags).toEqual([
      ['group', '::login::token'],
    ]);
    expect(parseSubMetric('login_ms{name:x}')?.metric).toBe('login_ms');
    expect(parseSubMetric('http_req_duration{name}')).toBeNull();
    expect(parseSubMetric('http_req_duration')).toBeNull();
  });

  it('are thresholds of their metric kind, and anything else is refused naming the field', () => {
    expect(
      ThresholdSchema.parse({ metric: 'http_req_duration{name:me}', expr: 'p(95)<500' }).metric,
    ).toBe('http_req_duration{name:me}');
    expect(
      ThresholdSchema.safeParse({ metric: 'http_req_failed{name:me}', expr: 'p(95)<1' }).error
        ?.issues[0],
    ).toMatchObject({ path: ['expr'], message: expect.stringMatching(/a rate metric/) });
    expect(
      ThresholdSchema.safeParse({ metric: 'http_req_receiving{name:x}', expr: 'p(95)<1' }).error
        ?.issues[0],
    ).toMatchObject({
      path: ['metric'],
      message: "k6's http_req_receiving is not kept by PoolBench's output",
    });
    expect(
      ThresholdSchema.safeParse({ metric: 'bad-name{name:x}', expr: 'p(95)<1' }).error?.issues[0],
    ).toMatchObject({ path: ['metric'], message: expect.stringMatching(/with tags, e\.g\./) });
    // a group's duration: a trend of one named group; the whole metric and other tags are not kept
    expect(
      ThresholdSchema.safeParse({ metric: 'group_duration{group:::login}', expr: 'p(95)<500' })
        .success,
    ).toBe(true);
    expect(
      ThresholdSchema.safeParse({ metric: 'group_duration{group:::login}', expr: 'rate<1' }).error
        ?.issues[0],
    ).toMatchObject({ path: ['expr'], message: expect.stringMatching(/a trend metric/) });
    for (const metric of ['group_duration', 'group_duration{name:x}'])
      expect(
        ThresholdSchema.safeParse({ metric, expr: 'p(95)<500' }).error?.issues[0],
      ).toMatchObject({ path: ['metric'], message: expect.stringMatching(/kept per group only/) });
    // a script's own metric, with or without tags: any aggregation, judged by its kind at the end
    for (const metric of ['login_ms', 'login_ms{name:x}'])
      expect(ThresholdSchema.safeParse({ metric, expr: 'value<3' }).success).toBe(true);
  });
});
