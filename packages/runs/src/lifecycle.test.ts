import { createDb, type Db } from '@poolbench/db';
import { seed } from './seed/seed';
import { withTempDatabase } from '@poolbench/db/testing';
import { createRunQueue, producerConnection } from '@poolbench/queue';
import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cancelRun } from './cancel-run';
import { experimentStatusFromCounts } from './experiment-status';
import { launchExperiment } from './launch-experiment';
import { claimRun, finishRun, heartbeatRun, markRunning } from './run-transitions';
import { abortStaleRuns, requeueOrphanedRuns } from './stale-runs';

describe('experimentStatusFromCounts', () => {
  it.each([
    [{ queued: 2 }, 'queued', false],
    [{ queued: 1, preparing: 1 }, 'running', false],
    [{ succeeded: 1, running: 1 }, 'running', false],
    [{ succeeded: 2 }, 'completed', true],
    [{ succeeded: 1, failed: 1 }, 'completed', true],
    [{ failed: 1, aborted_system: 1 }, 'failed', true],
    [{ aborted_system: 1 }, 'failed', true],
    [{ canceled: 2 }, 'canceled', true],
    [{ canceled: 1, timed_out: 1 }, 'failed', true],
    // a failed threshold is a failure of the run, but its measurements make a comparison
    [{ thresholds_failed: 2 }, 'completed', true],
    [{ thresholds_failed: 1, failed: 1 }, 'completed', true],
    [{ thresholds_failed: 1, running: 1 }, 'running', false],
  ] as const)('%o → %s', (counts, status, finished) => {
    expect(experimentStatusFromCounts(counts)).toEqual({ status, finished });
  });
});

describe('run lifecycle on Postgres', () => {
  let db: Db;
  let dispose: () => Promise<void>;
  let ids: Awaited<ReturnType<typeof seed>>;
  let redis: Redis;
  let queue: Queue;
  beforeAll(async () => {
    const t = await withTempDatabase('runs_lifecycle');
    dispose = t.dispose;
    db = createDb({ url: t.url, max: 6 });
    ids = await seed(db);
    redis = producerConnection(process.env.REDIS_URL ?? 'redis://127.0.0.1:63799');
    queue = createRunQueue(redis, `pbt-lifecycle-${Date.now()}`);
  });
  afterAll(async () => {
    await queue?.obliterate({ force: true }).catch(() => {});
    await queue?.close();
    redis?.disconnect();
    await db?.$disconnect();
    await dispose?.();
  });
  const launch = async (repeats = 1) => {
    const pc = await db.poolConfig.findFirstOrThrow({
      where: { teamId: ids.teamId, name: { startsWith: '004' } },
    });
    const sc = await db.scenario.findFirstOrThrow({
      where: { teamId: ids.teamId, name: { startsWith: '004' } },
    });
    return launchExperiment(db, {
      teamId: ids.teamId,
      targetId: ids.targetId,
      poolConfigIds: [pc.id],
      scenarioIds: [sc.id],
      repeats,
      name: 'lc',
    });
  };
  const experiment = (id: string) =>
    db.experiment.findUniqueOrThrow({ where: { id }, select: { status: true, finishedAt: true } });

  it('claim → running → finish moves the experiment queued → running → completed in the same transactions', async () => {
    const l = await launch(1);
    const runId = l.runIds[0]!;
    expect((await experiment(l.experimentId)).status).toBe('queued');
    expect(await claimRun(db, runId, 'w1')).toBe(true);
    expect(await claimRun(db, runId, 'w2')).toBe(false); // a second delivery loses
    expect((await experiment(l.experimentId)).status).toBe('running');
    expect(await markRunning(db, runId, 'w2', { script: 's', environment: {} })).toBe(false); // not its run
    expect(await markRunning(db, runId, 'w1', { script: 's', environment: {} })).toBe(true);
    expect(await heartbeatRun(db, runId, 'w1')).toEqual({ alive: true, cancelRequested: false });
    expect(await finishRun(db, runId, 'w1', { status: 'succeeded' })).toBe(true);
    expect(await finishRun(db, runId, 'w1', { status: 'failed' })).toBe(false); // ends once
    const e = await experiment(l.experimentId);
    expect(e.status).toBe('completed');
    expect(e.finishedAt).not.toBeNull();
    expect(await heartbeatRun(db, runId, 'w1')).toEqual({ alive: false, cancelRequested: false });
  });

  it('canceling the only queued run ends its experiment as canceled with finishedAt (it stayed queued before)', async () => {
    const l = await launch(1);
    expect(await cancelRun({ db, queue, redis }, ids.teamId, l.runIds[0]!)).toBe('canceled');
    const e = await experiment(l.experimentId);
    expect(e).toMatchObject({ status: 'canceled' });
    expect(e.finishedAt).not.toBeNull();
    expect(await claimRun(db, l.runIds[0]!, 'w1')).toBe(false);
    expect(await cancelRun({ db, queue, redis }, ids.teamId, l.runIds[0]!)).toBe(
      'already_finished',
    );
    expect(await cancelRun({ db, queue, redis }, 'another-team', l.runIds[0]!)).toBe('not_found');
  });

  it('canceling an active run sets the durable flag that the heartbeat reads', async () => {
    const l = await launch(1);
    await claimRun(db, l.runIds[0]!, 'w1');
    expect(await cancelRun({ db, queue, redis }, ids.teamId, l.runIds[0]!)).toBe(
      'cancel_requested',
    );
    expect(await heartbeatRun(db, l.runIds[0]!, 'w1')).toEqual({
      alive: true,
      cancelRequested: true,
    });
    expect(await markRunning(db, l.runIds[0]!, 'w1', { script: 's', environment: {} })).toBe(false); // no load after a cancel
  });

  it('a stale run is aborted as worker_lost and its experiment ends in the same transaction (it stayed queued/running before)', async () => {
    const l = await launch(1);
    const runId = l.runIds[0]!;
    await claimRun(db, runId, 'dead-worker');
    await db.$executeRaw`UPDATE "Run" SET "heartbeatAt" = now() - interval '1 minute' WHERE id = ${runId}`;
    const aborted = await abortStaleRuns(db, { staleAfterMs: 15_000, finalize: async () => null });
    expect(aborted).toEqual([{ runId, workerId: 'dead-worker' }]);
    const run = await db.run.findUniqueOrThrow({ where: { id: runId } });
    expect(run).toMatchObject({ status: 'aborted_system', errorCode: 'worker_lost' });
    const e = await experiment(l.experimentId);
    expect(e.status).toBe('failed');
    expect(e.finishedAt).not.toBeNull();
    // the dead worker's late finish cannot overwrite the truth
    expect(await finishRun(db, runId, 'dead-worker', { status: 'succeeded' })).toBe(false);
  });

  it('a heartbeat is stale once it is more than staleAfterMs old by the clock, not at staleAfterMs', async () => {
    const l = await launch(1);
    const runId = l.runIds[0]!;
    await claimRun(db, runId, 'quiet-worker');
    // the last beat an hour ago, so every other run of this file is fresh by the moved clock
    const beat = Math.floor(Date.now() / 1000) * 1000 - 3_600_000;
    await db.run.update({ where: { id: runId }, data: { heartbeatAt: new Date(beat) } });
    const sweep = (at: number) =>
      abortStaleRuns(db, { staleAfterMs: 15_000, finalize: async () => null, now: () => at });
    expect(await sweep(beat + 15_000 - 1)).toEqual([]);
    expect(await sweep(beat + 15_000)).toEqual([]);
    expect((await db.run.findUniqueOrThrow({ where: { id: runId } })).status).toBe('preparing');
    expect(await sweep(beat + 15_000 + 1)).toEqual([{ runId, workerId: 'quiet-worker' }]);
    expect(await db.run.findUniqueOrThrow({ where: { id: runId } })).toMatchObject({
      status: 'aborted_system',
      errorCode: 'worker_lost',
    });
  });

  it('a queued run without a job is enqueued again once it is more than olderThanMs old by the clock', async () => {
    const l = await launch(1);
    const runId = l.runIds[0]!;
    expect(await queue.getJob(runId)).toBeUndefined(); // launched, never enqueued
    const queuedAt = Math.floor(Date.now() / 1000) * 1000 - 3_600_000;
    await db.run.update({ where: { id: runId }, data: { queuedAt: new Date(queuedAt) } });
    const requeue = async (at: number) =>
      (await requeueOrphanedRuns(db, queue, { olderThanMs: 10_000, now: () => at })).filter(
        (id) => id === runId,
      );
    expect(await requeue(queuedAt + 10_000)).toEqual([]);
    expect(await queue.getJob(runId)).toBeUndefined();
    expect(await requeue(queuedAt + 10_000 + 1)).toEqual([runId]);
    expect(await queue.getJob(runId)).toBeDefined();
    await cancelRun({ db, queue, redis }, ids.teamId, runId);
  });

  it('a fresh heartbeat is not stale', async () => {
    const l = await launch(1);
    await claimRun(db, l.runIds[0]!, 'w-alive');
    expect(await abortStaleRuns(db, { staleAfterMs: 15_000, finalize: async () => null })).toEqual(
      [],
    );
  });

  it('runs of one experiment ending at the same moment leave it completed, never running (experiment row lock)', async () => {
    for (let round = 0; round < 5; round++) {
      const l = await launch(6);
      await Promise.all(l.runIds.map((id, i) => claimRun(db, id, `w${i}`)));
      await Promise.all(
        l.runIds.map((id, i) => finishRun(db, id, `w${i}`, { status: 'succeeded' })),
      );
      expect((await experiment(l.experimentId)).status).toBe('completed');
    }
  });
});
