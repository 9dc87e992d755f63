import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Prisma, type Db } from '@poolbench/db';
import { withTempDatabase } from '~/test/temp-database';
import { makeServices, makeTeam, type TeamFixture } from '~/test/fixtures';
import { createApiToken } from '~/server/services/api-tokens/create-api-token';
import { measuredSyntheticExperiment } from '~/server/services/compare/testing/synthetic-runs';
import type { RestDeps } from './deps';
import { restCaller } from '~/test/rest';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/**
 * GET /experiments/{id}/compare?base=<pool config>: config A gated against config B inside one
 * experiment (no saved baseline), on real Postgres with runs stored as the worker stores them.
 */
describe('compare with a pool config of the same experiment (base=)', () => {
  let db: Db;
  let dispose: () => Promise<void>;
  let services: ReturnType<typeof makeServices>;
  let deps: RestDeps;
  let A: TeamFixture;
  let token: string;
  let experimentId: string;
  let fast: { id: string; name: string };
  let slow: { id: string; name: string };

  const call = restCaller(
    () => deps,
    () => token,
  );
  const get = async (q: string) => {
    const res = await call('GET', `/experiments/${experimentId}/compare?${q}`);
    return { status: res.status, body: (await res.json()) as Json };
  };

  /** `crashed` runs of `e` made failed without a summary, then e compared with its first config */
  const crashedThenCompared = async (
    e: { experimentId: string; poolConfigs: { id: string }[] },
    crashed: string[],
  ) => {
    await db.run.updateMany({
      where: { id: { in: crashed } },
      data: { status: 'failed', summary: Prisma.DbNull },
    });
    const res = await call(
      'GET',
      `/experiments/${e.experimentId}/compare?base=${e.poolConfigs[0]!.id}`,
    );
    const body = (await res.json()) as Json;
    expect(res.status, JSON.stringify(body)).toBe(200);
    return body;
  };

  beforeAll(async () => {
    ({ db, dispose } = await withTempDatabase('web_rest_base'));
    services = makeServices();
    deps = {
      db,
      redis: () => services.redis,
      queue: () => services.queue,
      baseUrl: 'http://pb.test',
      rateLimit: { limit: 1000, windowMs: 60_000 },
    };
    A = await makeTeam(db, 'a');
    token = (
      await createApiToken(db, {
        teamId: A.teamId,
        userId: A.users.admin.id,
        name: 'ci',
        scopes: ['runs:read'],
        expiresInDays: 1,
      })
    ).token;
    // one experiment, two pool configs interleaved: "1 conn" is twice as slow as "10 conn"
    const e = await measuredSyntheticExperiment(db, A, {
      configs: ['10 conn', '1 conn'],
      latencyMs: [10, 20],
      repeats: 5,
      seconds: 20,
      seed: 0,
    });
    experimentId = e.experimentId;
    [fast, slow] = e.poolConfigs as [typeof fast, typeof slow];
  });
  afterAll(async () => {
    await services?.close();
    await dispose?.();
  });

  it('compares every other pool config with the base one: 1 conn against 10 conn is a regression in p95', async () => {
    const { status, body } = await get(`base=${encodeURIComponent(fast.name)}&metrics=p95Ms`);
    expect(status).toBe(200);
    expect(body.base).toEqual(fast);
    expect(body.baseline).toBe(fast.name);
    expect(body.cells).toHaveLength(1); // the base config is the reference, not a candidate
    expect(body.cells[0].poolConfig).toEqual(slow);
    expect(body.cells[0].baseline).toMatchObject({ experimentId, runs: 5, poolConfig: fast });
    expect(body.cells[0].metrics[0]).toMatchObject({ key: 'p95Ms', verdict: 'worse' });
    expect(body.cells[0].metrics[0].changePercent.lower).toBeGreaterThan(5);
    expect(body.outcome).toBe('regression');
  });

  it('the other way round the same runs are better, and the base may be given by id', async () => {
    const { body } = await get(`base=${slow.id}&metrics=p95Ms`);
    expect(body.cells[0].poolConfig).toEqual(fast);
    expect(body.cells[0].metrics[0].verdict).toBe('better');
    expect(body.outcome).toBe('pass');
  });

  it('2 of 3 runs crashed and the survivor 10x slower: incomplete with the reason, never a pass', async () => {
    const e = await measuredSyntheticExperiment(db, A, {
      configs: ['10 conn again', '1 conn again'],
      latencyMs: [10, 100],
      repeats: 3,
      seconds: 20,
      seed: 100,
    });
    // the slow config's second and third runs crashed: no summary, status failed
    const body = await crashedThenCompared(e, e.runs[1]!.slice(1));
    expect(body.outcome).toBe('incomplete');
    expect(body.cells[0]).toMatchObject({
      candidateRuns: 1,
      crashedRuns: 2,
      state: 'incomplete',
      incomplete: expect.stringMatching(/^2 of 3 candidate runs crashed/),
    });
  });

  it('the base config with one measured run left: incomplete naming the base, never a pass', async () => {
    const e = await measuredSyntheticExperiment(db, A, {
      configs: ['slow base', 'fast candidate'],
      latencyMs: [100, 10],
      repeats: 5,
      seconds: 20,
      seed: 300,
    });
    // four of the base config's five runs crashed: one measured run is left to compare with
    const body = await crashedThenCompared(e, e.runs[0]!.slice(1));
    expect(body.outcome).toBe('incomplete');
    expect(body.cells).toHaveLength(1);
    expect(body.cells[0]).toMatchObject({
      baseline: { runs: 1 },
      candidateRuns: 5,
      state: 'incomplete',
      incomplete: expect.stringMatching(
        /^1 measured run of the baseline; the test needs at least 2/,
      ),
    });
  });

  it('a saved baseline comparison says base: null', async () => {
    const { body } = await get('baseline=main');
    expect(body.base).toBeNull();
    expect(body.outcome).toBe('no-baseline');
  });

  it('an unknown base, or base with baseline, is 422 naming the field', async () => {
    const unknown = await get('base=nope');
    expect(unknown.status).toBe(422);
    expect(unknown.body.problems).toEqual([
      {
        path: 'base',
        message: `"nope" is not a pool config of this experiment; it has "${fast.name}", "${slow.name}"`,
      },
    ]);
    const both = await get(`base=${fast.id}&baseline=main`);
    expect(both.status).toBe(422);
    expect(both.body.problems).toEqual([
      {
        path: 'base',
        message:
          'give baseline (a saved baseline) or base (a pool config of this experiment), not both',
      },
    ]);
  });
});
