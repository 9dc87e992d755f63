import { describe, expect, it } from 'vitest';
import { scenarioToColumns } from '@poolbench/db';
import type { RunSummary } from '@poolbench/stats';
import { runValidityOf, splitValidRuns } from './run-validity-of';

const arrivalRate = {
  name: 'steady',
  ...scenarioToColumns({
    template: 'constant-arrival-rate',
    params: { ratePerSec: 200, durationMs: 30_000, preAllocatedVUs: 20 },
    requests: [{ method: 'GET', path: '/health' }],
  }),
  thresholds: [],
};
const closed = {
  name: 'closed',
  ...scenarioToColumns({
    template: 'sustained',
    params: { vus: 5, durationMs: 30_000, thinkTimeMs: 0 },
    requests: [{ method: 'GET', path: '/health' }],
  }),
  thresholds: [],
};
const run = (id: string, iterations: number, dropped = 0, scenarioSnapshot = arrivalRate) => ({
  id,
  summary: { requests: iterations, iterations, droppedIterations: dropped } as RunSummary,
  poolConfigSnapshot: { name: 'pc', params: {} },
  scenarioSnapshot,
});

describe('runValidityOf: the rule read from what a run stored', () => {
  it("an arrival-rate run below 95 % of its scenario's rate did not offer its load", () => {
    // 200/s for 30 s asks for 6000 iterations
    expect(runValidityOf(run('a', 5700)).valid).toBe(true);
    expect(runValidityOf(run('b', 5000))).toEqual({
      valid: false,
      reasons: [
        {
          code: 'load-not-offered',
          message: 'load not offered (83.3 % of the target rate achieved: 5000 of 6000 iterations)',
        },
      ],
    });
    // a closed model sets no rate
    expect(runValidityOf(run('c', 50, 0, closed)).valid).toBe(true);
  });

  it('splits a cell into the runs a verdict may use and the invalid ones, with why', () => {
    const { valid, invalid } = splitValidRuns([
      run('a', 6000),
      run('b', 5800, 200),
      run('c', 5990, 10),
    ]);
    expect(valid.map((r) => r.id)).toEqual(['a', 'c']);
    expect(invalid).toEqual([
      {
        runId: 'b',
        reasons: [
          { code: 'load-not-offered', message: 'load not offered (3.33 % of iterations dropped)' },
        ],
      },
    ]);
  });
});
