import { parseRun } from '@poolbench/db';
import { TERMINAL_RUN_STATUSES } from '@poolbench/contracts';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createWorld, type World } from './harness';

describe("worker: the lab target's upstream HTTP pool is sampled (real Postgres, Redis, k6, lab target, blob store)", () => {
  let w: World;
  beforeAll(async () => {
    w = await createWorld('upstream_pool');
  });
  afterEach(async () => w?.killWorkers());
  afterAll(async () => w?.dispose(), 120_000);

  it('POST /upload (seed 000) stores the upstream pool per second: open, in use, size, connection wait', async () => {
    w.startWorker();
    const pc = await w.poolConfig('prewarm, 4 upstream conns', 'prewarm', { upstreamConns: 4 });
    // The target reports requests in flight as a gauge the worker reads once a second: 8 VUs of
    // 256 KiB uploads keep the 4 connections busy at almost every instant, so the samples see it
    // (4 VUs of 20 KiB finished each upload in a few ms and a busy machine's samples missed all).
    const sc = await w.scenario('uploads, 8 VUs for 3 s', {
      template: 'sustained',
      params: { vus: 8, durationMs: 3000 },
      readyPath: '/ready',
      requests: [
        {
          method: 'POST',
          path: '/upload',
          body: { kind: 'bytes', sizeBytes: 262_144 },
          timeoutMs: 10_000,
        },
      ],
    });
    const { runIds } = await w.launch([pc.id], [sc.id], 1);
    const run = await w.waitForStatus(runIds[0]!, [...TERMINAL_RUN_STATUSES]);
    expect(run.status, `${run.errorCode}: ${run.errorMessage}`).toBe('succeeded');
    expect(parseRun(run).summary!.failed).toBe(0);
    const totals = await w.db.resourceSample.findMany({
      where: { runId: run.id, instance: -1, second: { gte: 0 } },
      orderBy: { second: 'asc' },
    });
    const withLoad = totals.filter((t) => (t.upstreamOpen ?? 0) > 0);
    expect(
      withLoad.length,
      JSON.stringify(
        totals.map((t) => [t.second, t.upstreamOpen, t.upstreamInUse, t.upstreamWaitMs]),
      ),
    ).toBeGreaterThan(0);
    // prewarm opened the whole keep-alive pool before ready; the pool size is the config's
    expect(Math.max(...totals.map((t) => t.upstreamOpen ?? 0))).toBeGreaterThanOrEqual(4);
    expect(totals.every((t) => t.upstreamMax === null || t.upstreamMax === 4)).toBe(true);
    expect(totals.some((t) => t.upstreamWaitMs !== null && t.upstreamWaitMs >= 0)).toBe(true);
    // the database pool is not what this endpoint uses: the upstream pool is the one with data
    expect(totals.some((t) => (t.upstreamInUse ?? 0) >= 0 && t.upstreamInUse !== null)).toBe(true);
    const resources = parseRun(run).summary!.resources;
    expect(resources.upstreamWaitMsMean).toEqual(expect.any(Number));
    expect(resources.upstreamInUsePeak).toBeGreaterThan(0);
  });
});
