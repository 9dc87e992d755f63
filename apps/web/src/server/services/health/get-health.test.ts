import type { Db } from '@poolbench/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeServices } from '~/test/fixtures';
import { withTempDatabase } from '~/test/temp-database';
import { createDb } from '@poolbench/db';
import { producerConnection } from '@poolbench/queue';
import { getHealth } from './get-health';
import { healthResponse } from './health-response';

describe('getHealth (real Postgres and Redis)', () => {
  let db: Db;
  let dispose: () => Promise<void>;
  let services: ReturnType<typeof makeServices>;
  beforeAll(async () => {
    ({ db, dispose } = await withTempDatabase('web_health'));
    services = makeServices();
  });
  afterAll(async () => {
    await services?.close();
    await dispose?.();
  });
  const worker = (
    id: string,
    data: { lastSeenAt?: Date; queueConnected?: boolean; stoppedAt?: Date | null },
  ) =>
    db.worker.upsert({
      where: { id },
      create: {
        id,
        host: 'h',
        pid: 1,
        version: 'v',
        concurrency: 1,
        startedAt: new Date(),
        lastSeenAt: data.lastSeenAt ?? new Date(),
        queueConnected: data.queueConnected ?? true,
        stoppedAt: data.stoppedAt ?? null,
      },
      update: data,
    });
  const health = () => getHealth({ db, redis: services.redis, staleAfterMs: 15_000 });

  it('no worker: degraded', async () => {
    expect((await health()).worker).toMatchObject({ ok: false, count: 0 });
  });

  it('a worker with a fresh heartbeat that lost its queue connection is not healthy, and is again when it has it back', async () => {
    await worker('w1', { queueConnected: false });
    const down = await health();
    expect(down.status).toBe('degraded');
    expect(down.worker).toMatchObject({ ok: false, count: 0 });
    expect(down.worker.detail).toMatch(/cannot reach the queue \(Redis\): w1/);
    await worker('w1', { queueConnected: true, lastSeenAt: new Date() });
    expect(await health()).toMatchObject({ status: 'ok', worker: { ok: true, count: 1 } });
  });

  it('a server process that has just started waits for its first Redis connection instead of reporting it down', async () => {
    const fresh = producerConnection(process.env.REDIS_URL ?? 'redis://127.0.0.1:63799');
    try {
      expect(fresh.status).not.toBe('ready');
      const h = await getHealth({ db, redis: fresh, staleAfterMs: 15_000 });
      expect(h.redis).toEqual({ ok: true });
    } finally {
      fresh.disconnect();
    }
  });

  it('a stale or stopped worker does not count', async () => {
    await worker('w1', { lastSeenAt: new Date(Date.now() - 60_000) });
    expect((await health()).worker.ok).toBe(false);
    await worker('w1', { lastSeenAt: new Date(), stoppedAt: new Date() });
    expect((await health()).worker.ok).toBe(false);
  });

  it('the public answer says which component is down, never why; the log has the details', async () => {
    const nowhere = 'postgresql://poolbench:secret-pw@127.0.0.1:1/poolbench';
    const downDb = createDb({ url: nowhere, max: 1 });
    const downRedis = producerConnection('redis://127.0.0.1:1').on('error', () => {});
    const logged: string[] = [];
    try {
      await worker('w-cut-off-7', {
        queueConnected: false,
        lastSeenAt: new Date(),
        stoppedAt: null,
      });
      const cases = [
        { deps: { db: downDb, redis: services.redis }, down: 'db' },
        { deps: { db, redis: downRedis }, down: 'redis' },
        { deps: { db, redis: services.redis }, down: 'worker' },
      ] as const;
      for (const c of cases) {
        logged.length = 0;
        const res = await healthResponse({ ...c.deps, staleAfterMs: 15_000 }, (m) =>
          logged.push(m),
        );
        expect(res.status, c.down).toBe(503);
        const text = await res.text();
        const body = JSON.parse(text) as Record<string, { ok: boolean } | string>;
        expect(body.status).toBe('degraded');
        expect(body[c.down]).toMatchObject({ ok: false });
        expect(text, c.down).not.toMatch(
          /detail|w-cut-off-7|ECONNREFUSED|127\.0\.0\.1|secret|prisma/i,
        );
        expect(logged.join('\n'), c.down).toMatch(
          c.down === 'worker' ? /w-cut-off-7/ : /down \(.+\)/,
        );
      }
    } finally {
      downRedis.disconnect();
      await downDb.$disconnect().catch(() => {});
      await worker('w-cut-off-7', { stoppedAt: new Date() });
    }
  });
});
