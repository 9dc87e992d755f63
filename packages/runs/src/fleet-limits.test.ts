import { createDb, scenarioRowData, toJson, type Db } from '@poolbench/db';
import { seed } from './seed/seed';
import { withTempDatabase } from '@poolbench/db/testing';
import { createRunQueue, producerConnection, workerConnection } from '@poolbench/queue';
import { Worker as BullWorker } from 'bullmq';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cancelExperiment } from './cancel-experiment';
import { extendExperiment } from './extend-experiment';
import { FLEET_LIMIT_DEFAULTS } from './fleet-limits';
import { launchAndEnqueue } from './launch-and-enqueue';
import { launchExperiment } from './launch-experiment';

/**
 * A shared load fleet (real Postgres and Redis): one member cannot queue days of load, cannot split
 * a run across more generators than there are workers, a second team's run is next in line while
 * the first has a long backlog, and a whole experiment is canceled in one call.
 */
describe('fleet limits, fairness and experiment cancel', () => {
  let db: Db;
  let dispose: () => Promise<void>;
  let ids: Awaited<ReturnType<typeof seed>>;
  let redis: Redis;
  beforeAll(async () => {
    const t = await withTempDatabase('runs_fleet');
    dispose = t.dispose;
    db = createDb({ url: t.url, max: 4 });
    ids = await seed(db);
    // the seeded team queues hundreds of runs below: its queued-load limit is not what they test
    await db.team.update({
      where: { id: ids.teamId },
      data: { maxQueuedLoadMinutes: 7 * 24 * 60 },
    });
    redis = producerConnection(process.env.REDIS_URL ?? 'redis://127.0.0.1:63799');
    // these tests queue days of load on purpose: the installation's limit is tested on its own
    process.env.POOLBENCH_QUEUED_LOAD_MINUTES = String(30 * 24 * 60);
  });
  afterAll(async () => {
    delete process.env.POOLBENCH_QUEUED_LOAD_MINUTES;
    redis?.disconnect();
    await db?.$disconnect();
    await dispose?.();
  });

  const cells = async (teamId = ids.teamId, targetId = ids.targetId) => ({
    configs: await db.poolConfig.findMany({ where: { teamId, targetId }, take: 8 }),
    scenarios: await db.scenario.findMany({ where: { teamId }, take: 8 }),
  });
  const launch = (
    teamId: string,
    targetId: string,
    configIds: string[],
    scenarioIds: string[],
    repeats: number,
    extra: { loadGenerators?: number; requireOnlineGenerators?: boolean } = {},
  ) =>
    launchExperiment(db, {
      teamId,
      targetId,
      poolConfigIds: configIds,
      scenarioIds,
      repeats,
      name: 'fleet',
      ...extra,
    });

  it('refuses every config x scenario x 50 repeats by field, with the limit, and creates nothing', async () => {
    const { configs, scenarios } = await cells();
    expect(configs.length * scenarios.length * 50).toBeGreaterThan(
      FLEET_LIMIT_DEFAULTS.maxRunsPerExperiment,
    );
    const before = await db.run.count();
    const err = await launch(
      ids.teamId,
      ids.targetId,
      configs.map((c) => c.id),
      scenarios.map((s) => s.id),
      50,
    ).catch((e: unknown) => e);
    expect(err).toMatchObject({ path: 'repeats' });
    expect((err as Error).message).toMatch(
      new RegExp(
        `${configs.length * scenarios.length * 50} runs in one experiment; this team's limit is ${FLEET_LIMIT_DEFAULTS.maxRunsPerExperiment}`,
      ),
    );
    expect(await db.run.count()).toBe(before);
  });

  it("holds the team's queued load to its limit, counting what is already queued; an admin's own limit applies", async () => {
    const { configs, scenarios } = await cells();
    const team = await db.team.create({ data: { name: 'busy', slug: `busy-${Date.now()}` } });
    const target = await db.target.create({
      data: { teamId: team.id, name: 't', kind: 'managed', requestDefaults: {} },
    });
    const pc = await db.poolConfig.create({
      data: { teamId: team.id, targetId: target.id, name: 'p', strategy: 'lazy', params: {} },
    });
    const sc = await db.scenario.create({
      data: {
        teamId: team.id,
        name: 's',
        templateId: scenarios[0]!.templateId,
        params: toJson.scenarioParams(scenarios[0]!.params),
      },
    });
    const first = await launch(team.id, target.id, [pc.id], [sc.id], 2);
    const runs = await db.run.findMany({ where: { experimentId: first.experimentId } });
    const perRunMs = runs[0]!.plannedLoadMs;
    expect(perRunMs).toBeGreaterThan(0);
    expect(configs.length).toBeGreaterThan(0);
    // an admin lowers the limit to just what is queued plus one more run (in minutes, rounded up)
    const limitMinutes = Math.ceil((3 * perRunMs) / 60_000);
    await db.team.update({ where: { id: team.id }, data: { maxQueuedLoadMinutes: limitMinutes } });
    const runsThatFit = Math.floor((limitMinutes * 60_000) / perRunMs) - 2;
    const err = await launch(team.id, target.id, [pc.id], [sc.id], runsThatFit + 1).catch(
      (e: unknown) => e,
    );
    expect(err).toMatchObject({ path: 'repeats' });
    expect((err as Error).message).toMatch(
      new RegExp(`the team may have at most ${limitMinutes} min queued`),
    );
    // what fits still launches
    await expect(launch(team.id, target.id, [pc.id], [sc.id], runsThatFit)).resolves.toMatchObject({
      runIds: expect.any(Array),
    });
    // canceling frees the queue again
    await cancelExperiment(
      { db, queue: createRunQueue(redis, 'pbt-fleet-x'), redis },
      team.id,
      first.experimentId,
    );
    await expect(launch(team.id, target.id, [pc.id], [sc.id], 1)).resolves.toBeTruthy();
  });

  it('refuses more load generators than workers online when asked, by field and count', async () => {
    const { configs, scenarios } = await cells();
    await db.worker.deleteMany({});
    const err = await launch(ids.teamId, ids.targetId, [configs[0]!.id], [scenarios[0]!.id], 1, {
      loadGenerators: 2,
      requireOnlineGenerators: true,
    }).catch((e: unknown) => e);
    expect(err).toMatchObject({ path: 'loadGenerators' });
    expect((err as Error).message).toMatch(/2 load generators need 2 workers online; 0 are online/);
    for (const i of [1, 2])
      await db.worker.create({
        data: {
          id: `w${i}`,
          host: 'h',
          pid: i,
          version: 't',
          concurrency: 1,
          startedAt: new Date(),
          lastSeenAt: new Date(),
        },
      });
    await expect(
      launch(ids.teamId, ids.targetId, [configs[0]!.id], [scenarios[0]!.id], 1, {
        loadGenerators: 2,
        requireOnlineGenerators: true,
      }),
    ).resolves.toBeTruthy();
    // a schedule firing (not asked) queues and lets its runs wait for generators
    await db.worker.deleteMany({});
    await expect(
      launch(ids.teamId, ids.targetId, [configs[0]!.id], [scenarios[0]!.id], 1, {
        loadGenerators: 2,
      }),
    ).resolves.toBeTruthy();
  });

  it('holds extensions to the same limit', async () => {
    const { configs, scenarios } = await cells();
    const e = await launch(
      ids.teamId,
      ids.targetId,
      configs.slice(0, 3).map((c) => c.id),
      scenarios.slice(0, 4).map((s) => s.id),
      40,
    );
    await db.run.updateMany({
      where: { experimentId: e.experimentId },
      data: { status: 'succeeded', finishedAt: new Date() },
    });
    // 3 x 4 x 40 = 480 runs; 1 more repeat makes 492, 2 more 504 (beyond 500)
    await expect(
      extendExperiment(
        { db, queue: null },
        { teamId: ids.teamId, experimentId: e.experimentId, addRepeats: 2 },
      ),
    ).rejects.toMatchObject({ path: 'addRepeats' });
    await expect(
      extendExperiment(
        { db, queue: null },
        { teamId: ids.teamId, experimentId: e.experimentId, addRepeats: 1 },
      ),
    ).resolves.toMatchObject({ runIds: expect.any(Array) });
  });

  it("a second team's run is next while the first team has 300 queued (one worker, real BullMQ)", async () => {
    const prefix = `pbt-fair-${Date.now()}`;
    const queue = createRunQueue(redis, prefix);
    const { configs, scenarios } = await cells();
    const bigTeam = await launchAndEnqueue(
      { db, queue },
      {
        teamId: ids.teamId,
        targetId: ids.targetId,
        poolConfigIds: configs.slice(0, 3).map((c) => c.id),
        scenarioIds: scenarios.slice(0, 5).map((s) => s.id),
        repeats: 20,
        name: 'backlog',
      },
    );
    expect(bigTeam.runIds).toHaveLength(300);
    const other = await db.team.create({ data: { name: 'small', slug: `small-${Date.now()}` } });
    const t = await db.target.create({
      data: { teamId: other.id, name: 't', kind: 'managed', requestDefaults: {} },
    });
    const p = await db.poolConfig.create({
      data: { teamId: other.id, targetId: t.id, name: 'p', strategy: 'lazy', params: {} },
    });
    const s = await db.scenario.create({
      data: {
        teamId: other.id,
        name: 's',
        templateId: scenarios[0]!.templateId,
        params: toJson.scenarioParams(scenarios[0]!.params),
      },
    });
    const small = await launchAndEnqueue(
      { db, queue },
      {
        teamId: other.id,
        targetId: t.id,
        poolConfigIds: [p.id],
        scenarioIds: [s.id],
        repeats: 1,
        name: 'one',
      },
    );
    // one worker takes jobs one at a time, as the fleet's worker does
    const taken: string[] = [];
    const conn = workerConnection(process.env.REDIS_URL ?? 'redis://127.0.0.1:63799');
    const worker = new BullWorker(queue.name, null, { connection: conn, prefix, concurrency: 1 });
    for (let i = 0; i < 3; i++) {
      const job = await worker.getNextJob(`tok${i}`);
      taken.push(job!.id!);
      await job!.moveToCompleted('ok', `tok${i}`, false);
    }
    // the small team's only run starts within the first two jobs, not after 300
    expect(taken.slice(0, 2)).toContain(small.runIds[0]);
    await worker.close();
    conn.disconnect();

    // and the big experiment is canceled in one call: every queued run and its job at once
    const r = await cancelExperiment({ db, queue, redis }, ids.teamId, bigTeam.experimentId);
    expect(r).toMatchObject({ canceled: 300, cancelRequested: 0 });
    expect(
      await db.run.count({ where: { experimentId: bigTeam.experimentId, status: 'queued' } }),
    ).toBe(0);
    expect(await queue.getJobCountByTypes('prioritized', 'waiting')).toBe(0);
    const exp = await db.experiment.findUniqueOrThrow({ where: { id: bigTeam.experimentId } });
    expect(exp.status).toBe('canceled');
    // canceling again changes nothing
    expect(await cancelExperiment({ db, queue, redis }, ids.teamId, bigTeam.experimentId)).toEqual({
      canceled: 0,
      cancelRequested: 0,
      alreadyFinished: 300,
    });
    // another team's experiment is not found
    expect(await cancelExperiment({ db, queue, redis }, other.id, bigTeam.experimentId)).toBeNull();
    await queue.obliterate({ force: true });
    await queue.close();
  });

  it('an active run of a canceled experiment gets the cancel flag, not a status it did not reach', async () => {
    const { configs, scenarios } = await cells();
    const e = await launch(ids.teamId, ids.targetId, [configs[0]!.id], [scenarios[0]!.id], 2);
    const [running] = e.runIds;
    await db.run.update({
      where: { id: running! },
      data: { status: 'running', startedAt: new Date() },
    });
    const queue = createRunQueue(redis, `pbt-fleet-${Date.now()}`);
    const r = await cancelExperiment({ db, queue, redis }, ids.teamId, e.experimentId);
    expect(r).toEqual({ canceled: 1, cancelRequested: 1, alreadyFinished: 0 });
    const run = await db.run.findUniqueOrThrow({ where: { id: running! } });
    expect(run.status).toBe('running');
    expect(run.cancelRequestedAt).not.toBeNull();
    await queue.close();
  });
});

/**
 * The installation's queue (real Postgres): many accounts claim one installation's worth of load
 * together, not one team limit each, and once it is full every team still gets its fair share.
 */
describe("the installation's queued load, shared fairly", () => {
  let db: Db;
  let dispose: () => Promise<void>;
  beforeAll(async () => {
    const t = await withTempDatabase('runs_fleet_installation');
    dispose = t.dispose;
    db = createDb({ url: t.url, max: 3 });
    process.env.POOLBENCH_QUEUED_LOAD_MINUTES = '10';
  });
  afterAll(async () => {
    delete process.env.POOLBENCH_QUEUED_LOAD_MINUTES;
    await db?.$disconnect();
    await dispose?.();
  });

  /** A team with a target, a config and a one-minute scenario: each run is 1 min of load. */
  async function newTeam(label: string) {
    const team = await db.team.create({ data: { name: label, slug: `${label}-${Date.now()}` } });
    const target = await db.target.create({
      data: { teamId: team.id, name: 't', kind: 'managed', requestDefaults: {} },
    });
    const pc = await db.poolConfig.create({
      data: { teamId: team.id, targetId: target.id, name: 'p', strategy: 'lazy', params: {} },
    });
    const sc = await db.scenario.create({
      data: {
        teamId: team.id,
        name: 'one minute',
        ...scenarioRowData({
          template: 'sustained',
          params: { vus: 1, durationMs: 60_000 },
          requests: [{ path: '/health' }],
        }),
      },
    });
    return (repeats: number) =>
      launchExperiment(db, {
        teamId: team.id,
        targetId: target.id,
        poolConfigIds: [pc.id],
        scenarioIds: [sc.id],
        repeats,
        name: label,
      });
  }

  it('refuses a team past its fair share once the installation is full, never one within it', async () => {
    const [a, b] = [await newTeam('inst-a'), await newTeam('inst-b')];
    await expect(a(8)).resolves.toBeTruthy(); // 8 of the installation's 10 min
    // 11 min would pass the installation's 10, and team A alone may have all 10
    const refused = await a(3).catch((e: unknown) => e);
    expect(refused).toMatchObject({ path: 'repeats' });
    expect((refused as Error).message).toMatch(
      /the installation's queue is full \(8 min of its 10 min queued by 1 team\); this team may add load up to its fair share of 10 min and has 8 min queued/,
    );
    // team B is within its fair share (10 / 2 teams): it gets in although the queue is full
    await expect(b(4)).resolves.toBeTruthy();
    await expect(b(2)).rejects.toMatchObject({ path: 'repeats' });
    await expect(a(1)).rejects.toMatchObject({ path: 'repeats' });
    // each team's own limit still applies first
    expect(await db.run.count({ where: { status: 'queued' } })).toBe(12);
  });
});
