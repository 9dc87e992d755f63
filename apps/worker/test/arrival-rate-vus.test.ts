import { parseRun } from '@poolbench/db';
import { TERMINAL_RUN_STATUSES } from '@poolbench/contracts';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createWorld, type World } from './harness';

describe('worker: an arrival-rate run records allocated VUs (real Postgres, Redis, k6, lab target)', () => {
  let w: World;
  beforeAll(async () => {
    w = await createWorld('arrival_vus');
  });
  afterEach(async () => w?.killWorkers());
  afterAll(async () => w?.dispose(), 120_000);

  it("stores k6's vus_max per second and in the summary, beside the active VUs", async () => {
    w.startWorker();
    const pc = await w.poolConfig('fixed 4', 'fixed', { maxConns: 4 });
    const sc = await w.scenario('20/s for 3 s, 8 VUs allocated', {
      template: 'constant-arrival-rate',
      params: { ratePerSec: 20, durationMs: 3000, preAllocatedVUs: 8, maxVUs: 8 },
      requests: [{ path: '/health' }],
      readyPath: '/ready',
    });
    const { runIds } = await w.launch([pc.id], [sc.id], 1);
    const run = await w.waitForStatus(runIds[0]!, [...TERMINAL_RUN_STATUSES]);
    expect(run.status, `${run.errorCode}: ${run.errorMessage}`).toBe('succeeded');
    const seconds = await w.db.runSecond.findMany({
      where: { runId: run.id },
      orderBy: { second: 'asc' },
    });
    expect(seconds.some((s) => s.requests > 0)).toBe(true);
    // k6 allocates preAllocatedVUs up front: every second that reported VUs says 8
    expect(seconds.filter((s) => s.vusAllocated !== null).map((s) => s.vusAllocated)).toContain(8);
    expect(parseRun(run).summary?.vusAllocatedMax).toBe(8);
  });
});
