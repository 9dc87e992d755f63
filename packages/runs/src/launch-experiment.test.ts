import { createDb, parseRun, scenarioRowData, type Db } from '@poolbench/db';
import { seed } from './seed/seed';
import { withTempDatabase } from '@poolbench/db/testing';
import { createRunQueue, producerConnection } from '@poolbench/queue';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchAndEnqueue } from './launch-and-enqueue';
import { launchExperiment } from './launch-experiment';

describe('launch', () => {
  let db: Db;
  let dispose: () => Promise<void>;
  let ids: Awaited<ReturnType<typeof seed>>;
  beforeAll(async () => {
    const t = await withTempDatabase('runs_launch');
    dispose = t.dispose;
    db = createDb({ url: t.url, max: 3 });
    ids = await seed(db);
  });
  afterAll(async () => {
    await db?.$disconnect();
    await dispose?.();
  });
  const pick = async () => ({
    configs: await db.poolConfig.findMany({
      where: { name: { startsWith: '004' } },
      orderBy: { name: 'asc' },
      take: 2,
    }),
    scenario: await db.scenario.findFirstOrThrow({ where: { name: { startsWith: '004' } } }),
  });

  it('creates counterbalanced queued runs with snapshots, and hides other teams', async () => {
    const { configs, scenario } = await pick();
    const launched = await launchExperiment(db, {
      teamId: ids.teamId,
      targetId: ids.targetId,
      poolConfigIds: configs.map((c) => c.id),
      scenarioIds: [scenario.id],
      repeats: 2,
      name: 't',
    });
    const runs = await db.run.findMany({
      where: { experimentId: launched.experimentId },
      orderBy: { sequence: 'asc' },
    });
    expect(runs.map((r) => r.id)).toEqual(launched.runIds);
    // the default order: the second repeat runs the configs the other way round
    expect(runs.map((r) => r.poolConfigId)).toEqual([
      configs[0]!.id,
      configs[1]!.id,
      configs[1]!.id,
      configs[0]!.id,
    ]);
    expect(
      await db.experiment.findUniqueOrThrow({
        where: { id: launched.experimentId },
        select: { order: true },
      }),
    ).toEqual({ order: 'counterbalanced' });
    expect(runs.every((r) => r.status === 'queued')).toBe(true);
    expect(parseRun(runs[0]!).poolConfigSnapshot.strategy).toBe(configs[0]!.strategy);

    const other = await db.team.create({ data: { name: 'other', slug: 'other-team' } });
    await expect(
      launchExperiment(db, {
        teamId: other.id,
        targetId: ids.targetId,
        poolConfigIds: [configs[0]!.id],
        scenarioIds: [scenario.id],
        repeats: 1,
        name: 'x',
      }),
    ).rejects.toThrow('target not found');
  });

  it('refuses a k6 script scenario on more than one load generator, naming it', async () => {
    const { configs } = await pick();
    const script = await db.scenario.create({
      data: {
        teamId: ids.teamId,
        name: 'own script',
        ...scenarioRowData({ template: 'k6-script', source: 'export default function () {}' }),
      },
    });
    await expect(
      launchExperiment(db, {
        teamId: ids.teamId,
        targetId: ids.targetId,
        poolConfigIds: [configs[0]!.id],
        scenarioIds: [script.id],
        repeats: 1,
        name: 'script on two generators',
        loadGenerators: 2,
      }),
    ).rejects.toMatchObject({
      path: 'loadGenerators',
      message: expect.stringContaining(
        '"own script" is a k6 script, which runs on one load generator',
      ),
    });
  });

  it('with the queue down, stores the experiment as queued and says so instead of failing', async () => {
    const { configs, scenario } = await pick();
    // nothing listens on port 1: every queue command fails at once, as with Redis down
    const dead = producerConnection('redis://127.0.0.1:1', {
      retryStrategy: () => null,
      lazyConnect: true,
    }).on('error', () => {});
    const queue = createRunQueue(dead, 'pbt-dead');
    queue.on('error', () => {});
    const before = await db.experiment.count();
    const launched = await launchAndEnqueue(
      { db, queue },
      {
        teamId: ids.teamId,
        targetId: ids.targetId,
        poolConfigIds: [configs[0]!.id],
        scenarioIds: [scenario.id],
        repeats: 1,
        name: 'redis down',
      },
    );
    expect(launched.enqueued).toBe(false);
    expect(launched.queueMessage).toMatch(
      /run queue is unavailable .*start when the queue is back/,
    );
    expect(await db.experiment.count()).toBe(before + 1);
    const run = await db.run.findUniqueOrThrow({ where: { id: launched.runIds[0]! } });
    expect(run.status).toBe('queued');
    await queue.close().catch(() => {});
    dead.disconnect();
  });

  it('with the queue up, enqueues one job per run (jobId = runId) ranked behind the team backlog', async () => {
    const { configs, scenario } = await pick();
    const redis = producerConnection(process.env.REDIS_URL ?? 'redis://127.0.0.1:63799');
    const queue = createRunQueue(redis, `pbt-launch-${Date.now()}`);
    const backlog = await db.run.count({ where: { teamId: ids.teamId, status: 'queued' } });
    const launched = await launchAndEnqueue(
      { db, queue },
      {
        teamId: ids.teamId,
        targetId: ids.targetId,
        poolConfigIds: configs.map((c) => c.id),
        scenarioIds: [scenario.id],
        repeats: 1,
        name: 'up',
      },
    );
    expect(launched).toMatchObject({ enqueued: true, backlog });
    const jobs = await Promise.all(launched.runIds.map((id) => queue.getJob(id)));
    expect(jobs.map((j) => j?.opts.priority)).toEqual([backlog + 1, backlog + 2]);
    await queue.obliterate({ force: true });
    await queue.close();
    redis.disconnect();
  });
});
