import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '@poolbench/db';
import { createSegments } from '@poolbench/runs';
import { withTempDatabase } from '~/test/temp-database';
import { makeServices, makeTeam, type TeamFixture } from '~/test/fixtures';
import { createApiToken } from '~/server/services/api-tokens/create-api-token';
import type { RestDeps } from './deps';
import { restCaller } from '~/test/rest';

describe('REST: load generators per run (distributed runs)', () => {
  let db: Db;
  let dispose: () => Promise<void>;
  let services: ReturnType<typeof makeServices>;
  let deps: RestDeps;
  let A: TeamFixture;
  let token: string;
  const call = restCaller(
    () => deps,
    () => token,
  );

  beforeAll(async () => {
    ({ db, dispose } = await withTempDatabase('web_rest_segments'));
    services = makeServices();
    deps = {
      db,
      redis: () => services.redis,
      queue: () => services.queue,
      baseUrl: 'http://pb.test',
      rateLimit: { limit: 1000, windowMs: 60_000 },
    };
    A = await makeTeam(db, 'seg');
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
    poolConfigs: [A.poolConfigId],
    repeats: 1,
    scenario: {
      template: 'constant-arrival-rate',
      params: { ratePerSec: 30, durationMs: 2000, preAllocatedVUs: 3 },
      requests: [{ path: '/health' }],
    },
    ...extra,
  });

  it('both start kinds take loadGenerators (1-16) and snapshot it into every run; out of range names the field', async () => {
    // three workers online: a run may be split across up to three
    for (const i of [1, 2, 3])
      await db.worker.upsert({
        where: { id: `gen-${i}` },
        create: {
          id: `gen-${i}`,
          host: 'h',
          pid: i,
          version: 't',
          concurrency: 1,
          startedAt: new Date(),
          lastSeenAt: new Date(),
        },
        update: { lastSeenAt: new Date(), stoppedAt: null },
      });
    const started = await (
      await call('POST', '/experiments', inline({ loadGenerators: 3 }))
    ).json();
    expect(
      await db.run.findMany({
        where: { experimentId: started.id },
        select: { loadGenerators: true },
      }),
    ).toEqual([{ loadGenerators: 3 }]);
    expect(
      (await db.experiment.findUniqueOrThrow({ where: { id: started.id } })).loadGenerators,
    ).toBe(3);
    const again = await (
      await call('POST', '/experiments', {
        kind: 'saved',
        experiment: started.id,
        loadGenerators: 2,
      })
    ).json();
    expect(
      await db.run.findMany({
        where: { experimentId: again.id },
        select: { loadGenerators: true },
      }),
    ).toEqual([{ loadGenerators: 2 }]);
    const same = await (
      await call('POST', '/experiments', { kind: 'saved', experiment: started.id })
    ).json();
    expect(
      await db.run.findMany({ where: { experimentId: same.id }, select: { loadGenerators: true } }),
    ).toEqual([{ loadGenerators: 3 }]);
    // more generators than workers online is refused by field, with the count, before any run
    const tooMany = await call('POST', '/experiments', inline({ loadGenerators: 4 }));
    expect(tooMany.status).toBe(422);
    expect((await tooMany.json()).problems).toEqual([
      {
        path: 'loadGenerators',
        message:
          '4 load generators need 4 workers online; 3 are online (start more workers or use at most 3)',
      },
    ]);
    const bad = await call('POST', '/experiments', inline({ loadGenerators: 17 }));
    expect(bad.status).toBe(422);
    expect((await bad.json()).problems).toEqual([
      { path: 'loadGenerators', message: 'must be at most 16' },
    ]);
  });

  it('GET /runs/{id} returns segments [{index, workerId, requests, startSkewMs, …}] for a distributed run, [] otherwise', async () => {
    const runId = A.runIds[0]!;
    const before = await (await call('GET', `/runs/${runId}`)).json();
    expect(before).toMatchObject({ loadGenerators: 1, segments: [] });
    await db.run.update({ where: { id: runId }, data: { loadGenerators: 2 } });
    await createSegments(db, runId, 2, 'gen-a');
    await db.runSegment.update({
      where: { runId_index: { runId, index: 0 } },
      data: {
        requests: 1500,
        startSkewMs: 0,
        cpuMaxPercent: 91.5,
        rssMaxBytes: 5_000_000n,
        delivery: { lateSamples: 3, lateRequests: 1, maxLagMs: 1200, graceMs: 1000 },
        disturbance: {
          outsideCpuPercent: 62.5,
          machineCpuPercent: 180,
          stealPercent: 0,
          cores: 2,
          loadAvg1mAtEnd: 2.1,
          seconds: 30,
        },
      },
    });
    await db.runSegment.update({
      where: { runId_index: { runId, index: 1 } },
      data: { workerId: 'gen-b', requests: 1498, startSkewMs: 12.5 },
    });
    const res = await call('GET', `/runs/${runId}`);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.loadGenerators).toBe(2);
    expect(body.segments).toEqual([
      {
        index: 0,
        workerId: 'gen-a',
        status: 'joined',
        requests: 1500,
        startSkewMs: 0,
        cpuMaxPercent: 91.5,
        rssMaxBytes: 5_000_000,
        cpuAvgPercent: null,
        loadMs: null,
        errorMessage: null,
        lateSamples: 3,
        outsideCpuPercent: 62.5,
      },
      {
        index: 1,
        workerId: 'gen-b',
        status: 'pending',
        requests: 1498,
        startSkewMs: 12.5,
        cpuMaxPercent: null,
        rssMaxBytes: null,
        cpuAvgPercent: null,
        loadMs: null,
        errorMessage: null,
        lateSamples: null,
        outsideCpuPercent: null,
      },
    ]);
  });
});
