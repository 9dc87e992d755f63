import { readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildRunSummary, loadTimeMs } from '@poolbench/stats';
import { runK6 } from './run-k6';
import type { K6Second } from './summary-accumulator';
import { ensureBuilt } from './testing/build';
import { startTestServer, type TestServer } from './testing/test-server';

interface TrendExport {
  min: number;
  med: number;
  max: number;
  avg: number;
  'p(90)': number;
  'p(95)': number;
  'p(99)': number;
}
interface SummaryExport {
  metrics: {
    http_reqs: { count: number };
    iterations: { count: number };
    dropped_iterations?: { count: number };
    data_sent: { count: number };
    data_received: { count: number };
    http_req_failed: { passes: number; fails: number };
    http_req_duration: TrendExport;
    iteration_duration: TrendExport;
  };
}

let server: TestServer;
beforeAll(async () => {
  ensureBuilt();
  server = await startTestServer();
}, 600_000);
afterAll(async () => server?.close());

/** k6's JSON output: the value of every sample of these metrics, in ms, in the order written. */
async function rawSamples(path: string, metrics: readonly string[]) {
  const out = new Map<string, number[]>(metrics.map((m) => [m, []]));
  for (const line of (await readFile(path, 'utf8')).split('\n')) {
    if (!line) continue;
    const row = JSON.parse(line) as { type: string; metric: string; data?: { value?: number } };
    const list = out.get(row.metric);
    if (row.type === 'Point' && list && typeof row.data?.value === 'number')
      list.push(row.data.value);
  }
  return out;
}

/** HdrHistogram's definition (nearest rank): the sample at rank max(1, ceil(p/100 * n)), 1-based. */
const nearestRank = (sorted: number[], p: number) =>
  sorted[Math.max(1, Math.ceil((p / 100) * sorted.length - 1e-9)) - 1]!;

/** k6's definition: linear interpolation at (n - 1) * p / 100; the two samples it lies between. */
const k6Bracket = (sorted: number[], p: number): [number, number] => {
  const i = ((sorted.length - 1) * p) / 100;
  return [sorted[Math.floor(i)]!, sorted[Math.ceil(i)]!];
};

/**
 * What the output's histograms may add to a sample: it is stored in whole µs (rounded) in a
 * histogram of 3 significant digits, which reports a bucket's highest value (at most 1/1024 above).
 */
const histogramBounds = (sample: number): [number, number] => [
  sample - 0.0005 - 1e-9,
  (sample + 0.0005) * (1 + 1 / 1024) + 0.001,
];

describe('poolbench output against k6 own summary and every raw sample', () => {
  it('counts every request exactly and reports the percentiles of the raw samples', async () => {
    const exportPath = join(tmpdir(), `poolbench-accuracy-${process.pid}.json`);
    const rawPath = join(tmpdir(), `poolbench-accuracy-${process.pid}.jsonl`);
    const seconds: K6Second[] = [];
    const script = `
      import http from 'k6/http';
      export const options = { vus: 20, duration: '4s' };
      export default function () {
        http.get(__ENV.BASE + '/');
        if (__ITER % 40 === 0) http.get(__ENV.BASE + '/status/503');
        if (__ITER % 200 === 0) http.get(__ENV.BASE + '/sleep?ms=30');
      }`;
    try {
      const r = await runK6({
        script,
        env: { BASE: server.url },
        summaryExportPath: exportPath,
        rawSamplesPath: rawPath,
        timeoutMs: 60_000,
        onSecond: (s) => {
          seconds.push(s);
        },
      });
      expect(r.stderrTail).toEqual([]);
      expect(r.endReason).toBe('completed');
      expect(r.outputComplete).toBe(true);
      expect(r.lateSamples).toBe(0);
      // the output's default grace, and how long the slowest sample took to reach it
      expect(r.outputGraceMs).toBe(1000);
      expect(r.maxSampleLagMs).toBeGreaterThanOrEqual(0);
      expect(r.testDurationMs).toBeGreaterThanOrEqual(4000);
      expect(r.testDurationMs).toBeLessThan(6000);
      const k6 = (JSON.parse(await readFile(exportPath, 'utf8')) as SummaryExport).metrics;
      const raw = await rawSamples(rawPath, ['http_req_duration', 'iteration_duration']);
      const s = r.summary;

      expect(s.requests).toBe(k6.http_reqs.count);
      expect(s.requests).toBeGreaterThan(1000);
      expect(seconds.reduce((n, x) => n + x.requests, 0)).toBe(k6.http_reqs.count);
      expect(seconds.map((x) => x.ts)).toEqual([...seconds.map((x) => x.ts)].sort((a, b) => a - b));
      expect(s.failed).toBe(k6.http_req_failed.passes);
      expect(s.status['503']).toBe(k6.http_req_failed.passes);
      expect(Object.values(s.status).reduce((a, b) => a + b, 0)).toBe(s.requests);
      // per request name (k6 names a request by its URL here): the steps add up to the run
      expect(r.steps.map((x) => x.name)).toEqual([
        `${server.url}/`,
        `${server.url}/sleep?ms=30`,
        `${server.url}/status/503`,
      ]);
      expect(r.steps.reduce((n, x) => n + x.requests, 0)).toBe(k6.http_reqs.count);
      // the per-name histograms and the per-second ones are two aggregations of the same samples
      expect(r.steps.reduce((n, x) => n + (x.latency?.count ?? 0), 0)).toBe(
        s.trends.http_req_duration!.count,
      );
      expect(r.steps.find((x) => x.name.endsWith('/status/503'))?.failed).toBe(
        k6.http_req_failed.passes,
      );
      expect(r.steps.find((x) => x.name.endsWith('/sleep?ms=30'))!.latency!.min).toBeGreaterThan(
        29,
      );
      expect(s.iterations).toBe(k6.iterations.count);
      expect(s.dataSentBytes).toBe(k6.data_sent.count);
      expect(s.dataReceivedBytes).toBe(k6.data_received.count);
      expect(s.vusMax).toBe(20);

      // Percentiles against the raw samples, not against k6's summary: k6 interpolates between
      // two samples, the histograms take the nearest rank, and on a busy machine two neighbouring
      // samples in the tail can lie a few % apart, so the two definitions may differ by that much.
      for (const metric of ['http_req_duration', 'iteration_duration'] as const) {
        const ours = s.trends[metric];
        const theirs = k6[metric];
        const sorted = [...raw.get(metric)!].sort((a, b) => a - b);
        const count = metric === 'http_req_duration' ? k6.http_reqs.count : k6.iterations.count;
        expect(sorted).toHaveLength(count);
        expect(ours?.count).toBe(count);
        const percentiles: [string, number | undefined, number, number][] = [
          ['p50', ours?.p50, 50, theirs.med],
          ['p90', ours?.p90, 90, theirs['p(90)']],
          ['p95', ours?.p95, 95, theirs['p(95)']],
          ['p99', ours?.p99, 99, theirs['p(99)']],
        ];
        for (const [stat, got, p, k6Value] of percentiles) {
          // the raw samples are the ones k6 summarised: its value lies between its two samples
          const [lo, hi] = k6Bracket(sorted, p);
          expect(k6Value, `${metric} ${stat}: k6 against raw`).toBeGreaterThanOrEqual(lo - 1e-6);
          expect(k6Value, `${metric} ${stat}: k6 against raw`).toBeLessThanOrEqual(hi + 1e-6);
          const [min, max] = histogramBounds(nearestRank(sorted, p));
          const what = `${metric} ${stat}: ours ${got} ms, raw sample ${nearestRank(sorted, p)} ms`;
          expect(got, what).toBeGreaterThanOrEqual(min);
          expect(got, what).toBeLessThanOrEqual(max);
        }
        const [maxLo, maxHi] = histogramBounds(sorted.at(-1)!);
        expect(ours?.max).toBeGreaterThanOrEqual(maxLo);
        expect(ours?.max).toBeLessThanOrEqual(maxHi);
        expect(Math.abs(sorted.at(-1)! - theirs.max)).toBeLessThan(1e-6);
        const mean = sorted.reduce((a, b) => a + b, 0) / sorted.length;
        expect(Math.abs((ours?.mean ?? NaN) - mean), `${metric} mean`).toBeLessThan(
          mean / 1024 + 0.001,
        );
        expect(s.percentile(metric, 99)).toBe(ours?.p99);
      }
    } finally {
      await rm(exportPath, { force: true });
      await rm(rawPath, { force: true });
    }
  });
});

describe('rps is the load phase rate', () => {
  // setup() and teardown() requests are not counted (the output drops their samples), so their
  // time must not be in the denominator either: 2 s of setup and 1 s of teardown made 200/s read ~130/s.
  it('a constant 200/s for 5 s after a 2 s setup() reads the rate of the 5 s load phase within 2 %', async () => {
    const script = `
      import http from 'k6/http';
      import { sleep } from 'k6';
      export const options = {
        scenarios: { load: { executor: 'constant-arrival-rate', rate: 200, timeUnit: '1s', duration: '5s', preAllocatedVUs: 20, maxVUs: 50 } },
      };
      export function setup() { http.get(__ENV.BASE + '/'); sleep(2); }
      export default function () { http.get(__ENV.BASE + '/'); }
      export function teardown() { http.get(__ENV.BASE + '/'); sleep(1); }`;
    const exportPath = join(tmpdir(), `poolbench-rate-${process.pid}.json`);
    const r = await runK6({
      script,
      env: { BASE: server.url },
      timeoutMs: 60_000,
      outputGraceMs: 1500,
      summaryExportPath: exportPath,
    });
    const k6 = (JSON.parse(await readFile(exportPath, 'utf8')) as SummaryExport).metrics;
    await rm(exportPath, { force: true });
    expect(r.endReason).toBe('completed');
    expect(r.lateSamples).toBe(0);
    expect(r.outputGraceMs).toBe(1500);
    // k6's own counts: every iteration made one request, and k6 counted setup's and teardown's too
    expect(r.summary.iterations).toBe(k6.iterations.count);
    expect(r.summary.requests).toBe(k6.iterations.count);
    expect(r.summary.requests).toBe(k6.http_reqs.count - 2);
    expect(r.summary.droppedIterations).toBe(k6.dropped_iterations?.count ?? 0);
    // 200/s for 5 s: k6 starts 1 000 or 1 001 (one at the closing instant), made or dropped when
    // a busy machine could not start them in time (not requests: the rate reports what was made);
    // on a starved machine k6 has been seen to count one more, so the window is k6's, not exact
    const offered = r.summary.requests + r.summary.droppedIterations;
    expect(offered).toBeGreaterThanOrEqual(995);
    expect(offered).toBeLessThanOrEqual(1005);
    expect(r.summary.requests).toBeGreaterThan(800);
    const summary = buildRunSummary({
      counters: r.summary,
      trends: r.summary.trends,
      seconds: r.summary.seconds,
      vusMax: r.summary.vusMax,
      loadMs: loadTimeMs(r.load, null, []),
      load: r.load,
      resources: [],
    });
    expect(r.testDurationMs).toBeGreaterThan(7900); // the output was open through setup and teardown
    expect(summary.durationMs).toBeGreaterThan(4900);
    expect(summary.durationMs).toBeLessThan(5100);
    // the requests made over the 5 s of load, not over the 8 s the test ran (setup and teardown)
    const made = r.summary.requests / 5;
    expect(Math.abs((summary.rps ?? 0) - made) / made, `rps ${summary.rps}`).toBeLessThan(0.02);
    if (r.summary.droppedIterations === 0)
      expect(Math.abs((summary.rps ?? 0) - 200) / 200, `rps ${summary.rps}`).toBeLessThan(0.02);
  }, 90_000);
});
