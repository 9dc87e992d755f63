import { createDb, parseScheduleNotification, type Db } from '@poolbench/db';
import { seed } from '../seed/seed';
import { withTempDatabase } from '@poolbench/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { summaryWith } from '../testing/summary-with';
import { launchExperiment, relaunchExperiment } from '../launch-experiment';
import { claimRun, finishRun, markRunning } from '../run-transitions';

// A schedule's outcome reads the cell's whole history too: a change point first seen at a firing
// is evidence of a regression beside the comparison with the baseline, reported once.
describe("a schedule's firings and the change points of their history (real Postgres)", () => {
  let db: Db;
  let dispose: () => Promise<void>;
  let ids: Awaited<ReturnType<typeof seed>>;
  let scheduleFor: (
    poolConfigId: string,
    baselineName: string | null,
    repeats?: number,
  ) => Promise<string>;
  beforeAll(async () => {
    const t = await withTempDatabase('runs_schedule_change_points');
    dispose = t.dispose;
    db = createDb({ url: t.url, max: 4 });
    ids = await seed(db);
    scheduleFor = async (poolConfigId, baselineName, repeats = 3) => {
      const S = (await db.scenario.findFirstOrThrow({ where: { teamId: ids.teamId } })).id;
      const def = await launchExperiment(db, {
        teamId: ids.teamId,
        targetId: ids.targetId,
        poolConfigIds: [poolConfigId],
        scenarioIds: [S],
        repeats,
        name: 'def',
      });
      await db.run.deleteMany({ where: { experimentId: def.experimentId } });
      return (
        await db.schedule.create({
          data: {
            teamId: ids.teamId,
            name: `nightly ${poolConfigId.slice(-4)}`,
            sourceExperimentId: def.experimentId,
            cron: '0 3 * * *',
            baselineName,
            webhookUrlSealed: new Uint8Array([1, 2, 3]),
            webhookHost: 'hooks.example.com',
          },
        })
      ).id;
    };
  });
  afterAll(async () => {
    await db?.$disconnect();
    await dispose?.();
  });

  /** Fires the schedule and ends its runs at `p99` ms (±1 %); returns the firing's notification. */
  const fire = async (scheduleId: string, name: string, p99: number) => {
    const s = await db.schedule.findUniqueOrThrow({ where: { id: scheduleId } });
    const l = await relaunchExperiment(db, s.sourceExperimentId, {
      teamId: ids.teamId,
      scheduleId,
      name,
    });
    for (const [i, id] of l.runIds.entries()) {
      await claimRun(db, id, 'w');
      await markRunning(db, id, 'w', { script: 's', environment: {} });
      await finishRun(db, id, 'w', {
        status: 'succeeded',
        summary: summaryWith(p99 * (1 + (i % 3) / 100), 1000),
      });
    }
    const n = await db.scheduleNotification.findUniqueOrThrow({
      where: { experimentId: l.experimentId },
    });
    return parseScheduleNotification(n);
  };
  const configs = async () =>
    db.poolConfig.findMany({
      where: { teamId: ids.teamId },
      orderBy: { name: 'asc' },
      select: { id: true },
    });

  it('no baseline, a step up in p99: the firing that shows it is a regression decided by the change point, once', async () => {
    const [pc] = await configs();
    const scheduleId = await scheduleFor(pc!.id, null);
    // five nightly firings at 30 ms, then 45 ms from the sixth on (a small +50 % step no single
    // firing is compared on: there is no baseline)
    const noise = [0, 1, -1, 2, -2, 0, 1, -1, 2, -2];
    const outcomes: string[] = [];
    for (let k = 0; k < 10; k++) {
      const n = await fire(scheduleId, `night ${k + 1}`, (k < 5 ? 30 : 45) * (1 + noise[k]! / 100));
      outcomes.push(`${n.outcome}${n.payload?.decidedBy ? `:${n.payload.decidedBy}` : ''}`);
      if (n.outcome === 'regression') {
        const cell = n.payload!.cells[0]!;
        expect(cell.evidence).toEqual(['change-point']);
        const p99 = cell.changePoints!.find((c) => c.metric === 'p99Ms')!;
        expect(p99).toMatchObject({
          kind: 'regression',
          before: { name: 'night 5' },
          after: { name: 'night 6' },
          firingsBefore: 5,
        });
        expect(p99.change).toBeGreaterThan(0.4);
      }
    }
    // seen at the third firing after the step (three on each side), and never again
    expect(outcomes).toEqual([
      ...Array(7).fill('no-baseline'),
      'regression:change-point',
      'no-baseline',
      'no-baseline',
    ]);
  });

  it('a steady history beside a baseline: no change point, the baseline decides', async () => {
    const [, pc] = await configs();
    const S = (await db.scenario.findFirstOrThrow({ where: { teamId: ids.teamId } })).id;
    const base = await launchExperiment(db, {
      teamId: ids.teamId,
      targetId: ids.targetId,
      poolConfigIds: [pc!.id],
      scenarioIds: [S],
      repeats: 5,
      name: 'base',
    });
    for (const [i, id] of base.runIds.entries()) {
      await claimRun(db, id, 'w');
      await markRunning(db, id, 'w', { script: 's', environment: {} });
      await finishRun(db, id, 'w', {
        status: 'succeeded',
        summary: summaryWith(30 * (1 + i / 100), 1000),
      });
    }
    await db.baseline.create({
      data: {
        teamId: ids.teamId,
        name: 'main',
        targetId: ids.targetId,
        scenarioId: S,
        experimentId: base.experimentId,
        poolConfigId: pc!.id,
      },
    });
    const scheduleId = await scheduleFor(pc!.id, 'main', 5);
    for (let k = 0; k < 7; k++) {
      const n = await fire(scheduleId, `steady ${k + 1}`, 30 * (1 + ((k % 3) - 1) / 100));
      expect(n.payload!.cells[0]!.changePoints).toEqual([]);
      expect(n.payload!.decidedBy).toBeNull();
    }
    // then three times slower: the baseline says so at once
    const slow = await fire(scheduleId, 'slow', 90);
    expect(slow.outcome).toBe('regression');
    expect(slow.payload!.decidedBy).toBe('baseline');
    expect(slow.payload!.cells[0]!.evidence).toEqual(['baseline']);
  });
});
