import { MEASURED_RUN_STATUSES, TERMINAL_RUN_STATUSES } from '@poolbench/contracts';
import { launchAndEnqueue } from '@poolbench/runs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createWorld, waitFor, type World } from './harness';

/**
 * Hypotheses decided through the real worker, k6 and lab target: a pool of 1 connection against a
 * pool of 8 under 8 VUs that each hold a connection for 20 ms. The bigger pool's p95 is far lower,
 * so "8 is better by ≥ 20 %" holds and "8 is worse by ≥ 20 %" does not, each decided with 5 runs a
 * side the moment the experiment's last run ended.
 */
describe('worker: hypotheses decided when the experiment ends (real Postgres, Redis, k6, lab target)', () => {
  let w: World;
  beforeAll(async () => {
    w = await createWorld('hypotheses');
  });
  afterEach(async () => w?.killWorkers());
  afterAll(async () => w?.dispose(), 120_000);

  it('2 pool configs x 5 repeats: one claim holds, one does not, with the runs they used', async () => {
    w.startWorker();
    const one = await w.poolConfig('pool of 1', 'lazy', { maxConns: 1 });
    const eight = await w.poolConfig('pool of 8', 'lazy', { maxConns: 8 });
    const sc = await w.scenario('8 VUs holding a connection 20 ms', {
      template: 'sustained',
      params: { vus: 8, durationMs: 2000 },
      requests: [{ path: '/work', query: { ms: 20 } }],
      readyPath: '/ready',
    });
    const cell = (pc: string) => ({ poolConfigId: pc, scenarioId: sc.id });
    const { experimentId, runIds } = await launchAndEnqueue(
      { db: w.db, queue: w.queue },
      {
        teamId: w.ids.teamId,
        targetId: w.ids.targetId,
        poolConfigIds: [one.id, eight.id],
        scenarioIds: [sc.id],
        repeats: 5,
        name: 'hypotheses',
        hypotheses: [
          {
            base: cell(one.id),
            candidate: cell(eight.id),
            metric: 'p95Ms',
            expect: 'better',
            band: 20,
          },
          {
            base: cell(one.id),
            candidate: cell(eight.id),
            metric: 'p95Ms',
            expect: 'worse',
            band: 20,
          },
        ],
      },
    );
    expect(runIds).toHaveLength(10);
    for (const id of runIds) {
      const run = await w.waitForStatus(id, [...TERMINAL_RUN_STATUSES], 120_000);
      expect(MEASURED_RUN_STATUSES, `${run.errorCode}: ${run.errorMessage}`).toContain(run.status);
    }
    // decided by the worker that ended the last run (afterRunEnded), not by this test
    const [better, worse] = await waitFor(
      'both hypotheses decided',
      async () => {
        const rows = await w.db.hypothesis.findMany({
          where: { experimentId },
          orderBy: { position: 'asc' },
        });
        return rows.every((h) => h.status !== 'pending') ? rows : null;
      },
      20_000,
    );
    expect(better, better!.reason ?? '').toMatchObject({ status: 'holds', changeUnit: 'percent' });
    expect(better!.change!).toBeLessThan(-20);
    expect(better!.high!).toBeLessThan(-20);
    expect(better!.p!).toBeLessThan(0.05);
    expect(better!.runsUsed).toHaveLength(10);
    expect(new Set(better!.runsUsed)).toEqual(new Set(runIds));
    expect(worse, worse!.reason ?? '').toMatchObject({ status: 'does_not_hold' });
    expect(worse!.decidedAt).not.toBeNull();
  }, 300_000);
});
