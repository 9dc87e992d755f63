import { createDb, type Db } from '@poolbench/db';
import { seed } from '../seed/seed';
import { withTempDatabase } from '@poolbench/db/testing';
import { createRunQueue, producerConnection } from '@poolbench/queue';
import type { Hypothesis } from '@poolbench/scenarios';
import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { summaryWith } from '../testing/summary-with';
import { extendExperiment } from '../extend-experiment';
import { launchExperiment, relaunchExperiment } from '../launch-experiment';
import { claimRun, finishRun, markRunning } from '../run-transitions';
import { decideOverdueHypotheses } from './decide-hypotheses';
import { replaceHypotheses } from './replace-hypotheses';

describe('hypotheses through the lifecycle (real Postgres)', () => {
  let db: Db;
  let dispose: () => Promise<void>;
  let ids: Awaited<ReturnType<typeof seed>>;
  let redis: Redis;
  let queue: Queue;
  let A: string;
  let B: string;
  let S: string;
  beforeAll(async () => {
    const t = await withTempDatabase('runs_hypotheses');
    dispose = t.dispose;
    db = createDb({ url: t.url, max: 6 });
    ids = await seed(db);
    redis = producerConnection(process.env.REDIS_URL ?? 'redis://127.0.0.1:63799');
    queue = createRunQueue(redis, `pbt-hyp-${Date.now()}`);
    const pcs = await db.poolConfig.findMany({
      where: { teamId: ids.teamId, name: { startsWith: '004' } },
      orderBy: { name: 'asc' },
      take: 2,
    });
    [A, B] = [pcs[0]!.id, pcs[1]!.id];
    S = (
      await db.scenario.findFirstOrThrow({
        where: { teamId: ids.teamId, name: { startsWith: '004' } },
      })
    ).id;
  });
  afterAll(async () => {
    await queue?.obliterate({ force: true }).catch(() => {});
    await queue?.close();
    redis?.disconnect();
    await db?.$disconnect();
    await dispose?.();
  });

  const claims = (): Hypothesis[] => [
    {
      base: { poolConfigId: A, scenarioId: S },
      candidate: { poolConfigId: B, scenarioId: S },
      metric: 'p99Ms',
      expect: 'better',
      band: 20,
    },
    {
      base: { poolConfigId: A, scenarioId: S },
      candidate: { poolConfigId: B, scenarioId: S },
      metric: 'rps',
      expect: 'equivalent',
      band: 5,
    },
  ];
  const launch = (repeats: number, hypotheses = claims()) =>
    launchExperiment(db, {
      teamId: ids.teamId,
      targetId: ids.targetId,
      poolConfigIds: [A, B],
      scenarioIds: [S],
      repeats,
      name: 'hyp',
      hypotheses,
    });
  // A run ends with a summary: B has a p99 a third of A's and the same throughput, runs differ a little.
  const runAll = async (runIds: string[]) => {
    for (const [i, id] of runIds.entries()) {
      const run = await db.run.findUniqueOrThrow({ where: { id }, select: { poolConfigId: true } });
      const jitter = 1 + (i % 5) / 100;
      const p99 = (run.poolConfigId === A ? 90 : 30) * jitter;
      await claimRun(db, id, 'w');
      await markRunning(db, id, 'w', { script: 's', environment: {} });
      await finishRun(db, id, 'w', {
        status: 'succeeded',
        summary: summaryWith(p99, 1000 * (1 + (i % 3) / 1000)),
      });
    }
  };
  const rows = (experimentId: string) =>
    db.hypothesis.findMany({ where: { experimentId }, orderBy: { position: 'asc' } });

  it('stores the claims with a statement, and refuses a cell that is not the experiment’s (field named)', async () => {
    const l = await launch(1);
    const [h] = await rows(l.experimentId);
    expect(h).toMatchObject({
      status: 'pending',
      metric: 'p99Ms',
      bandUnit: 'percent',
      statement: expect.stringMatching(/has a lower p99 latency than .* by at least 20 %/),
    });
    const bad = [{ ...claims()[0]!, candidate: { poolConfigId: ids.targetId, scenarioId: S } }];
    await expect(launch(1, bad)).rejects.toMatchObject({
      path: 'hypotheses.0.candidate.poolConfigId',
    });
  });

  it('pre-registration: editable while every run is queued, refused once the first run started', async () => {
    const l = await launch(1);
    await replaceHypotheses(db, ids.teamId, l.experimentId, [claims()[1]!]);
    expect((await rows(l.experimentId)).map((h) => h.metric)).toEqual(['rps']);
    await claimRun(db, l.runIds[0]!, 'w');
    await expect(replaceHypotheses(db, ids.teamId, l.experimentId, claims())).rejects.toMatchObject(
      { path: 'hypotheses', message: expect.stringContaining('pre-registered') },
    );
    expect((await rows(l.experimentId)).map((h) => h.metric)).toEqual(['rps']);
  });

  it('decided when the last run ends: holds, and unresolved with a repeat estimate at 3 vs 3', async () => {
    const l = await launch(3);
    await runAll(l.runIds.slice(0, -1));
    expect((await rows(l.experimentId)).map((h) => h.status)).toEqual(['pending', 'pending']);
    await runAll(l.runIds.slice(-1));
    const [p99, rps] = await rows(l.experimentId);
    // 3 vs 3 can never reach p < 0.05: unresolved, with the smallest p and how many would do
    expect(p99).toMatchObject({ status: 'unresolved', changeUnit: 'percent', repeatsNeeded: 4 });
    expect(p99!.reason).toContain('smallest possible exact p with 3 vs 3 runs is 0.100');
    expect(p99!.runsUsed).toHaveLength(6);
    expect(rps!.status).toBe('unresolved');

    // extend: back to running, claims pending, then decided over all 5 + 5 repeats
    const ext = await extendExperiment(
      { db, queue },
      { teamId: ids.teamId, experimentId: l.experimentId, addRepeats: 2 },
    );
    expect(ext.runIds).toHaveLength(4);
    const e = await db.experiment.findUniqueOrThrow({
      where: { id: l.experimentId },
      select: { status: true, repeats: true, finishedAt: true },
    });
    expect(e).toEqual({ status: 'running', repeats: 5, finishedAt: null });
    expect((await rows(l.experimentId)).map((h) => h.status)).toEqual(['pending', 'pending']);
    const added = await db.run.findMany({
      where: { id: { in: ext.runIds } },
      orderBy: { sequence: 'asc' },
      select: { repeatIndex: true, sequence: true, poolConfigId: true },
    });
    // counterbalanced, carried on after the 3 rounds A B, B A, A B
    expect(added.map((r) => [r.repeatIndex, r.sequence, r.poolConfigId])).toEqual([
      [3, 6, B],
      [3, 7, A],
      [4, 8, A],
      [4, 9, B],
    ]);
    await runAll(ext.runIds);
    const [p99b, rpsb] = await rows(l.experimentId);
    expect(p99b).toMatchObject({ status: 'holds', repeatsNeeded: null });
    expect(p99b!.change).toBeLessThan(-60);
    expect(p99b!.p).toBeLessThan(0.05);
    expect(p99b!.runsUsed).toHaveLength(10);
    expect(rpsb).toMatchObject({ status: 'holds' });
    expect(rpsb!.reason).toContain('inside the ±5 % no-change band');
  });

  it('extending is refused while runs are still to go, and past 50 repeats', async () => {
    const l = await launch(1);
    await expect(
      extendExperiment(
        { db, queue },
        { teamId: ids.teamId, experimentId: l.experimentId, addRepeats: 2 },
      ),
    ).rejects.toMatchObject({ path: 'addRepeats' });
    await runAll(l.runIds);
    await expect(
      extendExperiment(
        { db, queue },
        { teamId: ids.teamId, experimentId: l.experimentId, addRepeats: 50 },
      ),
    ).rejects.toMatchObject({ path: 'addRepeats', message: expect.stringContaining('at most 49') });
  });

  it('a copy (rerun, schedule) tests the same claims; the sweeper decides claims left pending', async () => {
    const l = await launch(1);
    const copy = await relaunchExperiment(db, l.experimentId, { teamId: ids.teamId });
    expect((await rows(copy.experimentId)).map((h) => h.statement)).toEqual(
      (await rows(l.experimentId)).map((h) => h.statement),
    );
    await runAll(copy.runIds);
    // as if the process that ended the last run died before deciding
    await db.hypothesis.updateMany({
      where: { experimentId: copy.experimentId },
      data: { status: 'pending', decidedAt: null },
    });
    expect(await decideOverdueHypotheses(db)).toContain(copy.experimentId);
    expect((await rows(copy.experimentId)).map((h) => h.status)).toEqual([
      'unresolved',
      'unresolved',
    ]);
  });
});
