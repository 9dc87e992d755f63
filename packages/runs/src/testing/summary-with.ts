import { buildRunSummary, createHistogram, histogramStatsMs } from '@poolbench/stats';

/**
 * A run summary as the worker builds it, for tests: 5 s of load at `rps`, a latency histogram of
 * 101 requests whose p50 is p99/3 and whose p99 is `p99` ms.
 */
export function summaryWith(p99: number, rps: number) {
  const h = createHistogram();
  for (let k = 0; k < 99; k++) h.recordValue(Math.round((p99 / 3) * 1000));
  h.recordValue(Math.round(p99 * 1000));
  h.recordValue(Math.round(p99 * 1000));
  const requests = Math.round(rps * 5);
  return buildRunSummary({
    counters: {
      requests,
      failed: 0,
      status: { '200': requests },
      dataSentBytes: 0,
      dataReceivedBytes: 0,
      iterations: requests,
      droppedIterations: 0,
    },
    trends: { http_req_duration: histogramStatsMs(h) },
    seconds: 5,
    vusMax: 10,
    loadMs: 5000,
    load: { startMs: 1_700_000_000_000, endMs: 1_700_000_005_000 },
    resources: [],
  });
}
