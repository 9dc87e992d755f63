import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseRun, parseScheduleNotification, toJson, type Db } from '@poolbench/db';
import { decideScheduleOutcome } from '@poolbench/runs';
import { withTempDatabase } from '~/test/temp-database';
import { makeTeam, type TeamFixture } from '~/test/fixtures';
import { buildComparison } from '~/server/services/compare/build-comparison';
import { trendSeries } from '~/server/services/trends/trend-series';
import { measuredSyntheticExperiment } from '~/server/services/compare/testing/synthetic-runs';
import { gateExperiment } from './gate-experiment';

/**
 * Runs that did not offer their load (more than 1 % of their iterations dropped) are left out of
 * every verdict and named: the CI gate against a baseline and against another config, the
 * schedule's outcome, Trends and the compare view leave out the same runs with the same reasons,
 * and a cell left with too few valid runs is `incomplete`, saying which runs and why.
 */
describe('invalid runs are left out of verdicts and named (real Postgres)', () => {
  let db: Db;
  let dispose: () => Promise<void>;
  let A: TeamFixture;
  beforeAll(async () => {
    ({ db, dispose } = await withTempDatabase('web_invalid_runs'));
    A = await makeTeam(db, 'inv');
  });
  afterAll(async () => dispose?.());

  /** `repeats` runs of each config at `latency` ms, every one valid */
  const experiment = async (
    latency: number[],
    repeats: number,
    seed: number,
    reuse: { id: string; name: string }[] = [],
  ) =>
    measuredSyntheticExperiment(db, A, {
      configs: latency.map((_, i) => reuse[i] ?? `pc${i}`),
      latencyMs: latency,
      repeats,
      seconds: 12,
      seed,
    });

  /** k6 dropped `dropped` of 10 000 planned iterations in this run */
  const dropIterations = async (runId: string, dropped: number) => {
    const run = parseRun(
      await db.run.findUniqueOrThrow({ where: { id: runId }, select: { summary: true } }),
    );
    await db.run.update({
      where: { id: runId },
      data: {
        summary: toJson.runSummary({
          ...run.summary!,
          iterations: 10_000 - dropped,
          droppedIterations: dropped,
        }),
      },
    });
  };

  /** The compare view of one config's cell in two experiments, the first the baseline. */
  const compareCells = (baseId: string, firedId: string, poolConfigId: string) =>
    buildComparison(db, A.teamId, {
      items: [baseId, firedId].map((experimentId) => ({
        kind: 'cell' as const,
        experimentId,
        poolConfigId,
        scenarioId: A.scenarioId,
      })),
      baseline: 0,
      window: null,
    });

  const saveBaseline = async (experimentId: string, poolConfigId: string) =>
    db.baseline.create({
      data: {
        teamId: A.teamId,
        name: 'nightly',
        targetId: A.targetId,
        scenarioId: A.scenarioId,
        experimentId,
        poolConfigId,
      },
    });

  it('2 of 5 candidate runs invalid: incomplete everywhere, with the runs and why', async () => {
    const base = await experiment([10], 5, 1);
    await saveBaseline(base.experimentId, base.poolConfigs[0]!.id);
    const fired = await experiment([10], 5, 100, base.poolConfigs);
    const [r0, r1, r2, r3, r4] = fired.runs[0]!;
    await dropIterations(r1!, 320);
    await dropIterations(r3!, 150);
    // within the 1 % a run may drop: it counts
    await dropIterations(r4!, 100);
    const reason = `2 of 5 candidate runs invalid (more than 33 %): run ${r1}: load not offered (3.2 % of iterations dropped); run ${r3}: load not offered (1.5 % of iterations dropped); the valid ones do not stand for the config`;
    const invalidRuns = [
      {
        runId: r1,
        reasons: [
          { code: 'load-not-offered', message: 'load not offered (3.2 % of iterations dropped)' },
        ],
      },
      {
        runId: r3,
        reasons: [
          { code: 'load-not-offered', message: 'load not offered (1.5 % of iterations dropped)' },
        ],
      },
    ];

    // the CI gate
    const gate = await gateExperiment(db, A.teamId, fired.experimentId, { baseline: 'nightly' });
    expect(gate.outcome).toBe('incomplete');
    expect(gate.cells[0]).toMatchObject({
      state: 'incomplete',
      candidateRuns: 3,
      incomplete: reason,
      invalidRuns: invalidRuns.map((r) => ({ ...r, side: 'candidate' })),
    });

    // the schedule's outcome and its webhook payload
    const schedule = await db.schedule.create({
      data: {
        teamId: A.teamId,
        name: 'n',
        sourceExperimentId: base.experimentId,
        cron: '0 3 * * *',
        baselineName: 'nightly',
      },
    });
    await db.experiment.update({
      where: { id: fired.experimentId },
      data: { scheduleId: schedule.id, finishedAt: new Date() },
    });
    expect(await decideScheduleOutcome(db, fired.experimentId)).toBe('incomplete');
    const n = parseScheduleNotification(
      await db.scheduleNotification.findUniqueOrThrow({
        where: { experimentId: fired.experimentId },
      }),
    );
    expect(n.payload!.cells[0]).toMatchObject({
      state: 'incomplete',
      candidateRuns: 3,
      incomplete: reason,
      invalidRuns: invalidRuns.map((r) => ({ ...r, side: 'candidate' })),
    });

    // Trends
    const trend = await trendSeries(
      db,
      A.teamId,
      { targetId: A.targetId, scenarioId: A.scenarioId, poolConfigId: base.poolConfigs[0]!.id },
      { baseline: 'nightly' },
    );
    const point = trend.points.find((p) => p.experimentId === fired.experimentId)!;
    expect(point).toMatchObject({ state: 'incomplete', runs: 3, incomplete: reason, invalidRuns });

    // the compare view: the statistics are over the valid runs, and a warning names the others
    const cmp = await compareCells(base.experimentId, fired.experimentId, base.poolConfigs[0]!.id);
    expect(cmp.groups[1]).toMatchObject({ repeats: 3, runIds: [r0, r2, r4], invalidRuns });
    const warning = cmp.warnings.find((w) => w.code === 'invalid-runs');
    expect(warning?.message).toContain(
      `2 of 5 runs invalid (run ${r1}: load not offered (3.2 % of iterations dropped); run ${r3}: load not offered (1.5 % of iterations dropped))`,
    );
  });

  it('1 of 6 invalid: left out and named, the other 5 judged', async () => {
    const base = await experiment([10], 5, 200);
    await saveBaseline(base.experimentId, base.poolConfigs[0]!.id);
    const one = await experiment([10], 6, 300, base.poolConfigs);
    const slow = one.runs[0]![2]!;
    await dropIterations(slow, 2000);
    const gate = await gateExperiment(db, A.teamId, one.experimentId, { baseline: 'nightly' });
    expect(gate.cells[0]).toMatchObject({
      candidateRuns: 5,
      incomplete: null,
      invalidRuns: [
        {
          runId: slow,
          side: 'candidate',
          reasons: [
            { code: 'load-not-offered', message: 'load not offered (20 % of iterations dropped)' },
          ],
        },
      ],
    });
    expect(gate.outcome).toBe('pass');
  });

  it("config against config: the base config's invalid runs are left out and named", async () => {
    const e = await experiment([10, 10], 5, 400);
    const [b0, b1] = e.runs[0]!;
    await dropIterations(b0!, 500);
    await dropIterations(b1!, 300);
    const gate = await gateExperiment(db, A.teamId, e.experimentId, { base: e.poolConfigs[0]!.id });
    expect(gate.outcome).toBe('incomplete');
    expect(gate.cells[0]!.incomplete).toBe(
      `2 of 5 baseline runs invalid (more than 33 %): run ${b0}: load not offered (5 % of iterations dropped); run ${b1}: load not offered (3 % of iterations dropped); the valid ones do not stand for the baseline`,
    );
    expect(gate.cells[0]!.baseline?.runs).toBe(3);
    expect(gate.cells[0]!.invalidRuns.map((r) => [r.runId, r.side])).toEqual([
      [b0, 'baseline'],
      [b1, 'baseline'],
    ]);
  });
  it('every candidate run fell behind the load the baseline took: a regression everywhere, saying so', async () => {
    const base = await experiment([10], 5, 500);
    await saveBaseline(base.experimentId, base.poolConfigs[0]!.id);
    const fired = await experiment([10], 5, 600, base.poolConfigs);
    for (const r of fired.runs[0]!) await dropIterations(r, 1740);
    const behind =
      /^5 of 5 candidate runs could not take the load all 5 valid baseline runs took with the same scenario \(run \w+: load not offered \(17\.4 % of iterations dropped\);.*\): the config falls behind it$/;

    // the CI gate against the baseline
    const gate = await gateExperiment(db, A.teamId, fired.experimentId, { baseline: 'nightly' });
    expect(gate.outcome).toBe('regression');
    expect(gate.cells[0]).toMatchObject({
      state: 'regression',
      candidateRuns: 0,
      incomplete: null,
    });
    expect(gate.cells[0]!.loadNotTaken).toMatch(behind);

    // the schedule's outcome
    const schedule = await db.schedule.create({
      data: {
        teamId: A.teamId,
        name: 'behind',
        sourceExperimentId: base.experimentId,
        cron: '0 3 * * *',
        baselineName: 'nightly',
      },
    });
    await db.experiment.update({
      where: { id: fired.experimentId },
      data: { scheduleId: schedule.id, finishedAt: new Date() },
    });
    expect(await decideScheduleOutcome(db, fired.experimentId)).toBe('regression');
    const n = parseScheduleNotification(
      await db.scheduleNotification.findUniqueOrThrow({
        where: { experimentId: fired.experimentId },
      }),
    );
    expect(n.payload!.cells[0]).toMatchObject({ state: 'regression', incomplete: null });
    expect(n.payload!.cells[0]!.loadNotTaken).toMatch(behind);

    // Trends
    const trend = await trendSeries(
      db,
      A.teamId,
      { targetId: A.targetId, scenarioId: A.scenarioId, poolConfigId: base.poolConfigs[0]!.id },
      { baseline: 'nightly' },
    );
    const point = trend.points.find((p) => p.experimentId === fired.experimentId)!;
    expect(point).toMatchObject({ state: 'regression', regression: true, incomplete: null });
    expect(point.loadNotTaken).toMatch(behind);

    // the compare view says it, beside the runs it left out
    const cmp = await compareCells(base.experimentId, fired.experimentId, base.poolConfigs[0]!.id);
    expect(cmp.warnings.find((w) => w.code === 'load-not-taken')?.message).toMatch(
      /^A regression the statistics cannot show \(the slowest requests were never sent\): .*: 5 of 5 candidate runs could not take the load/,
    );

    // config against config in one experiment
    const e = await experiment([10, 10], 5, 700);
    for (const r of e.runs[1]!) await dropIterations(r, 1740);
    const pair = await gateExperiment(db, A.teamId, e.experimentId, { base: e.poolConfigs[0]!.id });
    expect(pair.outcome).toBe('regression');
    expect(pair.cells[0]!.loadNotTaken).toMatch(behind);
  });
});
