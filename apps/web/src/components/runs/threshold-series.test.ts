import { describe, expect, it } from 'vitest';
import { thresholdSeriesOf } from './threshold-series';

describe('the tagged series a run page charts', () => {
  const series = [
    { name: 'http_req_duration{name:me,status:200}' },
    { name: 'http_reqs{status:500}' },
    { name: 'http_req_duration{name:login}' },
  ];

  it('finds a threshold written with spaces and its tags in another order', () => {
    expect(
      thresholdSeriesOf(
        [
          { metric: 'http_req_duration{ status: 200, name: me }' },
          { metric: 'http_reqs{status:500}' },
        ],
        series,
      ),
    ).toEqual(['http_req_duration{name:me,status:200}', 'http_reqs{status:500}']);
  });

  it('charts no series no threshold names, and ignores thresholds on whole metrics', () => {
    expect(
      thresholdSeriesOf([{ metric: 'http_req_duration' }, { metric: 'checks' }], series),
    ).toEqual([]);
  });
});
