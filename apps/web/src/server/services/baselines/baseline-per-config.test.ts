import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseScheduleNotification, type Db } from '@poolbench/db';
import { decideScheduleOutcome } from '@poolbench/runs';
import { withTempDatabase } from '~/test/temp-database';
import { makeTeam, type TeamFixture } from '~/test/fixtures';
import { gateExperiment } from '~/server/services/ci/gate-experiment';
import { scheduleBaselineCells } from '~/server/services/schedules/schedule-baseline-cells';
import { trendSeries } from '~/server/services/trends/trend-series';
import { measuredSyntheticExperiment } from '~/server/services/compare/testing/synthetic-runs';
import { saveBaseline } from '~/server/services/ci/save-baseline';
import { setBaseline } from './set-baseline';
import { listBaselines } from './list-baselines';

/**
 * A baseline belongs to the pool config it was saved from. Saving `main` on config B's card after
 * config A's must leave A's `main` where it was, and a schedule, the Notify dialog, the CI gate and
 * Trends must each compare a config with its own. (With one baseline per target and scenario, the
 * second save moved the first, and A was then compared with B's runs.)
 */
describe('baselines per pool config (real Postgres)', () => {
  let db: Db;
  let dispose: () => Promise<void>;
  let T: TeamFixture;
  beforeAll(async () => {
    ({ db, dispose } = await withTempDatabase('web_baseline_per_config'));
    T = await makeTeam(db, 'bpc');
  });
  afterAll(async () => dispose?.());

  // a fast config A (10 ms) and a slow one B (40 ms), measured `repeats` times each
  const experiment = async (seed: number, reuse: { id: string; name: string }[] = []) => {
    const e = await measuredSyntheticExperiment(db, T, {
      configs: [reuse[0] ?? 'fast A', reuse[1] ?? 'slow B'],
      latencyMs: [10, 40],
      repeats: 4,
      seconds: 20,
      seed,
    });
    await db.experiment.update({
      where: { id: e.experimentId },
      data: { status: 'completed', finishedAt: new Date() },
    });
    return e;
  };

  it('saving main on B after A keeps both, and every reader compares each config with its own', async () => {
    const base = await experiment(1);
    const [a, b] = base.poolConfigs as [{ id: string; name: string }, { id: string; name: string }];
    const cell = (poolConfigId: string) =>
      ({
        kind: 'cell',
        experimentId: base.experimentId,
        poolConfigId,
        scenarioId: T.scenarioId,
      }) as const;
    const savedA = await setBaseline(db, T.teamId, T.users.owner.id, {
      name: 'main',
      item: cell(a.id),
    });
    const savedB = await setBaseline(db, T.teamId, T.users.owner.id, {
      name: 'main',
      item: cell(b.id),
    });
    expect(savedB.id).not.toBe(savedA.id);
    // saving A again moves A's own, nothing else
    const againA = await setBaseline(db, T.teamId, T.users.owner.id, {
      name: 'main',
      item: cell(a.id),
    });
    expect(againA.id).toBe(savedA.id);
    const listed = await listBaselines(db, T.teamId, { targetId: T.targetId });
    expect(listed.map((x) => [x.name, x.poolConfigId]).sort()).toEqual(
      [
        ['main', a.id],
        ['main', b.id],
      ].sort(),
    );

    // a scheduled firing of the same two configs, each as fast as before: a pass. Compared with
    // the other config's baseline, A would be "better" and B a 4x regression.
    const fired = await experiment(100, base.poolConfigs);
    const schedule = await db.schedule.create({
      data: {
        teamId: T.teamId,
        name: 'nightly',
        sourceExperimentId: base.experimentId,
        cron: '0 3 * * *',
        baselineName: 'main',
      },
    });
    await db.experiment.update({
      where: { id: fired.experimentId },
      data: { scheduleId: schedule.id },
    });

    const cells = await scheduleBaselineCells(db, T.teamId, schedule.id, 'main');
    expect(cells.map((c) => [c.poolConfig.name, c.baseline?.from])).toEqual([
      [a.name, a.name],
      [b.name, b.name],
    ]);
    expect(await scheduleBaselineCells(db, T.teamId, schedule.id, 'other')).toEqual(
      cells.map((c) => ({ ...c, baseline: null })),
    );

    // (A/A on 4 synthetic runs each may leave a metric suspected; never a regression)
    expect(await decideScheduleOutcome(db, fired.experimentId)).not.toBe('regression');
    const n = parseScheduleNotification(
      await db.scheduleNotification.findUniqueOrThrow({
        where: { experimentId: fired.experimentId },
      }),
    );
    const p50 = (c: NonNullable<typeof n.payload>['cells'][number]) =>
      c.metrics.find((m) => m.key === 'p50Ms')!.baselineMedian!;
    expect(n.payload!.cells.map((c) => [c.poolConfig, c.baselineRuns])).toEqual([
      [a.name, 4],
      [b.name, 4],
    ]);
    // each cell's baseline is its own config's runs: about 10 ms for A, 40 ms for B
    expect(p50(n.payload!.cells[0]!)).toBeLessThan(20);
    expect(p50(n.payload!.cells[1]!)).toBeGreaterThan(30);

    const gate = await gateExperiment(db, T.teamId, fired.experimentId, { baseline: 'main' });
    expect(gate.outcome).not.toBe('regression');
    expect(gate.cells.map((c) => [c.poolConfig?.id, c.baseline?.poolConfig?.id])).toEqual([
      [a.id, a.id],
      [b.id, b.id],
    ]);

    const trendBaselineP95 = async (poolConfigId: string) => {
      const series = await trendSeries(
        db,
        T.teamId,
        { targetId: T.targetId, scenarioId: T.scenarioId, poolConfigId },
        { baseline: 'main' },
      );
      expect(series.baseline?.experimentId).toBe(base.experimentId);
      return series.baseline!.medians.p95Ms!;
    };
    // each config's own runs of the baseline experiment: A's p95 well below B's
    expect(await trendBaselineP95(a.id)).toBeLessThan(0.6 * (await trendBaselineP95(b.id)));
  });

  it('saving an experiment as a baseline (CI, REST) gives every config its own', async () => {
    const e = await experiment(900);
    const saved = await saveBaseline(db, {
      teamId: T.teamId,
      userId: T.users.owner.id,
      name: 'ci',
      experimentId: e.experimentId,
    });
    expect(saved.baselines.map((b) => b.poolConfig.id)).toEqual(e.poolConfigs.map((p) => p.id));
    const only = await saveBaseline(db, {
      teamId: T.teamId,
      userId: T.users.owner.id,
      name: 'ci',
      experimentId: e.experimentId,
      poolConfig: e.poolConfigs[1]!.name,
    });
    expect(only.baselines.map((b) => b.id)).toEqual([saved.baselines[1]!.id]);
  });

  it('a run whose pool config was deleted cannot become a baseline, with the reason', async () => {
    const e = await experiment(500);
    const run = await db.run.findFirstOrThrow({ where: { experimentId: e.experimentId } });
    await db.run.update({ where: { id: run.id }, data: { poolConfigId: null } });
    await expect(
      setBaseline(db, T.teamId, T.users.owner.id, {
        name: 'main',
        item: { kind: 'run', runId: run.id },
      }),
    ).rejects.toThrow(/pool config of this run was deleted/);
  });
});
