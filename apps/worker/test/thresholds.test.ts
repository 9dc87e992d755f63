import { parseRun } from '@poolbench/db';
import { TERMINAL_RUN_STATUSES } from '@poolbench/contracts';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createWorld, sustained, type World } from './harness';

describe('worker: thresholds decide the run outcome (real Postgres, Redis, k6, lab target)', () => {
  let w: World;
  beforeAll(async () => {
    w = await createWorld('thresholds');
  });
  afterEach(async () => w?.killWorkers());
  afterAll(async () => w?.dispose(), 120_000);

  it('a run that crossed a threshold ends thresholds_failed with its data kept, and the experiment still completes', async () => {
    w.startWorker();
    const lazy = await w.poolConfig('lazy 2', 'lazy', { maxConns: 2 });
    // no request over loopback answers in under 1 µs: this threshold must fail, the error-rate one passes
    const sc = await w.scenario('2 s at 2 VUs, impossible p95', {
      ...sustained(2, 2000),
      thresholds: [
        { metric: 'http_req_duration', expr: 'p(95)<0.001' },
        { metric: 'http_req_failed', expr: 'rate<0.5' },
      ],
    });
    const { runIds, experimentId } = await w.launch([lazy.id], [sc.id], 1);
    const run = await w.waitForStatus(runIds[0]!, [...TERMINAL_RUN_STATUSES]);
    expect(run.status, `${run.errorCode}: ${run.errorMessage}`).toBe('thresholds_failed');
    expect(run.errorCode).toBe('thresholds_failed');
    expect(run.errorMessage).toMatch(
      /^1 of 2 thresholds failed: http_req_duration p\(95\)<0\.001 \(observed [\d.]+\)$/,
    );
    expect(run.thresholdResults).toEqual([
      expect.objectContaining({ metric: 'http_req_duration', pass: false }),
      expect.objectContaining({ metric: 'http_req_failed', pass: true }),
    ]);
    // the measurements are valid and kept: summary, histogram, per-second rows
    expect(parseRun(run).summary!.requests).toBeGreaterThan(10);
    expect(run.durationHist?.length).toBeGreaterThan(0);
    expect(await w.db.runSecond.count({ where: { runId: run.id } })).toBeGreaterThanOrEqual(2);
    const exp = await w.db.experiment.findUniqueOrThrow({ where: { id: experimentId } });
    expect(exp.status).toBe('completed');
  });

  it('an insight as a threshold: a pool that never waited fails "insight:pool-never-waited is absent"', async () => {
    w.startWorker();
    // 2 VUs on a pool of 8: no request ever waits for a connection
    const roomy = await w.poolConfig('prewarm 8', 'prewarm', { maxConns: 8 });
    const sc = await w.scenario('2 s at 2 VUs, the pool must wait', {
      ...sustained(2, 2000),
      thresholds: [
        { metric: 'insight:pool-never-waited', expr: 'absent' },
        { metric: 'insight:db-connection-limit', expr: 'absent' },
        { metric: 'http_req_failed', expr: 'rate<0.5' },
      ],
    });
    const { runIds } = await w.launch([roomy.id], [sc.id], 1);
    const run = await w.waitForStatus(runIds[0]!, [...TERMINAL_RUN_STATUSES]);
    expect(run.status, `${run.errorCode}: ${run.errorMessage}`).toBe('thresholds_failed');
    expect(run.errorMessage).toBe(
      '1 of 3 thresholds failed: insight:pool-never-waited absent (the run shows it)',
    );
    expect(run.thresholdResults).toEqual([
      { metric: 'insight:pool-never-waited', expr: 'absent', observed: 1, pass: false },
      { metric: 'insight:db-connection-limit', expr: 'absent', observed: 0, pass: true },
      expect.objectContaining({ metric: 'http_req_failed', pass: true }),
    ]);
    // what the worker judged: an acquire wait of microseconds at most (taking an idle connection)
    expect(parseRun(run).summary!.resources.poolWaitMsPeak).toBeLessThan(0.05);
  });
});
