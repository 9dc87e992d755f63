import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createWorld, sustained, type World } from './harness';

describe('worker: a k6 that cannot start', () => {
  let w: World;
  beforeAll(async () => {
    w = await createWorld('k6missing');
  });
  afterEach(async () => w?.killWorkers());
  afterAll(async () => w?.dispose(), 120_000);

  it('fails the run with k6_missing and says how to build k6', async () => {
    w.startWorker({ POOLBENCH_K6_BIN: '/nonexistent/poolbench-k6' });
    const pc = await w.poolConfig('lazy k6 missing', 'lazy', { maxConns: 2 });
    const sc = await w.scenario('2 s k6 missing', sustained(1, 2_000));
    const { runIds } = await w.launch([pc.id], [sc.id]);
    const run = await w.waitForStatus(
      runIds[0]!,
      ['failed', 'succeeded', 'aborted_system'],
      60_000,
    );
    expect(run.status).toBe('failed');
    expect(run.errorCode).toBe('k6_missing');
    expect(run.errorMessage).toContain('/nonexistent/poolbench-k6');
  });
});
