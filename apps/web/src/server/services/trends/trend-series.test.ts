import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '@poolbench/db';
import { claimRun, finishRun, launchExperiment, markRunning } from '@poolbench/runs';
import { buildRunSummary, createHistogram, histogramStatsMs } from '@poolbench/stats';
import { withTempDatabase } from '~/test/temp-database';
import { callerFor, makeServices, makeTeam, type TeamFixture } from '~/test/fixtures';

/** A summary as the worker builds it: 2 s of load at `rps`, every request `ms` long. */
function summary(ms: number, rps: number) {
  const h = createHistogram();
  for (let i = 0; i < 200; i++) h.recordValue(Math.round(ms * 1000));
  const requests = rps * 2;
  return buildRunSummary({
    counters: {
      requests,
      failed: 0,
      status: { '200': requests },
      dataSentBytes: 0,
      dataReceivedBytes: 0,
      iterations: requests,
      droppedIterations: 0,
    },
    trends: { http_req_duration: histogramStatsMs(h) },
    seconds: 2,
    vusMax: 5,
    loadMs: 2000,
    load: { startMs: 1_700_000_000_000, endMs: 1_700_000_002_000 },
    resources: [],
  });
}

describe('trends: one cell across experiments, against the baseline (real Postgres)', () => {
  let db: Db;
  let dispose: () => Promise<void>;
  let services: ReturnType<typeof makeServices>;
  let A: TeamFixture;
  let B: TeamFixture;
  beforeAll(async () => {
    ({ db, dispose } = await withTempDatabase('web_trends'));
    services = makeServices();
    A = await makeTeam(db, 'tra');
    B = await makeTeam(db, 'trb');
  });
  afterAll(async () => {
    await services?.close();
    await dispose?.();
  });

  // an experiment of A's one cell, 5 repeats at `ms` latency (±1 %), finished through the lifecycle
  const experiment = async (
    name: string,
    ms: number,
    ci: { commit?: string; branch?: string } = {},
  ) => {
    const l = await launchExperiment(db, {
      teamId: A.teamId,
      targetId: A.targetId,
      poolConfigIds: [A.poolConfigId],
      scenarioIds: [A.scenarioId],
      repeats: 5,
      name,
      ci,
    });
    for (const [i, id] of l.runIds.entries()) {
      await claimRun(db, id, 'w');
      await markRunning(db, id, 'w', { script: 's', environment: {} });
      await finishRun(db, id, 'w', {
        status: 'succeeded',
        summary: summary(ms * (1 + i / 100), 500),
      });
    }
    return l.experimentId;
  };

  it('medians per experiment, oldest first, with the baseline drawn and a slower experiment marked as a regression', async () => {
    const first = await experiment('nightly 1', 20, { commit: 'aaa111', branch: 'main' });
    const same = await experiment('nightly 2', 20.2, { commit: 'bbb222', branch: 'main' });
    const slow = await experiment('nightly 3', 35, { commit: 'ccc333', branch: 'main' });
    await db.baseline.create({
      data: {
        teamId: A.teamId,
        name: 'main',
        targetId: A.targetId,
        scenarioId: A.scenarioId,
        experimentId: first,
      },
    });

    const viewer = callerFor(db, services, A.users.viewer, A.teamId);
    const cells = await viewer.trend.cells();
    expect(cells).toContainEqual(
      expect.objectContaining({
        targetId: A.targetId,
        scenarioId: A.scenarioId,
        poolConfigId: A.poolConfigId,
        runs: 15,
      }),
    );
    const t = await viewer.trend.series({
      targetId: A.targetId,
      scenarioId: A.scenarioId,
      poolConfigId: A.poolConfigId,
    });
    expect(t.points.map((p) => p.experimentId)).toEqual([first, same, slow]);
    expect(t.points.map((p) => p.commit)).toEqual(['aaa111', 'bbb222', 'ccc333']);
    expect(t.baseline).toMatchObject({ name: 'main', experimentId: first, runs: 5 });
    expect(t.baseline!.medians.p95Ms).toBeCloseTo(20.4, 0);
    const [p1, p2, p3] = t.points;
    expect(p1).toMatchObject({ isBaseline: true, regression: false, runs: 5 });
    expect(p1!.metrics.p95Ms.verdict).toBeNull();
    expect(p2!.metrics.p95Ms.verdict).toBe('no-change');
    expect(p2!.regression).toBe(false);
    expect(p3!.metrics.p95Ms).toMatchObject({ verdict: 'worse', n: 5 });
    expect(p3!.metrics.p95Ms.median!).toBeGreaterThan(34);
    expect(p3!.regression).toBe(true);
    // throughput did not move: no verdict of worse there
    expect(p3!.metrics.rps.verdict).not.toBe('worse');
  });

  it('an unknown baseline name and another team’s cell are NOT_FOUND; another team sees no cells of ours', async () => {
    const viewer = callerFor(db, services, A.users.viewer, A.teamId);
    await expect(
      viewer.trend.series({
        targetId: A.targetId,
        scenarioId: A.scenarioId,
        poolConfigId: A.poolConfigId,
        baseline: 'release',
      }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(
      viewer.trend.series({
        targetId: B.targetId,
        scenarioId: B.scenarioId,
        poolConfigId: B.poolConfigId,
      }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' });
    const other = await callerFor(db, services, B.users.owner, B.teamId).trend.cells();
    expect(other.some((c) => c.targetId === A.targetId)).toBe(false);
  });
});
