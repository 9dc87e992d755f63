import { createDb, parseScheduleNotification, type Db } from '@poolbench/db';
import { seed } from '../seed/seed';
import { withTempDatabase } from '@poolbench/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { summaryWith } from '../testing/summary-with';
import { launchExperiment, relaunchExperiment } from '../launch-experiment';
import { claimRun, finishRun, markRunning } from '../run-transitions';
import { decideOverdueScheduleOutcomes, decideScheduleOutcome } from './schedule-outcome';

describe('a scheduled experiment against its baseline (real Postgres)', () => {
  let db: Db;
  let dispose: () => Promise<void>;
  let ids: Awaited<ReturnType<typeof seed>>;
  let A: string;
  let S: string;
  beforeAll(async () => {
    const t = await withTempDatabase('runs_schedule_outcome');
    dispose = t.dispose;
    db = createDb({ url: t.url, max: 4 });
    ids = await seed(db);
    A = (
      await db.poolConfig.findFirstOrThrow({
        where: { teamId: ids.teamId, name: { startsWith: '004' } },
        orderBy: { name: 'asc' },
      })
    ).id;
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

  /** Ends each run as `how` says (cycling): its status, p99 and, for thresholds_failed, a failed p95. */
  const endRuns = async (
    runIds: string[],
    how: { status: 'succeeded' | 'thresholds_failed' | 'failed'; p99: number }[],
  ) => {
    for (const [i, id] of runIds.entries()) {
      const h = how[i % how.length]!;
      await claimRun(db, id, 'w');
      await markRunning(db, id, 'w', { script: 's', environment: {} });
      await finishRun(db, id, 'w', {
        status: h.status,
        summary: summaryWith(h.p99 * (1 + (i % 5) / 100), 1000),
        ...(h.status === 'thresholds_failed'
          ? {
              errorCode: 'thresholds_failed',
              thresholdResults: [
                { metric: 'http_req_duration', expr: 'p(95)<50', observed: 80, pass: false },
                { metric: 'http_req_failed', expr: 'rate<0.01', observed: 0, pass: true },
              ],
            }
          : {}),
      });
    }
  };
  const runAll = (runIds: string[], p99: number) => endRuns(runIds, [{ status: 'succeeded', p99 }]);
  const notification = async (experimentId: string) => {
    const n = await db.scheduleNotification.findUnique({ where: { experimentId } });
    return n ? parseScheduleNotification(n) : null;
  };

  let scheduleId: string;
  it('setup: a baseline "nightly" of 5 runs at p99 30 ms and a schedule compared with it, with a webhook', async () => {
    const base = await launchExperiment(db, {
      teamId: ids.teamId,
      targetId: ids.targetId,
      poolConfigIds: [A],
      scenarioIds: [S],
      repeats: 5,
      name: 'base',
    });
    await runAll(base.runIds, 30);
    await db.baseline.create({
      data: {
        teamId: ids.teamId,
        name: 'nightly',
        targetId: ids.targetId,
        scenarioId: S,
        experimentId: base.experimentId,
        poolConfigId: A,
      },
    });
    const def = await launchExperiment(db, {
      teamId: ids.teamId,
      targetId: ids.targetId,
      poolConfigIds: [A],
      scenarioIds: [S],
      repeats: 5,
      name: 'def',
    });
    await db.run.deleteMany({ where: { experimentId: def.experimentId } });
    scheduleId = (
      await db.schedule.create({
        data: {
          teamId: ids.teamId,
          name: 'nightly check',
          sourceExperimentId: def.experimentId,
          cron: '0 3 * * *',
          baselineName: 'nightly',
          webhookUrlSealed: new Uint8Array([1, 2, 3]),
          webhookHost: 'hooks.example.com',
        },
      })
    ).id;
  });

  const fireSchedule = async (name: string) => {
    const s = await db.schedule.findUniqueOrThrow({ where: { id: scheduleId } });
    return relaunchExperiment(db, s.sourceExperimentId, { teamId: ids.teamId, scheduleId, name });
  };

  it('a firing 3x slower is a regression, decided when its last run ends, pending delivery, with the evidence', async () => {
    const l = await fireSchedule('slow');
    await runAll(l.runIds.slice(0, -1), 90);
    expect(await notification(l.experimentId)).toBeNull();
    await runAll(l.runIds.slice(-1), 90);
    const n = await notification(l.experimentId);
    expect(n).toMatchObject({ outcome: 'regression', status: 'pending', scheduleId });
    expect(n!.payload).toMatchObject({
      event: 'schedule.regression',
      baseline: 'nightly',
      experiment: { path: `/experiments/${l.experimentId}` },
    });
    const cell = n!.payload!.cells[0]!;
    expect(cell).toMatchObject({ baselineRuns: 5, candidateRuns: 5, regression: true });
    const p99 = cell.metrics.find((m) => m.key === 'p99Ms')!;
    expect(p99.verdict).toBe('worse');
    expect(p99.changePercent!.estimate).toBeGreaterThan(150);
    // deciding again changes nothing: one notification per experiment
    expect(await decideScheduleOutcome(db, l.experimentId)).toBeNull();
    expect(await db.scheduleNotification.count({ where: { experimentId: l.experimentId } })).toBe(
      1,
    );
  });

  it('a firing like the baseline passes and needs no webhook call (notifyOn = regression)', async () => {
    const l = await fireSchedule('same');
    await runAll(l.runIds, 30);
    expect(await notification(l.experimentId)).toMatchObject({
      outcome: 'pass',
      status: 'not_needed',
      nextAttemptAt: null,
    });
  });

  it('without a baseline of that name: no-baseline, sent when notifyOn = always; nothing without a webhook', async () => {
    await db.schedule.update({
      where: { id: scheduleId },
      data: { baselineName: 'weekly', notifyOn: 'always' },
    });
    const l = await fireSchedule('nobase');
    await runAll(l.runIds, 90);
    expect(await notification(l.experimentId)).toMatchObject({
      outcome: 'no-baseline',
      status: 'pending',
    });
    await db.schedule.update({
      where: { id: scheduleId },
      data: { baselineName: 'nightly', webhookUrlSealed: null },
    });
    const m = await fireSchedule('nohook');
    await runAll(m.runIds, 90);
    expect(await notification(m.experimentId)).toMatchObject({
      outcome: 'regression',
      status: 'not_needed',
    });
  });

  it('the sweeper decides a finished scheduled experiment that was left undecided (its worker died first)', async () => {
    await db.schedule.update({
      where: { id: scheduleId },
      data: { webhookUrlSealed: new Uint8Array([1]), notifyOn: 'regression' },
    });
    const l = await fireSchedule('orphan');
    await runAll(l.runIds, 90);
    await db.scheduleNotification.delete({ where: { experimentId: l.experimentId } });
    expect(await decideOverdueScheduleOutcomes(db)).toEqual([l.experimentId]);
    expect(await notification(l.experimentId)).toMatchObject({
      outcome: 'regression',
      status: 'pending',
    });
    expect(await decideOverdueScheduleOutcomes(db)).toEqual([]);
  });

  it('about 10x worse on 2 surviving runs is incomplete, naming the crashed runs, never a pass', async () => {
    const l = await fireSchedule('ten times');
    // two measured runs at 10x the baseline; the other three failed before measuring
    await endRuns(l.runIds, [
      { status: 'succeeded', p99: 300 },
      { status: 'succeeded', p99: 300 },
      { status: 'failed', p99: 300 },
      { status: 'failed', p99: 300 },
      { status: 'failed', p99: 300 },
    ]);
    const n = await notification(l.experimentId);
    expect(n).toMatchObject({ outcome: 'incomplete', status: 'pending' });
    expect(n!.payload!.event).toBe('schedule.finished');
    const cell = n!.payload!.cells[0]!;
    expect(cell).toMatchObject({
      state: 'incomplete',
      candidateRuns: 2,
      crashedRuns: 3,
      regression: false,
    });
    expect(cell.incomplete).toMatch(/^3 of 5 candidate runs crashed/);
    // 5 vs 2 runs: one-sided p at best 1/21, times 4 primaries, so p99 cannot even be suspected
    const p99 = cell.metrics.find((m) => m.key === 'p99Ms')!;
    expect(p99).toMatchObject({ verdict: 'inconclusive', suspected: false });
    expect(p99.changePercent!.estimate).toBeGreaterThan(500);
  });

  it('a run that failed a threshold makes a regression, named with its run, even when the numbers match the baseline', async () => {
    const l = await fireSchedule('thresholds');
    await endRuns(l.runIds, [
      { status: 'succeeded', p99: 30 },
      { status: 'thresholds_failed', p99: 30 },
    ]);
    const n = await notification(l.experimentId);
    expect(n).toMatchObject({ outcome: 'regression', status: 'pending' });
    const cell = n!.payload!.cells[0]!;
    expect(cell.state).toBe('regression');
    expect(cell.metrics.some((m) => m.verdict === 'worse')).toBe(false);
    const failedRuns = (
      await db.run.findMany({
        where: { experimentId: l.experimentId, status: 'thresholds_failed' },
        select: { id: true },
        // the order the outcome lists them in
        orderBy: [{ repeatIndex: 'asc' }, { id: 'asc' }],
      })
    ).map((r) => r.id);
    expect(failedRuns).toHaveLength(2);
    expect(cell.failedThresholds).toEqual(
      failedRuns.map((runId) => ({
        runId,
        metric: 'http_req_duration',
        expr: 'p(95)<50',
        observed: 80,
      })),
    );
  });

  it('a 1-run baseline and an 8x slower firing is incomplete with the reason, never a pass', async () => {
    const one = await db.run.findFirstOrThrow({
      where: { experiment: { name: 'base' }, teamId: ids.teamId, status: 'succeeded' },
      select: { id: true },
    });
    await db.baseline.create({
      data: {
        teamId: ids.teamId,
        name: 'one-run',
        targetId: ids.targetId,
        scenarioId: S,
        runId: one.id,
        poolConfigId: A,
      },
    });
    await db.schedule.update({ where: { id: scheduleId }, data: { baselineName: 'one-run' } });
    try {
      const l = await fireSchedule('eight times on one baseline run');
      await runAll(l.runIds, 240);
      const n = await notification(l.experimentId);
      // sent even with notifyOn = regression: a check that could not be judged is news
      expect(n).toMatchObject({ outcome: 'incomplete', status: 'pending' });
      expect(n!.payload!.cells[0]).toMatchObject({
        state: 'incomplete',
        baselineRuns: 1,
        candidateRuns: 5,
        incomplete: '1 measured run of the baseline; the test needs at least 2 per side',
      });
    } finally {
      await db.schedule.update({ where: { id: scheduleId }, data: { baselineName: 'nightly' } });
    }
  });

  it('2 of 3 runs crashed and the survivor 10x slower: incomplete, never judged on the survivor', async () => {
    const l = await fireSchedule('two of three crashed');
    await db.run.deleteMany({ where: { id: { in: l.runIds.slice(3) } } });
    await endRuns(l.runIds.slice(0, 3), [
      { status: 'succeeded', p99: 300 },
      { status: 'failed', p99: 300 },
      { status: 'failed', p99: 300 },
    ]);
    const n = await notification(l.experimentId);
    expect(n).toMatchObject({ outcome: 'incomplete' });
    const cell = n!.payload!.cells[0]!;
    expect(cell).toMatchObject({ state: 'incomplete', candidateRuns: 1, crashedRuns: 2 });
    expect(cell.incomplete).toMatch(/^2 of 3 candidate runs crashed/);
  });

  it("a baseline saved from another pool config is not this config's baseline", async () => {
    const B = (
      await db.poolConfig.findFirstOrThrow({
        where: { teamId: ids.teamId, targetId: ids.targetId, id: { not: A } },
      })
    ).id;
    const other = await launchExperiment(db, {
      teamId: ids.teamId,
      targetId: ids.targetId,
      poolConfigIds: [A, B],
      scenarioIds: [S],
      repeats: 3,
      name: 'two configs',
    });
    await runAll(other.runIds, 30);
    // saved on B's card: a baseline of B only, though the experiment also ran A
    await db.baseline.create({
      data: {
        teamId: ids.teamId,
        name: 'b-only',
        targetId: ids.targetId,
        scenarioId: S,
        experimentId: other.experimentId,
        poolConfigId: B,
      },
    });
    await db.schedule.update({ where: { id: scheduleId }, data: { baselineName: 'b-only' } });
    const l = await fireSchedule('config A against b-only');
    await runAll(l.runIds, 30);
    const n = await notification(l.experimentId);
    expect(n!.outcome).toBe('no-baseline');
    expect(n!.payload!.cells[0]).toMatchObject({ baselineRuns: 0, metrics: [] });
  });

  it('settles an incomplete firing when asked: adds repeats once up to the set number, then decides on all of them', async () => {
    await db.schedule.update({
      where: { id: scheduleId },
      data: { baselineName: 'nightly', settleUpToRepeats: 8 },
    });
    const l = await fireSchedule('settle');
    await endRuns(l.runIds, [
      { status: 'succeeded', p99: 300 },
      { status: 'succeeded', p99: 300 },
      { status: 'failed', p99: 300 },
      { status: 'failed', p99: 300 },
      { status: 'failed', p99: 300 },
    ]);
    // incomplete (3 of 5 crashed): not decided yet, the firing grew to 8 repeats with 3 new queued runs
    expect(await notification(l.experimentId)).toBeNull();
    const added = await db.run.findMany({
      where: { experimentId: l.experimentId, status: 'queued' },
      select: { id: true },
      orderBy: { sequence: 'asc' },
    });
    expect(added).toHaveLength(3);
    expect((await db.experiment.findUniqueOrThrow({ where: { id: l.experimentId } })).repeats).toBe(
      8,
    );
    await runAll(
      added.map((r) => r.id),
      300,
    );
    const n = await notification(l.experimentId);
    expect(n).toMatchObject({ outcome: 'regression', status: 'pending' });
    expect(n!.payload!.repeats).toBe(8);
    expect(n!.payload!.cells[0]).toMatchObject({ candidateRuns: 5, state: 'regression' });
    // decided once: nothing grows again
    expect((await db.experiment.findUniqueOrThrow({ where: { id: l.experimentId } })).repeats).toBe(
      8,
    );
  });
});
