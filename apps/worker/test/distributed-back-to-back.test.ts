import { parseRun } from '@poolbench/db';
import { launchAndEnqueue } from '@poolbench/runs';
import { TERMINAL_RUN_STATUSES } from '@poolbench/contracts';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createWorld, waitFor, type World } from './harness';

const RUNS = 20;

/**
 * Two-generator runs back to back on two workers of one host: every run must succeed, and every
 * merged second must be exactly the sum of its generators' seconds. The live merge runs once a
 * second while the final merge starts at the run's end, so a run of a few seconds makes them
 * overlap often; before merges were serialised, about one run in six ended failed on a duplicate
 * 'all' second.
 */
describe('distributed runs: 20 two-generator runs back to back', () => {
  let w: World;
  beforeAll(async () => {
    w = await createWorld('dist2x20');
  });
  afterEach(async () => w?.killWorkers());
  afterAll(async () => w?.dispose());

  it(`${RUNS} runs each succeed with 'all' seconds equal to the sum of their segments`, async () => {
    const env = {
      RUN_HEARTBEAT_MS: '500',
      SEGMENT_STALE_AFTER_MS: '3000',
      SEGMENT_START_LEAD_MS: '1000',
      SEGMENT_JOIN_TIMEOUT_MS: '60000',
    };
    w.startWorker({ ...env, WORKER_ID: 'b2b-0' });
    w.startWorker({ ...env, WORKER_ID: 'b2b-1' });
    await waitFor(
      'two workers registered',
      async () =>
        (await w.db.worker.count({ where: { id: { startsWith: 'b2b-' }, stoppedAt: null } })) === 2,
    );
    const pc = await w.poolConfig('b2b', 'lazy', { maxConns: 4 });
    const sc = await w.scenario('b2b 100 rps 3 s', {
      template: 'constant-arrival-rate',
      params: { ratePerSec: 100, durationMs: 3000, preAllocatedVUs: 10, maxVUs: 20 },
      requests: [{ path: '/health' }],
      readyPath: '/ready',
    });
    const ended: { status: string; error: string | null }[] = [];
    for (let i = 0; i < RUNS; i++) {
      const { runIds } = await launchAndEnqueue(
        { db: w.db, queue: w.queue },
        {
          teamId: w.ids.teamId,
          targetId: w.ids.targetId,
          poolConfigIds: [pc.id],
          scenarioIds: [sc.id],
          repeats: 1,
          name: `back to back ${i + 1}`,
          loadGenerators: 2,
        },
      );
      const runId = runIds[0]!;
      const run = await w.waitForStatus(runId, [...TERMINAL_RUN_STATUSES], 120_000);
      ended.push({ status: run.status, error: run.errorMessage });
      expect(run.status, `run ${i + 1}: ${run.errorMessage}`).toBe('succeeded');
      const rows = await w.db.runSecond.findMany({ where: { runId } });
      const all = rows.filter((r) => r.segment === 'all');
      const gens = rows.filter((r) => r.segment.startsWith('gen:'));
      expect(new Set(gens.map((r) => r.segment))).toEqual(new Set(['gen:0', 'gen:1']));
      const sum = new Map<number, { requests: number; failed: number; iterations: number }>();
      for (const g of gens) {
        const s = sum.get(g.second) ?? { requests: 0, failed: 0, iterations: 0 };
        sum.set(g.second, {
          requests: s.requests + g.requests,
          failed: s.failed + g.failed,
          iterations: s.iterations + g.iterations,
        });
      }
      const merged = new Map(
        all.map((a) => [
          a.second,
          { requests: a.requests, failed: a.failed, iterations: a.iterations },
        ]),
      );
      expect(merged, `run ${i + 1}`).toEqual(sum);
      const segments = await w.db.runSegment.findMany({ where: { runId } });
      const total = segments.reduce((n, s) => n + s.requests, 0);
      expect(parseRun(run).summary!.requests).toBe(total);
      expect(all.reduce((n, a) => n + a.requests, 0)).toBe(total);
    }
    expect(ended.filter((e) => e.status !== 'succeeded')).toEqual([]);
  }, 900_000);
});
