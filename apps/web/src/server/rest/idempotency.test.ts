import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '@poolbench/db';
import { withTempDatabase } from '~/test/temp-database';
import { makeServices, makeTeam, type TeamFixture } from '~/test/fixtures';
import { createApiToken } from '~/server/services/api-tokens/create-api-token';
import type { RestDeps } from './deps';
import { restCaller } from '~/test/rest';

describe('Idempotency-Key on POST /api/v1/experiments (real Postgres and Redis)', () => {
  let db: Db;
  let dispose: () => Promise<void>;
  let services: ReturnType<typeof makeServices>;
  let deps: RestDeps;
  let A: TeamFixture;
  let token: string;

  beforeAll(async () => {
    ({ db, dispose } = await withTempDatabase('web_idem'));
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
        scopes: ['runs:read', 'runs:write'],
        expiresInDays: 1,
      })
    ).token;
  });
  afterAll(async () => {
    await services?.close();
    await dispose?.();
  });

  const call = restCaller(
    () => deps,
    () => token,
  );
  const start = (key: string, body: unknown) =>
    call('POST', '/experiments', body, { 'Idempotency-Key': key });

  it('two concurrent starts with the same key create one experiment and one set of jobs', async () => {
    const body = { kind: 'saved', experiment: A.experimentId, name: 'concurrent' };
    const responses = await Promise.all(Array.from({ length: 5 }, () => start('ci-run-1', body)));
    const bodies = await Promise.all(responses.map((r) => r.json()));
    expect(responses.map((r) => r.status)).toEqual([201, 201, 201, 201, 201]);
    expect(new Set(bodies.map((b) => b.id)).size).toBe(1);
    expect(responses.filter((r) => r.headers.get('idempotent-replayed') === 'true')).toHaveLength(
      4,
    );
    expect(await db.experiment.count({ where: { teamId: A.teamId, name: 'concurrent' } })).toBe(1);
    const runIds = bodies[0].runs.map((r: { id: string }) => r.id);
    const jobs = await services.queue.getJobs(['waiting', 'prioritized', 'delayed', 'active']);
    expect(jobs.filter((j) => runIds.includes(j.id)).length).toBe(runIds.length);
  });

  it('a later retry with the same key and body returns the stored response', async () => {
    const body = { kind: 'saved', experiment: A.experimentId, name: 'retried' };
    const first = await (await start('ci-run-2', body)).json();
    const again = await start('ci-run-2', {
      name: 'retried',
      experiment: A.experimentId,
      kind: 'saved',
    }); // same JSON, other key order
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect((await again.json()).id).toBe(first.id);
    expect(await db.experiment.count({ where: { teamId: A.teamId, name: 'retried' } })).toBe(1);
  });

  it('the same key with a different body is refused (422 idempotency_key_reused)', async () => {
    await start('ci-run-3', { kind: 'saved', experiment: A.experimentId, name: 'one' });
    const res = await start('ci-run-3', { kind: 'saved', experiment: A.experimentId, name: 'two' });
    expect(res.status).toBe(422);
    expect((await res.json()).code).toBe('idempotency_key_reused');
  });

  it('a failed request with a key is replayed as the same problem, and does not start anything', async () => {
    const body = { kind: 'saved', experiment: 'no-such-experiment' };
    const a = await start('ci-run-4', body);
    const b = await start('ci-run-4', body);
    expect([a.status, b.status]).toEqual([404, 404]);
    expect(b.headers.get('content-type')).toBe('application/problem+json');
    expect(b.headers.get('idempotent-replayed')).toBe('true');
    expect((await b.json()).code).toBe('not_found');
  });
});
