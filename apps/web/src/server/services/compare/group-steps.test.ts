import { describe, expect, it } from 'vitest';
import type { RunSummary } from '@poolbench/stats';
import { groupSteps } from './group-steps';

const lat = (p95: number) => ({
  count: 10,
  min: 1,
  max: p95 * 2,
  mean: p95 / 2,
  p50: p95 / 2,
  p90: p95 * 0.9,
  p95,
  p99: p95 * 1.5,
  p999: p95 * 2,
});
const run = (steps: RunSummary['steps']) => ({ summary: { steps } as RunSummary });

describe('groupSteps', () => {
  it('medians of the runs percentiles per name, in the runs order, failures summed', () => {
    const g = groupSteps([
      run([
        { name: 'POST /login', requests: 10, failed: 0, latency: lat(10) },
        { name: 'GET /me', requests: 10, failed: 10, latency: lat(2) },
      ]),
      run([
        { name: 'POST /login', requests: 10, failed: 1, latency: lat(30) },
        { name: 'GET /me', requests: 9, failed: 9, latency: lat(4) },
      ]),
      run([
        { name: 'POST /login', requests: 10, failed: 0, latency: lat(20) },
        { name: 'GET /me', requests: 10, failed: 10, latency: null },
      ]),
    ]);
    expect(g).toEqual([
      { name: 'POST /login', runs: 3, requests: 30, failed: 1, p50: 10, p95: 20, p99: 30 },
      { name: 'GET /me', runs: 3, requests: 29, failed: 29, p50: 1.5, p95: 3, p99: 4.5 },
    ]);
  });

  it('nothing for runs of a single request name, or without steps', () => {
    expect(groupSteps([run([{ name: 'GET /', requests: 5, failed: 0, latency: lat(1) }])])).toEqual(
      [],
    );
    expect(groupSteps([{ summary: null }, run(undefined)])).toEqual([]);
  });
});
