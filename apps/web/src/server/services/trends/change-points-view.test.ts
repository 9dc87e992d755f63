import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '@poolbench/db';
import { claimRun, finishRun, launchExperiment, markRunning } from '@poolbench/runs';
import { buildRunSummary, createHistogram, histogramStatsMs } from '@poolbench/stats';
import { withTempDatabase } from '~/test/temp-database';
import { callerFor, makeServices, makeTeam, type TeamFixture } from '~/test/fixtures';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { createApiToken } from '~/server/services/api-tokens/create-api-token';
import { handleRest } from '~/server/rest/handle-rest';
import { buildOpenApi } from '~/server/rest/openapi';
import { changePointsByRef } from './change-points-view';

/** A summary as the worker builds it: 2 s at 500 req/s, every request `ms` long. */
function summary(ms: number) {
  const h = createHistogram();
  for (let i = 0; i < 200; i++) h.recordValue(Math.round(ms * 1000));
  return buildRunSummary({
    counters: {
      requests: 1000,
      failed: 0,
      status: { '200': 1000 },
      dataSentBytes: 0,
      dataReceivedBytes: 0,
      iterations: 1000,
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

describe('change points of a cell history (real Postgres)', () => {
  let db: Db;
  let dispose: () => Promise<void>;
  let services: ReturnType<typeof makeServices>;
  let A: TeamFixture;
  let B: TeamFixture;
  // 14 nightly firings, commit c01 … c14: 20 ms for seven, 30 ms from c08 on (a few % noise)
  const noise = [1, 3, -2, 0, 2, -1, -3, 1, 2, -2, 0, 3, -1, 1];
  beforeAll(async () => {
    ({ db, dispose } = await withTempDatabase('web_change_points'));
    services = makeServices();
    A = await makeTeam(db, 'cpa');
    B = await makeTeam(db, 'cpb');
    for (let k = 0; k < 14; k++) {
      const ms = (k < 7 ? 20 : 30) * (1 + noise[k]! / 100);
      const l = await launchExperiment(db, {
        teamId: A.teamId,
        targetId: A.targetId,
        poolConfigIds: [A.poolConfigId],
        scenarioIds: [A.scenarioId],
        repeats: 3,
        name: `nightly ${k + 1}`,
        ci: { commit: `c${String(k + 1).padStart(2, '0')}`.padEnd(8, '0'), branch: 'main' },
      });
      for (const [i, id] of l.runIds.entries()) {
        await claimRun(db, id, 'w');
        await markRunning(db, id, 'w', { script: 's', environment: {} });
        await finishRun(db, id, 'w', { status: 'succeeded', summary: summary(ms * (1 + i / 200)) });
      }
    }
  }, 120_000);
  afterAll(async () => {
    await services?.close();
    await dispose?.();
  });

  it('finds the step at its firing, names the commits on either side, and calls it a regression', async () => {
    const viewer = callerFor(db, services, A.users.viewer, A.teamId);
    const cp = await viewer.trend.changePoints({
      targetId: A.targetId,
      scenarioId: A.scenarioId,
      poolConfigId: A.poolConfigId,
    });
    expect(cp.firings).toBe(14);
    const p95 = cp.changePoints.filter((c) => c.metric === 'p95Ms');
    expect(p95).toHaveLength(1);
    expect(p95[0]).toMatchObject({
      kind: 'regression',
      before: { name: 'nightly 7', commit: 'c0700000' },
      after: { name: 'nightly 8', commit: 'c0800000', branch: 'main' },
      firingsBefore: 7,
      firingsAfter: 7,
    });
    expect(p95[0]!.change).toBeGreaterThan(0.4);
    expect(p95[0]!.change).toBeLessThan(0.6);
    expect(p95[0]!.interval!.lower).toBeGreaterThan(0.3);
    // throughput did not move
    expect(cp.changePoints.some((c) => c.metric === 'rps')).toBe(false);
  });

  it('counts the regressions since a commit or a date, by names as the REST API and CLI give them', async () => {
    const names = async () => {
      const [t, s, p] = await Promise.all([
        db.target.findUniqueOrThrow({ where: { id: A.targetId } }),
        db.scenario.findUniqueOrThrow({ where: { id: A.scenarioId } }),
        db.poolConfig.findUniqueOrThrow({ where: { id: A.poolConfigId } }),
      ]);
      return { target: t.name, scenario: s.name, poolConfig: p.name };
    };
    const refs = await names();
    const since = (s: string) =>
      changePointsByRef(db, A.teamId, refs, { since: s, metrics: ['p95Ms'] });
    expect((await since('c030')).since).toMatchObject({ commit: 'c0300000', regressions: 1 });
    expect((await since('c080')).since).toMatchObject({ commit: 'c0800000', regressions: 0 });
    expect((await since('2000-01-01')).since!.regressions).toBe(1);
    await expect(since('c990')).rejects.toThrow(
      /a firing of this history that ran commit c990 .* not found/,
    );
    await expect(since('not a sha')).rejects.toThrow(/since: give a commit SHA/);
  });

  it('another team reaches neither the cell nor its names', async () => {
    const other = callerFor(db, services, B.users.owner, B.teamId);
    await expect(
      other.trend.changePoints({
        targetId: A.targetId,
        scenarioId: A.scenarioId,
        poolConfigId: A.poolConfigId,
      }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' });
    const t = await db.target.findUniqueOrThrow({ where: { id: A.targetId } });
    await expect(
      changePointsByRef(db, B.teamId, {
        target: t.id,
        scenario: A.scenarioId,
        poolConfig: A.poolConfigId,
      }),
    ).rejects.toThrow(/not found/);
  });
  it('GET /api/v1/change-points answers by names, as its OpenAPI document says', async () => {
    const token = (
      await createApiToken(db, {
        teamId: A.teamId,
        userId: A.users.admin.id,
        name: 'read',
        scopes: ['runs:read'],
        expiresInDays: null,
      })
    ).token;
    const [t, s, p] = await Promise.all([
      db.target.findUniqueOrThrow({ where: { id: A.targetId } }),
      db.scenario.findUniqueOrThrow({ where: { id: A.scenarioId } }),
      db.poolConfig.findUniqueOrThrow({ where: { id: A.poolConfigId } }),
    ]);
    const get = (query: Record<string, string>) =>
      handleRest(
        new Request(`http://pb.test/api/v1/change-points?${new URLSearchParams(query)}`, {
          headers: { Authorization: `Bearer ${token}` },
        }),
        {
          db,
          redis: () => services.redis,
          queue: () => services.queue,
          baseUrl: 'http://pb.test',
          rateLimit: { limit: 1000, windowMs: 60_000 },
        },
      );
    const res = await get({
      target: t.name,
      scenario: s.name,
      poolConfig: p.name,
      metrics: 'p95Ms,rps',
      since: 'c020',
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as {
      changePoints: Array<{ metric: string; after: { commit: string } }>;
      since: { regressions: number };
    };
    const doc = buildOpenApi('http://pb.test') as Record<string, unknown>;
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats.default(ajv);
    ajv.addSchema({ $id: 'doc', components: doc.components } as Record<string, unknown>);
    const v = ajv.getSchema('doc#/components/schemas/ChangePoints')!;
    expect(v(body), JSON.stringify(v.errors)).toBe(true);
    expect(body.changePoints.map((c) => [c.metric, c.after.commit])).toEqual([
      ['p95Ms', 'c0800000'],
    ]);
    expect(body.since.regressions).toBe(1);
    const bad = await get({
      target: t.name,
      scenario: s.name,
      poolConfig: p.name,
      metrics: 'p95Ms,nope',
    });
    expect(bad.status).toBe(422);
    expect(JSON.stringify(await bad.json())).toContain('metrics');
  });
});
