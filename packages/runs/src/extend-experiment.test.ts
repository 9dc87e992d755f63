import { createDb, roundOrder, type Db } from '@poolbench/db';
import { seed } from './seed/seed';
import { withTempDatabase } from '@poolbench/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { summaryWith } from './testing/summary-with';
import { extendExperiment } from './extend-experiment';
import { launchExperiment } from './launch-experiment';
import { claimRun, finishRun, markRunning } from './run-transitions';

describe('runs added later continue the experiment order (real Postgres)', () => {
  let db: Db;
  let dispose: () => Promise<void>;
  let ids: Awaited<ReturnType<typeof seed>>;
  let A: string;
  let B: string;
  let S: string;
  beforeAll(async () => {
    const t = await withTempDatabase('runs_extend_order');
    dispose = t.dispose;
    db = createDb({ url: t.url, max: 4 });
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

  /** The experiment's runs in execution order, as letters: A B B A … */
  const pattern = async (experimentId: string) =>
    (
      await db.run.findMany({
        where: { experimentId },
        orderBy: { sequence: 'asc' },
        select: { poolConfigId: true, repeatIndex: true },
      })
    ).map((r) => `${r.poolConfigId === A ? 'A' : 'B'}${r.repeatIndex}`);

  /** Ends every queued run as the worker would, one at a time, in order (identical numbers). */
  const runQueued = async (experimentId: string) => {
    const queued = await db.run.findMany({
      where: { experimentId, status: 'queued' },
      orderBy: { sequence: 'asc' },
      select: { id: true },
    });
    for (const r of queued) {
      expect(await claimRun(db, r.id, 'w')).toBe(true);
      expect(await markRunning(db, r.id, 'w', { script: 's', environment: {} })).toBe(true);
      await finishRun(db, r.id, 'w', { status: 'succeeded', summary: summaryWith(30, 1000) });
    }
    return queued.length;
  };

  const launch = (repeats: number, extra: Partial<Parameters<typeof launchExperiment>[1]> = {}) =>
    launchExperiment(db, {
      teamId: ids.teamId,
      targetId: ids.targetId,
      poolConfigIds: [A, B],
      scenarioIds: [S],
      repeats,
      name: 'order',
      ...extra,
    });

  it('a default experiment is counterbalanced, and its extension turns the order on from where it stopped', async () => {
    const l = await launch(3);
    expect(
      await db.experiment.findUniqueOrThrow({
        where: { id: l.experimentId },
        select: { order: true },
      }),
    ).toEqual({ order: 'counterbalanced' });
    expect(await pattern(l.experimentId)).toEqual(['A0', 'B0', 'B1', 'A1', 'A2', 'B2']);
    await runQueued(l.experimentId);
    const ext = await extendExperiment(
      { db, queue: null },
      { teamId: ids.teamId, experimentId: l.experimentId, addRepeats: 3 },
    );
    expect(ext.runIds).toHaveLength(6);
    // round 3 starts with B, as it would have in a launch of 6 repeats; A is first in 3 of 6 rounds
    expect(await pattern(l.experimentId)).toEqual([
      ...['A0', 'B0', 'B1', 'A1', 'A2', 'B2'],
      ...['B3', 'A3', 'A4', 'B4', 'B5', 'A5'],
    ]);
  });

  it('an interleaved experiment stays interleaved when extended', async () => {
    const l = await launch(2, { order: 'interleaved' });
    await runQueued(l.experimentId);
    await extendExperiment(
      { db, queue: null },
      { teamId: ids.teamId, experimentId: l.experimentId, addRepeats: 1 },
    );
    expect(await pattern(l.experimentId)).toEqual(['A0', 'B0', 'A1', 'B1', 'A2', 'B2']);
  });

  it('"until decided" adds its pairs in the counterbalanced order, each pair after a look', async () => {
    const l = await launch(2, { untilDecided: { maxRepeats: 6 } });
    // identical configs: the rule keeps asking for pairs until the budget (or a decision)
    for (let round = 0; round < 10 && (await runQueued(l.experimentId)) > 0; round++);
    const runs = await pattern(l.experimentId);
    const repeats = runs.length / 2;
    expect(repeats).toBeGreaterThan(2);
    const expected = Array.from({ length: repeats }, (_, r) =>
      roundOrder(2, r).map((c) => `${'AB'[c]}${r}`),
    ).flat();
    expect(runs).toEqual(expected);
    expect(expected.slice(4, 8)).toEqual(['A2', 'B2', 'B3', 'A3']);
  });
});
