import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '@poolbench/db';
import { SeriesPointSchema } from '@poolbench/contracts';
import { withTempDatabase } from '~/test/temp-database';
import { makeTeam } from '~/test/fixtures';
import { getRunSeries } from './run-series';
import { insertSyntheticRun, syntheticExperiment } from '../compare/testing/synthetic-runs';

describe('getRunSeries (real Postgres)', () => {
  let db: Db;
  let dispose: () => Promise<void>;
  beforeAll(async () => {
    ({ db, dispose } = await withTempDatabase('web_run_series'));
  });
  afterAll(async () => dispose?.());

  it('joins every charted load and resource field of a second, as the live event schema defines them', async () => {
    const team = await makeTeam(db, 's');
    const exp = await syntheticExperiment(
      db,
      team.teamId,
      team.targetId,
      team.scenarioId,
      ['lazy'],
      1,
    );
    const runId = await insertSyntheticRun(db, {
      teamId: team.teamId,
      experimentId: exp.experimentId,
      targetId: team.targetId,
      poolConfigId: exp.poolConfigs[0]!.id,
      scenarioId: team.scenarioId,
      poolConfigName: 'lazy',
      scenarioName: 'x',
      repeatIndex: 0,
      seconds: 4,
      latencyMs: 10,
      rps: 50,
      seed: 3,
    });
    const { points, totalSeconds } = await getRunSeries(db, team.teamId, runId);
    expect(totalSeconds).toBe(4);
    const stored = await db.resourceSample.findMany({
      where: { runId, instance: -1 },
      orderBy: { second: 'asc' },
    });
    for (const [i, p] of points.entries()) {
      expect(SeriesPointSchema.strict().parse(p)).toEqual(p);
      expect(p.cpuPercent).toBe(stored[i]!.cpuPercent);
      expect(p.rssBytes).toBe(Number(stored[i]!.rssBytes));
      expect(p.dbNewConns).toBe(stored[i]!.dbNewConns);
      expect(p.requests).toBeGreaterThan(0);
      expect(p.p95Ms).toBeGreaterThan(0);
    }
  });
});
