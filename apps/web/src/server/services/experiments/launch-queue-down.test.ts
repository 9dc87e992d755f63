import { createRunQueue, producerConnection } from '@poolbench/queue';
import type { Db } from '@poolbench/db';
import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handleRest } from '~/server/rest/handle-rest';
import { createApiToken } from '~/server/services/api-tokens/create-api-token';
import { callerFor, makeServices, makeTeam, type TeamFixture } from '~/test/fixtures';
import { withTempDatabase } from '~/test/temp-database';

/**
 * Launching while Redis is down: the launch is accepted as queued (201 / a tRPC result saying the
 * runs start when the queue is back), never a 500 with the raw ioredis text, and one
 * Idempotency-Key never yields two experiments (before: three failed calls made four).
 */
describe('launch with the run queue down (real Postgres; Redis unreachable)', () => {
  let db: Db;
  let dispose: () => Promise<void>;
  let A: TeamFixture;
  let services: ReturnType<typeof makeServices>;
  let dead: Redis;
  let deadQueue: Queue;
  let token: string;
  beforeAll(async () => {
    ({ db, dispose } = await withTempDatabase('web_queue_down'));
    A = await makeTeam(db, 'qd');
    services = makeServices();
    // nothing listens on port 1: every queue command fails at once, as with Redis down
    dead = producerConnection('redis://127.0.0.1:1', {
      retryStrategy: () => null,
      lazyConnect: true,
    }).on('error', () => {});
    deadQueue = createRunQueue(dead, 'pb-dead');
    deadQueue.on('error', () => {});
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
    await deadQueue?.close().catch(() => {});
    dead?.disconnect();
    await services?.close();
    await dispose?.();
  });

  it('REST: 201 with a notice, and the same Idempotency-Key three times gives one experiment', async () => {
    const deps = {
      db,
      redis: () => dead,
      queue: () => deadQueue,
      baseUrl: 'http://pb.test',
      rateLimit: { limit: 1000, windowMs: 60_000 },
    };
    const body = { kind: 'saved', experiment: A.experimentId, name: 'redis down' };
    const post = () =>
      handleRest(
        new Request('http://pb.test/api/v1/experiments', {
          method: 'POST',
          headers: {
            Authorization: `Bearer ${token}`,
            'Content-Type': 'application/json',
            'Idempotency-Key': 'redis-down-1',
          },
          body: JSON.stringify(body),
        }),
        deps,
      );
    const before = await db.experiment.count({ where: { teamId: A.teamId } });
    const answers = [await post(), await post(), await post()];
    const bodies = await Promise.all(answers.map((r) => r.json()));
    expect(answers.map((r) => r.status)).toEqual([201, 201, 201]);
    expect(new Set(bodies.map((b) => b.id)).size).toBe(1);
    expect(bodies[0]).toMatchObject({
      status: 'queued',
      notice: expect.stringMatching(/run queue is unavailable.*start when the queue is back/),
    });
    expect(answers.map((r) => r.headers.get('Idempotent-Replayed'))).toEqual([
      null,
      'true',
      'true',
    ]);
    expect(await db.experiment.count({ where: { teamId: A.teamId } })).toBe(before + 1);
    const runs = await db.run.findMany({ where: { experimentId: bodies[0].id } });
    expect(runs.every((r) => r.status === 'queued')).toBe(true);
  });

  it('tRPC: the launch answers with enqueued=false and the reason, not an INTERNAL_SERVER_ERROR', async () => {
    const caller = callerFor(db, { ...services, queue: deadQueue }, A.users.member, A.teamId);
    const result = await caller.experiment.launch({
      name: 'ui redis down',
      targetId: A.targetId,
      poolConfigIds: [A.poolConfigId],
      scenarioIds: [A.scenarioId],
      repeats: 1,
      order: 'interleaved',
    });
    expect(result.enqueued).toBe(false);
    expect(result.queueMessage).toMatch(/start when the queue is back/);
    expect(
      (await db.experiment.findUniqueOrThrow({ where: { id: result.experimentId } })).status,
    ).toBe('queued');
  });
});
