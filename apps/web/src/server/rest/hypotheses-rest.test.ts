import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toJson, type Db } from '@poolbench/db';
import { claimRun, finishRun, markRunning } from '@poolbench/runs';
import { buildRunSummary, createHistogram, histogramStatsMs } from '@poolbench/stats';
import { withTempDatabase } from '~/test/temp-database';
import { callerFor, makeServices, makeTeam, type TeamFixture } from '~/test/fixtures';
import { createApiToken } from '~/server/services/api-tokens/create-api-token';
import type { RestDeps } from './deps';
import { restCaller } from '~/test/rest';

/** A summary as the worker builds it: 2 s of load, every request `ms` long. */
function summary(ms: number) {
  const h = createHistogram();
  for (let i = 0; i < 100; i++) h.recordValue(Math.round(ms * 1000));
  return buildRunSummary({
    counters: {
      requests: 100,
      failed: 0,
      status: { '200': 100 },
      dataSentBytes: 0,
      dataReceivedBytes: 0,
      iterations: 100,
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

describe('REST + tRPC: hypotheses stated with the experiment, decided when it ends', () => {
  let db: Db;
  let dispose: () => Promise<void>;
  let services: ReturnType<typeof makeServices>;
  let deps: RestDeps;
  let A: TeamFixture;
  let B: TeamFixture;
  let token: string;
  let fast: string;
  const call = restCaller(
    () => deps,
    () => token,
  );

  beforeAll(async () => {
    ({ db, dispose } = await withTempDatabase('web_rest_hypotheses'));
    services = makeServices();
    deps = {
      db,
      redis: () => services.redis,
      queue: () => services.queue,
      baseUrl: 'http://pb.test',
      rateLimit: { limit: 1000, windowMs: 60_000 },
    };
    A = await makeTeam(db, 'hypa');
    B = await makeTeam(db, 'hypb');
    fast = (
      await db.poolConfig.create({
        data: {
          teamId: A.teamId,
          targetId: A.targetId,
          name: 'prewarmed',
          strategy: 'lazy',
          params: toJson.poolParams({}),
          instanceCount: 1,
        },
      })
    ).id;
    token = (
      await createApiToken(db, {
        teamId: A.teamId,
        userId: A.users.admin.id,
        name: 'ci',
        scopes: ['runs:read', 'runs:write'],
        expiresInDays: 30,
      })
    ).token;
  });
  afterAll(async () => {
    await services?.close();
    await dispose?.();
  });

  const inline = (extra: Record<string, unknown>) => ({
    kind: 'inline',
    target: A.targetId,
    poolConfigs: ['lazy', 'prewarmed'],
    repeats: 4,
    scenarioId: A.scenarioId,
    ...extra,
  });
  const claim = {
    base: { poolConfig: 'lazy' },
    candidate: { poolConfig: 'prewarmed' },
    metric: 'p99Ms',
    expect: 'better',
    band: 20,
    claim: 'prewarming cuts p99 by a fifth',
  };

  it('POST /experiments takes hypotheses by pool config name; GET shows them pending; a wrong name is named', async () => {
    const res = await call('POST', '/experiments', inline({ hypotheses: [claim] }));
    expect(res.status).toBe(201);
    const e = await res.json();
    expect(e.hypotheses).toEqual([
      expect.objectContaining({
        position: 0,
        metric: 'p99Ms',
        expect: 'better',
        band: 20,
        bandUnit: 'percent',
        status: 'pending',
        claim: 'prewarming cuts p99 by a fifth',
        decidedAt: null,
        base: { poolConfigId: A.poolConfigId, scenarioId: A.scenarioId },
        candidate: { poolConfigId: fast, scenarioId: A.scenarioId },
      }),
    ]);
    expect(e.hypotheses[0].statement).toMatch(
      /prewarmed has a lower p99 latency than lazy by at least 20 %/,
    );
    expect(e.hypotheses[0].comparePath).toBe(
      `/compare?items=c.${e.id}.${A.poolConfigId}.${A.scenarioId},c.${e.id}.${fast}.${A.scenarioId}&baseline=0`,
    );

    const bad = await call(
      'POST',
      '/experiments',
      inline({ hypotheses: [{ ...claim, candidate: { poolConfig: 'nope' } }] }),
    );
    expect(bad.status).toBe(422);
    expect((await bad.json()).problems).toEqual([
      {
        path: 'hypotheses.0.candidate.poolConfig',
        message: '"nope" is not one of the experiment\'s pool configs (lazy, prewarmed)',
      },
    ]);
    // a saved rerun tests the same claims
    const again = await (
      await call('POST', '/experiments', { kind: 'saved', experiment: e.id })
    ).json();
    expect(again.hypotheses.map((h: { statement: string }) => h.statement)).toEqual(
      e.hypotheses.map((h: { statement: string }) => h.statement),
    );
  });

  it('decided when the last run ends (holds with 4 vs 4), then extend adds repeats and they go back to pending', async () => {
    const e = await (await call('POST', '/experiments', inline({ hypotheses: [claim] }))).json();
    const member = callerFor(db, services, A.users.member, A.teamId);
    // pre-registration: editable while queued
    const edited = await member.experiment.setHypotheses({
      id: e.id,
      hypotheses: [
        {
          base: { poolConfigId: A.poolConfigId, scenarioId: A.scenarioId },
          candidate: { poolConfigId: fast, scenarioId: A.scenarioId },
          metric: 'p99Ms',
          expect: 'better',
          band: 20,
        },
      ],
    });
    expect(edited).toMatchObject({ preRegistered: false, items: [{ status: 'pending' }] });
    const extendEarly = await call('POST', `/experiments/${e.id}/extend`, { addRepeats: 1 });
    expect(extendEarly.status).toBe(422);
    expect((await extendEarly.json()).problems[0].path).toBe('addRepeats');

    for (const r of e.runs as Array<{ id: string; poolConfigId: string }>) {
      await claimRun(db, r.id, 'w');
      await markRunning(db, r.id, 'w', { script: 's', environment: {} });
      await finishRun(db, r.id, 'w', {
        status: 'succeeded',
        summary: summary(r.poolConfigId === fast ? 10 + Math.random() : 40 + Math.random()),
      });
    }
    await expect(member.experiment.setHypotheses({ id: e.id, hypotheses: [] })).rejects.toThrow(
      /pre-registered/,
    );
    const done = await (await call('GET', `/experiments/${e.id}`)).json();
    expect(done.hypotheses[0]).toMatchObject({
      status: 'holds',
      changeUnit: 'percent',
      runsUsed: 8,
    });
    expect(done.hypotheses[0].change).toBeLessThan(-70);
    expect(done.hypotheses[0].p).toBeLessThan(0.05);
    expect(done.hypotheses[0].decidedAt).toMatch(/^\d{4}-\d\d-\d\dT/);

    const ext = await call('POST', `/experiments/${e.id}/extend`, { addRepeats: 2 });
    expect(ext.status).toBe(200);
    const extended = await ext.json();
    expect(extended).toMatchObject({ repeats: 6, status: 'running', finished: false });
    expect(extended.runs).toHaveLength(12);
    expect(extended.hypotheses[0].status).toBe('pending');
    expect((await member.experiment.hypotheses({ id: e.id })).preRegistered).toBe(true);
  });

  it("another team's experiment is not found through REST extend or tRPC", async () => {
    expect(
      (await call('POST', `/experiments/${B.experimentId}/extend`, { addRepeats: 1 })).status,
    ).toBe(404);
    await expect(
      callerFor(db, services, A.users.owner, A.teamId).experiment.hypotheses({
        id: B.experimentId,
      }),
    ).rejects.toThrow();
  });

  it('both start kinds record commit, branch and build URL; a bad one names its field; the list shows them with the outcome', async () => {
    const ci = {
      commit: '3f2a9c1e',
      branch: 'feature/pool-size',
      buildUrl: 'https://github.com/acme/api/actions/runs/42',
    };
    const e = await (
      await call('POST', '/experiments', inline({ hypotheses: [claim], ...ci }))
    ).json();
    expect(e).toMatchObject(ci);
    const again = await (
      await call('POST', '/experiments', { kind: 'saved', experiment: e.id, commit: 'aaaa1111' })
    ).json();
    expect(again).toMatchObject({ commit: 'aaaa1111', branch: null, buildUrl: null });
    for (const [field, value, message] of [
      [
        'buildUrl',
        'https://user:secret@ci.example.com/1',
        'must not contain credentials (user:password@)',
      ],
      ['buildUrl', 'javascript:alert(1)', 'must start with http:// or https://'],
      ['commit', 'abc; rm -rf /', 'must be a commit id or ref (letters, digits, . _ / -)'],
    ] as const) {
      const bad = await call('POST', '/experiments', inline({ [field]: value }));
      expect(bad.status, `${field}=${value}`).toBe(422);
      expect((await bad.json()).problems).toEqual([{ path: field, message }]);
    }
    const list = await callerFor(db, services, A.users.viewer, A.teamId).experiment.list({});
    const row = list.items.find((x) => x.id === e.id)!;
    expect(row).toMatchObject({
      ...ci,
      hypotheses: { total: 1, pending: 1, holds: 0, doesNotHold: 0, unresolved: 0 },
    });
  });
});
