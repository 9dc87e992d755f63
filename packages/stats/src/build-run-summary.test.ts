import { describe, expect, it } from 'vitest';
import {
  buildRunSummary,
  loadTimeMs,
  sumStoredSeconds,
  type StoredSecondCounters,
} from './build-run-summary';

const row = (
  second: number,
  requests: number,
  checkFailed = 0,
  vusAllocated: number | null = null,
): StoredSecondCounters => ({
  second,
  requests,
  failed: (requests > 0 ? 1 : 0) + checkFailed,
  statusCounts: requests > 0 ? { '200': requests - 1, '503': 1 } : {},
  bytesSent: BigInt(requests * 10),
  bytesReceived: requests * 20,
  iterations: requests,
  droppedIterations: 0,
  checkFailed,
  vusMax: 5,
  vusAllocated,
});

describe('loadTimeMs', () => {
  const load = { startMs: 10_400, endMs: 15_600 }; // t0 = 10 000: the load runs from elapsed 0.4 s to 5.6 s

  it('is the part of the load phase inside the window, by fraction of its partial seconds', () => {
    expect(loadTimeMs(load, 10_000, [])).toBe(5200);
    expect(loadTimeMs(load, 10_000, [], { from: 0, to: 1 })).toBe(600);
    expect(loadTimeMs(load, 10_000, [], { from: 2, to: 4 })).toBe(2000);
    expect(loadTimeMs(load, 10_000, [], { from: 5, to: 100 })).toBe(600);
    expect(loadTimeMs(load, 10_000, [], { from: 6, to: 100 })).toBe(0);
  });

  it('without a load phase spans the whole seconds that carried load', () => {
    const { loadSeconds } = sumStoredSeconds([
      row(0, 0),
      row(1, 10),
      row(2, 0),
      row(3, 10),
      row(4, 0),
    ]);
    expect(loadSeconds).toEqual([1, 3]);
    expect(loadTimeMs(null, null, loadSeconds)).toBe(3000);
    expect(loadTimeMs(null, null, loadSeconds, { from: 2, to: 10 })).toBe(1000);
  });
});

describe('buildRunSummary', () => {
  /** The summary of stored seconds as a run whose worker died gets it (no load phase). */
  const storedSummary = (rows: StoredSecondCounters[]) => {
    const { counters, vusMax, loadSeconds } = sumStoredSeconds(rows);
    return buildRunSummary({
      counters,
      trends: {},
      seconds: rows.length,
      vusMax,
      loadMs: loadTimeMs(null, null, loadSeconds),
      resources: [],
    });
  };

  it('rps is requests over the load time, errorRate failed over requests', () => {
    const rows = [row(0, 0), row(1, 150), row(2, 150)];
    const s = storedSummary(rows);
    expect(s).toMatchObject({
      requests: 300,
      failed: 2,
      rps: 150,
      durationMs: 2000,
      vusMax: 5,
      bytesSent: 3000,
      statusCounts: { '200': 298, '503': 2 },
    });
    expect(s.errorRate).toBeCloseTo(2 / 300, 12);
    const { counters, vusMax } = sumStoredSeconds(rows);
    expect(
      buildRunSummary({ counters, trends: {}, seconds: 3, vusMax, loadMs: 0, resources: [] }).rps,
    ).toBeNull();
  });

  it('counts the check failures of stored seconds among the failed requests', () => {
    expect(storedSummary([row(0, 100, 3), row(1, 100), row(2, 100, 4)])).toMatchObject({
      requests: 300,
      failed: 10,
      checkFailed: 7,
    });
    expect(storedSummary([row(0, 100), row(1, 100)])).not.toHaveProperty('checkFailed');
  });

  it('keeps the most VUs k6 allocated, and says nothing when no second recorded them', () => {
    expect(sumStoredSeconds([row(0, 10, 0, 4), row(1, 10, 0, 9), row(2, 10)]).vusAllocatedMax).toBe(
      9,
    );
    expect(sumStoredSeconds([row(0, 10), row(1, 10)]).vusAllocatedMax).toBeNull();
  });
});
