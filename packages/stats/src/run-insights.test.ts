import { describe, expect, it } from 'vitest';
import type { RunSummary } from './run-summary';
import { cpuListLength, runInsights, type RunInsightInput } from './run-insights';

const summary = (over: Partial<RunSummary> = {}, res: Partial<RunSummary['resources']> = {}) =>
  ({
    requests: 2400,
    failed: 0,
    errorRate: 0,
    rps: 80,
    durationMs: 30_000,
    seconds: 30,
    bytesSent: 0,
    bytesReceived: 0,
    iterations: 2400,
    droppedIterations: 0,
    vusMax: 10,
    vusAllocatedMax: 10,
    statusCounts: { '200': 2400 },
    latency: null,
    waiting: null,
    connecting: null,
    tlsHandshaking: null,
    blocked: null,
    iteration: null,
    resources: {
      cpuMeanPercent: 40,
      cpuPeakPercent: 60,
      rssMeanBytes: null,
      rssPeakBytes: null,
      poolWaitMsMean: 0.4,
      poolWaitMsPeak: 3,
      poolInUsePeak: 2,
      poolAcquireTimeouts: 0,
      dbConnectionsPeak: 2,
      dbNewConnsTotal: 2,
      dbTooManyClients: 0,
      ...res,
    },
    ...over,
  }) as RunSummary;

const base: RunInsightInput = {
  summary: summary(),
  model: 'open',
  maxVUs: 50,
  poolMax: 2,
  instanceCount: 1,
  cpuCount: 2,
  loadAvg1mAtStart: 0.5,
};
const codes = (i: Partial<RunInsightInput>) => runInsights({ ...base, ...i }).map((x) => x.code);

describe('runInsights', () => {
  it('says nothing about a clean run that stressed its pool', () => {
    expect(codes({})).toEqual([]);
  });

  it('dropped iterations: a warning within the 1 % a run may drop, critical (invalid) beyond it', () => {
    const within = runInsights({
      ...base,
      summary: summary({ iterations: 2376, droppedIterations: 24 }),
    });
    expect(within[0]).toMatchObject({ code: 'load-not-offered', severity: 'warning' });
    expect(within[0]!.message).toMatch(/dropped 24 of 2400 planned iterations \(1 %\)/);
    // one dropped iteration in 100 000 is no reason to call the numbers wrong
    const one = runInsights({
      ...base,
      summary: summary({ iterations: 99_999, droppedIterations: 1 }),
    });
    expect(one[0]).toMatchObject({ code: 'load-not-offered', severity: 'warning' });
    const beyond = runInsights({
      ...base,
      summary: summary({ iterations: 2375, droppedIterations: 25 }),
    });
    expect(beyond[0]).toMatchObject({ code: 'load-not-offered', severity: 'critical' });
    expect(beyond[0]!.message).toMatch(/dropped 25 of 2400 planned iterations \(1\.04 %\)/);
    expect(beyond[0]!.message).toMatch(/the run is invalid and left out of verdicts/);
  });

  it('an arrival-rate run below 95 % of its target rate did not offer the load (critical)', () => {
    const r = runInsights({ ...base, plannedIterations: 3000 });
    expect(r[0]).toMatchObject({ code: 'load-not-offered', severity: 'critical' });
    expect(r[0]!.message).toMatch(/2400 of the 3000 iterations the rate asks for ran \(80 %/);
    expect(codes({ plannedIterations: 2500 })).toEqual([]);
  });

  it('an arrival-rate run that used every VU it could', () => {
    expect(codes({ summary: summary({ vusAllocatedMax: 50 }) })).toEqual(['vus-exhausted']);
    expect(codes({ model: 'closed', summary: summary({ vusAllocatedMax: 50 }) })).toEqual([]);
  });

  it('80 req/s x 20 ms on a 2-connection pool (~80 % busy) with no wait: the pool was not tested', () => {
    const r = runInsights({
      ...base,
      summary: summary({}, { poolWaitMsPeak: 0, poolWaitMsMean: 0, poolInUsePeak: 2 }),
    });
    expect(r.map((x) => x.code)).toEqual(['pool-never-waited']);
    expect(r[0]!.message).toMatch(/at most 2 of 2 in use/);
    // taking an idle connection costs microseconds (a Go pool reports ~0.002 ms): not a wait
    const idleCost = { poolWaitMsPeak: 0.0022, poolWaitMsMean: 0.0022, poolInUsePeak: 2 };
    expect(codes({ summary: summary({}, idleCost) })).toEqual(['pool-never-waited']);
    // one 5 ms wait among 100 requests in a second is 0.05 ms of mean wait: the pool was tested
    const oneWait = { poolWaitMsPeak: 0.05, poolWaitMsMean: 0.01, poolInUsePeak: 2 };
    expect(codes({ summary: summary({}, oneWait) })).toEqual([]);
  });

  it("target CPU pinned at its limit: the machine's cores, or the CPU limit, times instances", () => {
    expect(codes({ summary: summary({}, { cpuMeanPercent: 170, cpuPeakPercent: 195 }) })).toEqual([
      'target-cpu-saturated',
    ]);
    // the same CPU on a 4-core machine is half of it: not pinned
    expect(
      codes({ cpuCount: 4, summary: summary({}, { cpuMeanPercent: 170, cpuPeakPercent: 195 }) }),
    ).toEqual([]);
    // GOMAXPROCS 1: one core per instance is the limit
    expect(
      codes({
        cpuCount: 4,
        targetCpuLimit: 1,
        summary: summary({}, { cpuMeanPercent: 85, cpuPeakPercent: 99 }),
      }),
    ).toEqual(['target-cpu-saturated']);
    // isolated from k6 on CPU 0 of 2: one core is all the target had
    const oneOfTwo = { cpuMeanPercent: 85, cpuPeakPercent: 98 };
    expect(codes({ targetCpuList: '0', summary: summary({}, oneOfTwo) })).toEqual([
      'target-cpu-saturated',
    ]);
    expect(codes({ summary: summary({}, oneOfTwo) })).toEqual([]);
    expect(cpuListLength('0-2,5')).toBe(4);
    expect(cpuListLength('x')).toBeNull();
    expect(cpuListLength(undefined)).toBeNull();
  });

  it('the database refused connections for its limit', () => {
    expect(codes({ summary: summary({}, { dbTooManyClients: 3 }) })).toEqual([
      'db-connection-limit',
    ]);
  });

  it('closed model: a stall (requests collapse while one response takes seconds) is coordinated omission', () => {
    // 10 VUs without think time: ~800 req/s at 10 ms, until the target stalls for 3 s; the VUs
    // wait on their responses, so nothing is sent until the stalled requests end in second 15
    const seconds = Array.from({ length: 30 }, (_, i) => ({
      requests: i >= 12 && i <= 14 ? 0 : 800,
      p50Ms: i >= 12 && i <= 14 ? null : 10,
      vus: 10,
      maxMs: i === 15 ? 3200 : i >= 12 && i <= 14 ? null : 40,
    }));
    const r = runInsights({ ...base, model: 'closed', seconds });
    expect(r.map((x) => x.code)).toEqual(['coordinated-omission-risk']);
    expect(r[0]!.message).toMatch(
      /sent 0 requests in 3 second\(s\) where their median pace sends ~2400/,
    );
    expect(r[0]!.message).toMatch(/a request took 3200 ms/);
    // a short stall inside one second: fewer requests, one very slow
    const short = seconds.map((x, i) =>
      i >= 12 && i <= 14
        ? { requests: 800, p50Ms: 10, vus: 10, maxMs: 40 }
        : i === 20
          ? { requests: 250, p50Ms: 11, vus: 10, maxMs: 700 }
          : x,
    );
    expect(codes({ model: 'closed', seconds: short })).toEqual(['coordinated-omission-risk']);
    // an open model keeps sending whatever the responses do
    expect(codes({ model: 'open', seconds })).toEqual([]);
  });

  it('closed model: think time dominating is not coordinated omission, nor a ramp of VUs', () => {
    // 100 VUs sleeping 1 s between requests: latency doubles (10 -> 20 ms), the rate barely moves
    const thinking = Array.from({ length: 30 }, (_, i) => ({
      requests: i < 15 ? 99 : 98,
      p50Ms: i < 10 ? 10 : i < 20 ? 15 : 20,
      vus: 100,
      maxMs: i < 10 ? 30 : 60,
    }));
    expect(codes({ model: 'closed', seconds: thinking })).toEqual([]);
    // a target that slows down evenly: throughput falls with the latency and shows the change
    const falling = thinking.map((x, i) => ({ ...x, requests: i < 10 ? 80 : 40, vus: 1 }));
    expect(codes({ model: 'closed', seconds: falling })).toEqual([]);
    // a ramp from 2 to 20 VUs: fewer requests early because there are fewer VUs, not a stall
    const ramp = Array.from({ length: 20 }, (_, i) => ({
      requests: 40 * (i + 1),
      p50Ms: 10,
      vus: i + 1,
      maxMs: i === 2 ? 200 : 30,
    }));
    expect(codes({ model: 'closed', seconds: ramp })).toEqual([]);
  });

  it('a busy machine and a hot load generator', () => {
    expect(codes({ loadAvg1mAtStart: 3.5 })).toEqual(['machine-busy']);
    // measured other work before the start decides over the load average, which also counts the
    // worker's own previous runs
    expect(codes({ loadAvg1mAtStart: 3.5, outsideCpuPercentBeforeStart: 12 })).toEqual([]);
    expect(codes({ loadAvg1mAtStart: 0.2, outsideCpuPercentBeforeStart: 80 })).toEqual([
      'machine-busy',
    ]);
    expect(codes({ outsideCpuPercentBeforeStart: 49 })).toEqual([]);
    expect(codes({ generatorCpuPeaks: [40, 97] })).toEqual(['generator-cpu-saturated']);
  });

  it('heavy disturbance: other processes took a quarter of the machine or more', () => {
    expect(codes({ outsideCpuPercent: 60 })).toEqual(['heavy-disturbance']);
    expect(codes({ outsideCpuPercent: 40 })).toEqual([]);
  });

  it('samples that reached the output after their second was written are named, with the timing', () => {
    const delivery = { lateSamples: 12, lateRequests: 3, maxLagMs: 1450, graceMs: 1000 };
    const r = runInsights({ ...base, summary: summary({ delivery }) });
    expect(r.map((x) => x.code)).toEqual(['samples-late']);
    expect(r[0]!.severity).toBe('warning');
    expect(r[0]!.message).toContain('12 sample(s), 3 of them requests');
    expect(r[0]!.message).toContain('a second waited 1000 ms; the slowest sample took 1450 ms');
    expect(
      codes({ summary: summary({ delivery: { ...delivery, lateSamples: 0, lateRequests: 0 } }) }),
    ).toEqual([]);
    // more than 1 % of the requests missing from the totals: the run is invalid
    const many = { ...delivery, lateSamples: 90, lateRequests: 30 };
    const critical = runInsights({ ...base, summary: summary({ delivery: many }) });
    expect(critical[0]).toMatchObject({ code: 'samples-late', severity: 'critical' });
    expect(critical[0]!.message).toMatch(/the run is invalid and left out of verdicts/);
    expect(codes({ summary: summary({ delivery: null }) })).toEqual([]);
  });

  it('no summary, no insights', () => {
    expect(runInsights({ ...base, summary: null })).toEqual([]);
  });
});
