import { launchAndEnqueue } from '@poolbench/runs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createWorld, recordedChildren, waitFor, type World } from './harness';

describe('distributed runs: fewer free workers than load generators', () => {
  let w: World;
  beforeAll(async () => {
    w = await createWorld('distwait');
  });
  afterEach(async () => w?.killWorkers());
  afterAll(async () => w?.dispose(), 120_000);

  it('one worker (concurrency 3) never takes two segments of a run: the run waits visibly, never starts partially, and ends timed_out saying why', async () => {
    w.startWorker({
      WORKER_ID: 'distwait-only',
      WORKER_CONCURRENCY: '3',
      SEGMENT_JOIN_TIMEOUT_MS: '5000',
      WORKER_HEARTBEAT_MS: '500',
    });
    const pc = await w.poolConfig('wait', 'lazy', { maxConns: 2 });
    const sc = await w.scenario('wait 5 s', {
      template: 'constant-arrival-rate',
      params: { ratePerSec: 20, durationMs: 5000, preAllocatedVUs: 2 },
      requests: [{ path: '/health' }],
      readyPath: '/ready',
    });
    const { runIds } = await launchAndEnqueue(
      { db: w.db, queue: w.queue },
      {
        teamId: w.ids.teamId,
        targetId: w.ids.targetId,
        poolConfigIds: [pc.id],
        scenarioIds: [sc.id],
        repeats: 1,
        name: 'wait',
        loadGenerators: 2,
      },
    );
    const runId = runIds[0]!;
    await waitFor(
      'the waiting message',
      async () => w.logs.some((l) => l.includes('waiting for 2 load generators, 1 free')),
      60_000,
    );
    const run = await w.waitForStatus(
      runId,
      ['timed_out', 'failed', 'succeeded', 'aborted_system'],
      60_000,
    );
    expect(run).toMatchObject({
      status: 'timed_out',
      errorCode: 'load_generators_unavailable',
      startedAt: null,
    });
    expect(run.errorMessage).toMatch(
      /^waited 5 s for 2 load generators, only 1 joined \(1 free\); no load was sent/,
    );
    const segments = await w.db.runSegment.findMany({
      where: { runId },
      orderBy: { index: 'asc' },
    });
    expect(segments.map((s) => [s.index, s.workerId, s.status])).toEqual([
      [0, 'distwait-only', 'canceled'],
      [1, null, 'canceled'],
    ]);
    expect(await w.db.runSecond.count({ where: { runId } })).toBe(0);
    expect(
      recordedChildren(w.runtimeDir).filter((c) => c.runId === runId && c.kind === 'k6'),
    ).toEqual([]);
  }, 120_000);
});
