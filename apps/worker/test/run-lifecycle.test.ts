import { parseRun } from '@poolbench/db';
import { decodeHistogram, histogramStatsMs, mergeHistograms } from '@poolbench/stats';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createWorld, sustained, type World } from './harness';

describe('worker: a short experiment end to end (real Postgres, Redis, k6, lab target)', () => {
  let w: World;
  beforeAll(async () => {
    w = await createWorld('lifecycle');
  });
  afterEach(async () => w?.killWorkers());
  afterAll(async () => w?.dispose(), 120_000);

  it('runs interleaved repeats, stores every second, and the summary equals the merged seconds', async () => {
    w.startWorker();
    const lazy = await w.poolConfig('lazy 4', 'lazy', { maxConns: 4 });
    const prewarm = await w.poolConfig('prewarm 4', 'prewarm', { maxConns: 4 }, 2);
    const sc = await w.scenario('3 s at 4 VUs', {
      ...sustained(4, 3000),
      thresholds: [{ metric: 'http_req_duration', expr: 'p(95)<5000' }],
    });
    const { runIds, experimentId } = await w.launch([lazy.id, prewarm.id], [sc.id], 1);
    const runs = [];
    for (const id of runIds)
      runs.push(
        await w.waitForStatus(id, [
          'succeeded',
          'failed',
          'canceled',
          'timed_out',
          'aborted_system',
        ]),
      );
    for (const run of runs) {
      expect(run.status, `${run.errorCode}: ${run.errorMessage}`).toBe('succeeded');
      const seconds = await w.db.runSecond.findMany({
        where: { runId: run.id },
        orderBy: { second: 'asc' },
      });
      expect(seconds.length).toBeGreaterThanOrEqual(3);
      const summary = parseRun(run).summary!;
      expect(summary.requests).toBe(seconds.reduce((n, s) => n + s.requests, 0));
      expect(summary.latency?.count).toBe(summary.requests);
      // The run's merged histogram is exactly the merge of its seconds.
      const merged = mergeHistograms(
        seconds
          .filter((x) => x.durationHist)
          .map((x) => Buffer.from(x.durationHist!).toString('base64')),
      );
      expect(decodeHistogram(Buffer.from(run.durationHist!).toString('base64')).totalCount).toBe(
        merged.totalCount,
      );
      expect(histogramStatsMs(merged)!.p99).toBe(
        histogramStatsMs(decodeHistogram(Buffer.from(run.durationHist!).toString('base64')))!.p99,
      );
      expect(summary.requests).toBeGreaterThan(50);
      expect(
        seconds.every((s) => (s.durationHist && s.durationHist.length > 0) || s.requests === 0),
      ).toBe(true);
      const samples = await w.db.resourceSample.findMany({
        where: { runId: run.id, instance: -1, second: { gte: 0 } },
      });
      expect(samples.some((s) => (s.cpuPercent ?? 0) > 0)).toBe(true);
      expect(samples.some((s) => Number(s.rssBytes ?? 0) > 1_000_000)).toBe(true);
      expect(samples.some((s) => (s.dbTotal ?? 0) > 0)).toBe(true);
      expect(run.environment).toMatchObject({
        cpuCount: expect.any(Number),
        k6Version: expect.stringContaining('k6'),
      });
      expect(run.thresholdResults).toEqual([
        expect.objectContaining({ metric: 'http_req_duration', pass: true }),
      ]);
    }
    // The prewarm config runs 2 instances: both were sampled.
    const perInstance = await w.db.resourceSample.findMany({
      where: { runId: runs[1]!.id, instance: { gte: 0 } },
      distinct: ['instance'],
    });
    expect(perInstance.map((s) => s.instance).sort()).toEqual([0, 1]);
    const exp = await w.db.experiment.findUniqueOrThrow({ where: { id: experimentId } });
    expect(exp.status).toBe('completed');
  });
});
