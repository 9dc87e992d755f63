import { createDb, type Db } from '@poolbench/db';
import { seed } from '../seed/seed';
import { withTempDatabase } from '@poolbench/db/testing';
import { createRunQueue, producerConnection } from '@poolbench/queue';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchExperiment } from '../launch-experiment';
import { claimRun, finishRun, markRunning } from '../run-transitions';
import { startLifecycleSweeper } from '../sweeper';
import { summaryWith } from '../testing/summary-with';

/**
 * A follow-up step after a run's end that fails once (here the next round of an "until decided"
 * experiment, whose rows Postgres refuses for a moment) is logged with its experiment and step,
 * and the lifecycle sweeper, as every worker and the web app run it, makes the round and enqueues
 * its runs in BullMQ on its next pass. Real Postgres, real Redis.
 */
describe('a follow-up that failed once is logged and resumed by the sweeper', () => {
  let db: Db;
  let dispose: () => Promise<void>;
  let ids: Awaited<ReturnType<typeof seed>>;
  let redis: Redis;
  beforeAll(async () => {
    const t = await withTempDatabase('runs_after_run_ended');
    dispose = t.dispose;
    db = createDb({ url: t.url, max: 4 });
    ids = await seed(db);
    redis = producerConnection(process.env.REDIS_URL ?? 'redis://127.0.0.1:63799');
  });
  afterAll(async () => {
    redis?.disconnect();
    await db?.$disconnect();
    await dispose?.();
  });

  /** Two of seed 004's pool configs (A, B) and one of its scenarios (S). */
  async function cells() {
    const pcs = await db.poolConfig.findMany({
      where: { teamId: ids.teamId, name: { startsWith: '004' } },
      orderBy: { name: 'asc' },
      take: 2,
    });
    const scenario = await db.scenario.findFirstOrThrow({
      where: { teamId: ids.teamId, name: { startsWith: '004' } },
    });
    return { A: pcs[0]!.id, B: pcs[1]!.id, S: scenario.id };
  }

  /** Postgres refuses `op` on `table` while the flag table `name` has a row. */
  async function refuseWhileFlagged(name: string, op: 'INSERT' | 'UPDATE', table: string) {
    await db.$executeRawUnsafe(`CREATE TABLE ${name} (on_purpose boolean)`);
    await db.$executeRawUnsafe(`INSERT INTO ${name} VALUES (true)`);
    await db.$executeRawUnsafe(`CREATE FUNCTION ${name}() RETURNS trigger AS $$
      BEGIN
        IF EXISTS (SELECT 1 FROM ${name}) THEN RAISE EXCEPTION 'refused on purpose'; END IF;
        RETURN NEW;
      END $$ LANGUAGE plpgsql`);
    await db.$executeRawUnsafe(
      `CREATE TRIGGER ${name} BEFORE ${op} ON "${table}" FOR EACH ROW EXECUTE FUNCTION ${name}()`,
    );
  }

  /** A logger that keeps what was warned. */
  function collectingLog() {
    const warned: Array<{ obj: Record<string, unknown>; msg: string }> = [];
    const log = {
      warn: (obj: object, msg: string) => warned.push({ obj: obj as Record<string, unknown>, msg }),
      info: () => {},
    };
    return { warned, log };
  }

  it('an "until decided" round refused once: logged, then made and enqueued by the sweeper', async () => {
    const { A, B, S } = await cells();
    const l = await launchExperiment(db, {
      teamId: ids.teamId,
      targetId: ids.targetId,
      poolConfigIds: [A, B],
      scenarioIds: [S],
      repeats: 3,
      name: 'until decided, interrupted',
      // a claim 3 runs a side cannot decide (A and B alike): the rule asks for another round
      hypotheses: [
        {
          base: { poolConfigId: A, scenarioId: S },
          candidate: { poolConfigId: B, scenarioId: S },
          metric: 'p99Ms',
          expect: 'better',
          band: 20,
        },
      ],
      untilDecided: { maxRepeats: 9 },
    });

    // Postgres refuses new Run rows while the flag is set: the next round cannot be made
    await refuseWhileFlagged('refuse_runs', 'INSERT', 'Run');

    const prefix = `pbt-after-run-${Date.now()}`;
    const queue = createRunQueue(redis, prefix);
    const { warned, log } = collectingLog();
    try {
      const first = await db.run.findMany({
        where: { experimentId: l.experimentId },
        orderBy: { sequence: 'asc' },
        select: { id: true, repeatIndex: true },
      });
      expect(first).toHaveLength(6);
      for (const r of first) {
        await claimRun(db, r.id, 'w');
        await markRunning(db, r.id, 'w', { script: 's', environment: {} });
        await finishRun(
          db,
          r.id,
          'w',
          { status: 'succeeded', summary: summaryWith(30 * (1 + (r.repeatIndex % 3) / 50), 1000) },
          { queue, log },
        );
      }
      // the last run's end asked for the next round; it failed and said so, naming the experiment
      const failed = warned.filter((w) => w.obj.step === 'continue until decided');
      expect(failed).toHaveLength(1);
      expect(failed[0]!.obj.experimentId).toBe(l.experimentId);
      expect(String(failed[0]!.obj.err)).toContain('refused on purpose');
      expect(await db.run.count({ where: { experimentId: l.experimentId } })).toBe(6);

      // the refusal passes; the sweeper's next pass makes the round and enqueues it
      await db.$executeRawUnsafe('DELETE FROM refuse_runs');
      const sweeper = startLifecycleSweeper(
        { db, queue, log },
        { staleAfterMs: 3_600_000, intervalMs: 60_000, requeueAfterMs: 0, storageEveryMs: 0 },
      );
      try {
        await sweeper.sweepNow();
        await sweeper.sweepNow();
      } finally {
        await sweeper.stop();
      }
      const next = await db.run.findMany({
        where: { experimentId: l.experimentId, status: 'queued' },
        select: { id: true },
      });
      expect(next.length).toBeGreaterThanOrEqual(2);
      for (const r of next) expect(await queue.getJob(r.id)).toBeTruthy();
      expect(warned.map((w) => w.msg)).toContain(
        'asked the sequential rule for "until decided" experiments left without its answer',
      );
    } finally {
      await db.$executeRawUnsafe('DROP TRIGGER IF EXISTS refuse_runs ON "Run"');
      await queue.obliterate({ force: true });
      await queue.close();
    }
  });

  it('a decision refused once: logged, then decided by the sweeper', async () => {
    const { A, B, S } = await cells();
    const l = await launchExperiment(db, {
      teamId: ids.teamId,
      targetId: ids.targetId,
      poolConfigIds: [A, B],
      scenarioIds: [S],
      repeats: 5,
      name: 'fixed design, decision interrupted',
      hypotheses: [
        {
          base: { poolConfigId: A, scenarioId: S },
          candidate: { poolConfigId: B, scenarioId: S },
          metric: 'p95Ms',
          expect: 'better',
          band: 10,
        },
      ],
    });
    // Postgres refuses to store a decision while the flag is set
    await refuseWhileFlagged('refuse_decisions', 'UPDATE', 'Hypothesis');
    const prefix = `pbt-after-run-h-${Date.now()}`;
    const queue = createRunQueue(redis, prefix);
    const { warned, log } = collectingLog();
    try {
      const runs = await db.run.findMany({
        where: { experimentId: l.experimentId },
        orderBy: { sequence: 'asc' },
        select: { id: true, poolConfigId: true },
      });
      for (const r of runs) {
        await claimRun(db, r.id, 'w');
        await markRunning(db, r.id, 'w', { script: 's', environment: {} });
        // B is twice as fast
        const p99 = r.poolConfigId === B ? 15 : 30;
        await finishRun(
          db,
          r.id,
          'w',
          { status: 'succeeded', summary: summaryWith(p99, 1000) },
          { queue, log },
        );
      }
      const failed = warned.filter((w) => w.obj.step === 'decide hypotheses');
      expect(failed).toHaveLength(1);
      expect(failed[0]!.obj.experimentId).toBe(l.experimentId);
      const pending = await db.hypothesis.findFirstOrThrow({
        where: { experimentId: l.experimentId },
      });
      expect(pending.status).toBe('pending');

      const sweeper = startLifecycleSweeper(
        { db, queue, log },
        { staleAfterMs: 3_600_000, intervalMs: 60_000, requeueAfterMs: 0, storageEveryMs: 0 },
      );
      try {
        // still refused: the sweeper says which experiment and step failed, and goes on
        await sweeper.sweepNow();
        const again = warned.filter(
          (w) =>
            w.msg === 'resuming an experiment left behind failed; the next pass tries again' &&
            w.obj.experimentId === l.experimentId,
        );
        expect(again.map((w) => w.obj.step)).toEqual(['decide hypotheses']);
        expect(String(again[0]!.obj.err)).toContain('refused on purpose');

        await db.$executeRawUnsafe('DELETE FROM refuse_decisions');
        await sweeper.sweepNow();
      } finally {
        await sweeper.stop();
      }
      const decided = await db.hypothesis.findFirstOrThrow({
        where: { experimentId: l.experimentId },
      });
      expect(decided.status).not.toBe('pending');
      expect(decided.decidedAt).not.toBeNull();
      expect(warned.map((w) => w.msg)).toContain(
        'decided hypotheses of finished experiments that were left undecided',
      );
    } finally {
      await db.$executeRawUnsafe('DROP TRIGGER IF EXISTS refuse_decisions ON "Hypothesis"');
      await queue.obliterate({ force: true });
      await queue.close();
    }
  });
});
