import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseRun, toJson, type Db } from '@poolbench/db';
import { withTempDatabase } from '~/test/temp-database';
import { makeTeam, type TeamFixture } from '~/test/fixtures';
import {
  insertSyntheticRun,
  syntheticExperiment,
} from '~/server/services/compare/testing/synthetic-runs';
import { runView } from '~/server/services/ci/run-view';
import { experimentView } from '~/server/services/ci/experiment-view';
import { buildComparison } from '~/server/services/compare/build-comparison';
import { getRun } from './get-run';

/**
 * A run's insights reach every reader from what the run stored: the run page (run.get), REST
 * GET /runs/{id} and the experiment view (CLI), and the compare view counts them per group.
 */
describe('run insights from stored data (real Postgres)', () => {
  let db: Db;
  let dispose: () => Promise<void>;
  let T: TeamFixture;
  beforeAll(async () => {
    ({ db, dispose } = await withTempDatabase('web_run_insights'));
    T = await makeTeam(db, 'ins');
  });
  afterAll(async () => dispose?.());

  /** An experiment with one pool config per name and one clean synthetic run of each. */
  async function oneRunEach(names: string[], seed: number) {
    const e = await syntheticExperiment(db, T.teamId, T.targetId, T.scenarioId, names, 1);
    const ids: string[] = [];
    for (const [i, pc] of e.poolConfigs.entries())
      ids.push(
        await insertSyntheticRun(db, {
          teamId: T.teamId,
          experimentId: e.experimentId,
          targetId: T.targetId,
          scenarioId: T.scenarioId,
          poolConfigId: pc.id,
          poolConfigName: pc.name,
          scenarioName: 'burst',
          repeatIndex: 0,
          seconds: 20,
          latencyMs: 10,
          rps: 50,
          seed: seed + i,
          environment: { cpuCount: 2, loadAvg1mAtStart: 0.3 },
        }),
      );
    return { e, ids };
  }

  it('a run that dropped iterations on a busy machine says so everywhere; a clean one says nothing', async () => {
    const { e, ids } = await oneRunEach(['a', 'b'], 7);
    const [bad, clean] = ids as [string, string];
    const row = parseRun(await db.run.findUniqueOrThrow({ where: { id: bad } }));
    await db.run.update({
      where: { id: bad },
      data: {
        summary: toJson.runSummary({
          ...row.summary!,
          iterations: 950,
          droppedIterations: 50,
        }),
        environment: toJson.runEnvironment({ ...row.environment, loadAvg1mAtStart: 6.5 }),
      },
    });

    const page = await getRun(db, T.teamId, bad);
    expect(page.insights.map((i) => i.code)).toEqual(['load-not-offered', 'machine-busy']);
    expect(page.insights[0]).toMatchObject({ severity: 'critical' });
    expect(page.insights[0]!.message).toMatch(/dropped 50 of 1000 planned iterations \(5 %\)/);
    // beyond the 1 % a run may drop: invalid, and the run page says so
    expect(page.validity).toEqual({
      valid: false,
      reasons: [
        { code: 'load-not-offered', message: 'load not offered (5 % of iterations dropped)' },
      ],
    });
    expect((await getRun(db, T.teamId, clean)).validity).toEqual({ valid: true, reasons: [] });
    expect(
      (await getRun(db, T.teamId, clean)).insights.filter((i) => i.severity !== 'info'),
    ).toEqual([]);

    const rest = await runView(db, T.teamId, bad, 'http://x');
    expect(rest.insights.map((i) => i.code)).toEqual(['load-not-offered', 'machine-busy']);
    expect(rest.validity).toEqual(page.validity);
    const exp = await experimentView(db, T.teamId, e.experimentId, 'http://x');
    expect(exp.runs.find((r) => r.id === bad)!.insights.map((i) => i.code)).toEqual([
      'load-not-offered',
      'machine-busy',
    ]);

    const cmp = await buildComparison(db, T.teamId, {
      items: e.poolConfigs.map((pc) => ({
        kind: 'cell' as const,
        experimentId: e.experimentId,
        poolConfigId: pc.id,
        scenarioId: T.scenarioId,
      })),
    });
    // the invalid run is left out of the compare view, which says so; the clean one is compared
    expect(cmp.groups.map((g) => g.repeats)).toEqual([0, 1]);
    const w = cmp.warnings.find((x) => x.code === 'invalid-runs');
    expect(w?.message).toContain(
      `1 of 1 runs invalid (run ${bad}: load not offered (5 % of iterations dropped))`,
    );
    // a run within the bound is compared, and its insights are counted
    await db.run.update({
      where: { id: bad },
      data: {
        summary: toJson.runSummary({ ...row.summary!, iterations: 995, droppedIterations: 5 }),
      },
    });
    const within = await buildComparison(db, T.teamId, {
      items: e.poolConfigs.map((pc) => ({
        kind: 'cell' as const,
        experimentId: e.experimentId,
        poolConfigId: pc.id,
        scenarioId: T.scenarioId,
      })),
    });
    expect(within.warnings.find((x) => x.code === 'invalid-runs')).toBeUndefined();
    const insights = within.warnings.find((x) => x.code === 'run-insights');
    expect(insights?.message).toMatch(
      /1 of 1 runs dropped iterations \(within the 1 % a valid run may drop\)/,
    );
    expect(insights?.message).toMatch(/1 of 1 runs started on a busy machine/);
  });
  it('a run whose load generator peaked at full CPU says so on the run, in REST and in the compare view', async () => {
    const { e, ids } = await oneRunEach(['g1', 'g2'], 11);
    const [hot, cool] = ids as [string, string];
    // two generators each: one of the first run's k6 processes took a whole core
    for (const [runId, peaks] of [
      [hot, [40, 97]],
      [cool, [40, 45]],
    ] as const)
      await db.runSegment.createMany({
        data: peaks.map((cpuMaxPercent, index) => ({
          runId,
          index,
          status: 'succeeded' as const,
          baseUrls: [],
          cpuMaxPercent,
        })),
      });
    const codes = (is: Array<{ code: string }>) => is.map((i) => i.code);

    expect(codes((await getRun(db, T.teamId, hot)).insights)).toContain('generator-cpu-saturated');
    expect(codes((await getRun(db, T.teamId, cool)).insights)).not.toContain(
      'generator-cpu-saturated',
    );
    expect(codes((await runView(db, T.teamId, hot, 'http://x')).insights)).toContain(
      'generator-cpu-saturated',
    );
    const exp = await experimentView(db, T.teamId, e.experimentId, 'http://x');
    expect(codes(exp.runs.find((r) => r.id === hot)!.insights)).toContain(
      'generator-cpu-saturated',
    );
    const cmp = await buildComparison(db, T.teamId, {
      items: e.poolConfigs.map((pc) => ({
        kind: 'cell' as const,
        experimentId: e.experimentId,
        poolConfigId: pc.id,
        scenarioId: T.scenarioId,
      })),
    });
    // the configs' names carry a random suffix (syntheticExperiment)
    const [g1, g2] = e.poolConfigs.map((pc) => pc.name) as [string, string];
    const warning = cmp.warnings.find((x) => x.code === 'run-insights')?.message;
    expect(warning).toContain(`${g1}: 1 of 1 runs had a load generator at full CPU`);
    expect(warning).not.toContain(`${g2}:`);
  });
});
