import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseScheduleNotification, type Db } from '@poolbench/db';
import { decideScheduleOutcome } from '@poolbench/runs';
import { withTempDatabase } from '~/test/temp-database';
import { makeTeam, type TeamFixture } from '~/test/fixtures';
import { gateExperiment } from '~/server/services/ci/gate-experiment';
import { measuredSyntheticExperiment } from '~/server/services/compare/testing/synthetic-runs';

/**
 * A schedule's outcome (decided in @poolbench/runs when its last run ends) and the CI gate
 * (`gateExperiment`, what `poolbench run --baseline` and the REST compare answer) are two
 * code paths over the same runs: they must reach the same verdict on every metric of every cell.
 */
describe('a scheduled experiment: the notification and the CI gate agree (real Postgres)', () => {
  let db: Db;
  let dispose: () => Promise<void>;
  let A: TeamFixture;
  beforeAll(async () => {
    ({ db, dispose } = await withTempDatabase('web_schedule_vs_gate'));
    A = await makeTeam(db, 'svg');
  });
  afterAll(async () => dispose?.());

  // `latency` per pool config: a baseline experiment, then a scheduled one measured against it
  const experiment = async (
    latency: number[],
    repeats: number,
    seed: number,
    reuse: { id: string; name: string }[] = [],
  ) => {
    const e = await measuredSyntheticExperiment(db, A, {
      configs: latency.map((_, i) => reuse[i] ?? `pc${i}`),
      latencyMs: latency,
      repeats,
      seconds: 20,
      seed,
    });
    return e;
  };

  // The firing runs the baseline's own pool config (a schedule re-runs the same configs)
  it.each([
    ['a regression (the config twice as slow)', [20], 'regression'],
    ['no regression (same latency, other draws)', [10], 'pass'],
  ] as const)('%s', async (_label, latency, expected) => {
    const base = await experiment([10], 5, 1);
    await db.baseline.upsert({
      where: {
        targetId_scenarioId_poolConfigId_name: {
          targetId: A.targetId,
          scenarioId: A.scenarioId,
          poolConfigId: base.poolConfigs[0]!.id,
          name: 'nightly',
        },
      },
      create: {
        teamId: A.teamId,
        name: 'nightly',
        targetId: A.targetId,
        scenarioId: A.scenarioId,
        experimentId: base.experimentId,
        poolConfigId: base.poolConfigs[0]!.id,
      },
      update: {
        experimentId: base.experimentId,
        poolConfigId: base.poolConfigs[0]!.id,
        runId: null,
      },
    });
    const fired = await experiment([...latency], 5, 100, base.poolConfigs);
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

    expect(await decideScheduleOutcome(db, fired.experimentId)).toBe(expected);
    const n = parseScheduleNotification(
      await db.scheduleNotification.findUniqueOrThrow({
        where: { experimentId: fired.experimentId },
      }),
    );
    const gate = await gateExperiment(db, A.teamId, fired.experimentId, { baseline: 'nightly' });
    expect(gate.outcome).toBe(expected);
    const verdicts = (cells: Array<{ metrics: Array<{ key: string; verdict: string }> }>) =>
      cells.map((c) => Object.fromEntries(c.metrics.map((m) => [m.key, m.verdict])));
    expect(verdicts(n.payload!.cells)).toEqual(verdicts(gate.cells));
    expect(n.payload!.cells.map((c) => c.regression)).toEqual(gate.cells.map((c) => c.regression));
  });
});
