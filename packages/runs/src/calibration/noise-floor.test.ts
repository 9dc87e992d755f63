import { createDb, type Db } from '@poolbench/db';
import { seed } from '../seed/seed';
import { withTempDatabase } from '@poolbench/db/testing';
import { measureNoiseFloor } from '@poolbench/stats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { summaryWith } from '../testing/summary-with';
import { launchExperiment } from '../launch-experiment';
import { claimRun, finishRun, markRunning } from '../run-transitions';
import { decideExperimentHypotheses } from '../hypotheses/decide-hypotheses';
import {
  calibrationSides,
  latestNoiseFloors,
  launchCalibration,
  noiseFloorKey,
  recordNoiseFloor,
  recordOverdueNoiseFloors,
} from './noise-floor';

describe('A/A calibration (real Postgres)', () => {
  let db: Db;
  let dispose: () => Promise<void>;
  let ids: Awaited<ReturnType<typeof seed>>;
  let A: string;
  let B: string;
  let S: string;
  beforeAll(async () => {
    const t = await withTempDatabase('runs_calibration');
    dispose = t.dispose;
    db = createDb({ url: t.url, max: 6 });
    ids = await seed(db);
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
    await db?.$disconnect();
    await dispose?.();
  });

  // p99 by run: side A (repeats 0, 3, 4, 7, 8 of a calibration) 100, 96, 92, 99, 95 and side B
  // 104, 110, 101, 107, 103, so the sides differ a little, like real runs
  const P99 = [100, 104, 110, 96, 92, 101, 107, 99, 95, 103];
  const runAll = async (runIds: string[], fail: number[] = []) => {
    for (const [i, id] of runIds.entries()) {
      await claimRun(db, id, 'w');
      await markRunning(db, id, 'w', { script: 's', environment: {} });
      await finishRun(
        db,
        id,
        'w',
        fail.includes(i)
          ? { status: 'failed', errorCode: 'k6_failed', errorMessage: 'k6 exited 107' }
          : { status: 'succeeded', summary: summaryWith(P99[i % P99.length]!, 1000 + i) },
      );
    }
  };

  it('launches one config against itself, 2n runs in a row, and refuses what is not an A/A', async () => {
    const l = await launchCalibration(db, {
      teamId: ids.teamId,
      targetId: ids.targetId,
      poolConfigId: A,
      scenarioId: S,
      runsPerSide: 5,
    });
    const e = await db.experiment.findUniqueOrThrow({
      where: { id: l.experimentId },
      include: { runs: { orderBy: { sequence: 'asc' } } },
    });
    expect(e).toMatchObject({ noiseCalibration: true, repeats: 10, order: 'counterbalanced' });
    expect(e.name).toMatch(/^A\/A calibration · 004/);
    expect(e.runs.map((r) => r.repeatIndex)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(new Set(e.runs.map((r) => r.poolConfigId))).toEqual(new Set([A]));
    const base = { teamId: ids.teamId, targetId: ids.targetId, poolConfigId: A, scenarioId: S };
    await expect(launchCalibration(db, { ...base, runsPerSide: 4 })).rejects.toMatchObject({
      path: 'runsPerSide',
    });
    await expect(launchCalibration(db, { ...base, runsPerSide: 5.5 })).rejects.toMatchObject({
      path: 'runsPerSide',
    });
    await expect(
      launchExperiment(db, {
        ...base,
        poolConfigIds: [A, B],
        scenarioIds: [S],
        repeats: 10,
        name: 'x',
        noiseCalibration: true,
      }),
    ).rejects.toMatchObject({ path: 'poolConfigIds' });
    await expect(
      launchExperiment(db, {
        ...base,
        poolConfigIds: [A],
        scenarioIds: [S],
        repeats: 9,
        name: 'x',
        noiseCalibration: true,
      }),
    ).rejects.toMatchObject({ path: 'repeats' });
    // another team's config is not found, as everywhere
    await expect(
      launchCalibration(db, { ...base, teamId: 'someone-else', runsPerSide: 5 }),
    ).rejects.toMatchObject({ name: 'NotFoundError' });
  });

  // the sides of 10 runs in counterbalanced pairs: A B, B A, A B, B A, A B
  const SIDE_A = [0, 3, 4, 7, 8];
  const SIDE_B = [1, 2, 5, 6, 9];

  it('stores the floor of side A against side B (pairs taking turns) when the last run ends, once', async () => {
    const l = await launchCalibration(db, {
      teamId: ids.teamId,
      targetId: ids.targetId,
      poolConfigId: A,
      scenarioId: S,
      runsPerSide: 5,
    });
    expect(await recordNoiseFloor(db, l.experimentId)).toBe('not-finished');
    // a failed run is not a sample: side A has 4 runs
    await runAll(l.runIds, [3]);
    // finishRun's afterRunEnded stored it already
    expect(await recordNoiseFloor(db, l.experimentId)).toBe('exists');
    const stored = await db.noiseFloor.findUniqueOrThrow({
      where: { experimentId: l.experimentId },
    });
    expect(stored).toMatchObject({
      targetId: ids.targetId,
      scenarioId: S,
      poolConfigId: A,
      runsPerSide: 4,
    });
    // the same numbers as measuring the two sides by hand
    const runs = await db.run.findMany({ where: { experimentId: l.experimentId } });
    const bySide = (side: number[]) =>
      P99.slice(0, 10)
        .map((v, i) => ({ v, i }))
        .filter(({ i }) => side.includes(i) && i !== 3)
        .map(({ v, i }) => summaryWith(v, 1000 + i));
    const expected = measureNoiseFloor(
      { label: 'A', summaries: bySide(SIDE_A) },
      { label: 'B', summaries: bySide(SIDE_B) },
    );
    expect(stored.metrics).toEqual(JSON.parse(JSON.stringify(expected)));
    const sides = calibrationSides(
      runs.map((r) => ({ repeatIndex: r.repeatIndex, status: r.status, summary: null })),
      'counterbalanced',
    );
    expect([sides.a.length, sides.b.length]).toEqual([4, 5]);
    // a calibration launched interleaved has A first in every pair: the even repeats
    const interleaved = calibrationSides(
      runs.map((r) => ({ repeatIndex: r.repeatIndex, status: r.status, summary: null })),
      'interleaved',
    );
    expect([interleaved.a.length, interleaved.b.length]).toEqual([5, 4]);

    const floors = await latestNoiseFloors(db, ids.teamId, [
      { targetId: ids.targetId, scenarioId: S },
    ]);
    expect(floors.get(noiseFloorKey(ids.targetId, S))?.experimentId).toBe(l.experimentId);
    // read in the team only
    expect(
      (await latestNoiseFloors(db, 'other-team', [{ targetId: ids.targetId, scenarioId: S }])).size,
    ).toBe(0);
  });

  it('the sweeper stores a floor a crash left unstored; a normal experiment never gets one', async () => {
    const l = await launchCalibration(db, {
      teamId: ids.teamId,
      targetId: ids.targetId,
      poolConfigId: A,
      scenarioId: S,
      runsPerSide: 5,
    });
    await runAll(l.runIds);
    await db.noiseFloor.delete({ where: { experimentId: l.experimentId } });
    expect(await recordOverdueNoiseFloors(db)).toEqual([l.experimentId]);
    expect(await recordOverdueNoiseFloors(db)).toEqual([]);
    const normal = await launchExperiment(db, {
      teamId: ids.teamId,
      targetId: ids.targetId,
      poolConfigIds: [A],
      scenarioIds: [S],
      repeats: 2,
      name: 'plain',
    });
    await runAll(normal.runIds);
    expect(await recordNoiseFloor(db, normal.experimentId)).toBe('not-calibration');
  });

  it('a calibration that measured too little stores an empty floor: the sweeper is done with it and it hides no earlier floor', async () => {
    const before = await latestNoiseFloors(db, ids.teamId, [
      { targetId: ids.targetId, scenarioId: S },
    ]);
    const l = await launchCalibration(db, {
      teamId: ids.teamId,
      targetId: ids.targetId,
      poolConfigId: A,
      scenarioId: S,
      runsPerSide: 5,
    });
    // every run of side B fails: no interval for any metric
    await runAll(l.runIds, SIDE_B);
    expect(await recordNoiseFloor(db, l.experimentId)).toBe('exists');
    const stored = await db.noiseFloor.findUniqueOrThrow({
      where: { experimentId: l.experimentId },
    });
    expect(stored.metrics).toEqual([]);
    expect(await recordOverdueNoiseFloors(db)).toEqual([]);
    const after = await latestNoiseFloors(db, ids.teamId, [
      { targetId: ids.targetId, scenarioId: S },
    ]);
    expect(after.get(noiseFloorKey(ids.targetId, S))?.experimentId).toBe(
      before.get(noiseFloorKey(ids.targetId, S))?.experimentId,
    );
  });

  it('an unresolved hypothesis whose band is inside the noise floor says so; its decision is unchanged', async () => {
    const floor = (
      await latestNoiseFloors(db, ids.teamId, [{ targetId: ids.targetId, scenarioId: S }])
    ).get(noiseFloorKey(ids.targetId, S))!;
    const l = await launchExperiment(db, {
      teamId: ids.teamId,
      targetId: ids.targetId,
      poolConfigIds: [A, B],
      scenarioIds: [S],
      repeats: 2,
      name: 'claims',
      hypotheses: [
        {
          base: { poolConfigId: A, scenarioId: S },
          candidate: { poolConfigId: B, scenarioId: S },
          metric: 'p99Ms',
          expect: 'better',
          band: 0.5,
        },
        {
          base: { poolConfigId: A, scenarioId: S },
          candidate: { poolConfigId: B, scenarioId: S },
          metric: 'p99Ms',
          expect: 'better',
          band: 500,
        },
      ],
    });
    await runAll(l.runIds);
    await decideExperimentHypotheses(db, l.experimentId);
    const [narrow, wide] = await db.hypothesis.findMany({
      where: { experimentId: l.experimentId },
      orderBy: { position: 'asc' },
    });
    expect(narrow!.status).toBe('unresolved');
    expect(narrow!.reason).toContain(`A/A noise floor of p99Ms on this target and scenario is ±`);
    expect(narrow!.reason).toContain(`calibration ${floor.experimentId}`);
    expect(narrow!.reason).toContain('wider than the 0.5 % claimed change');
    expect(wide!.reason).not.toContain('noise floor');
  });
});
