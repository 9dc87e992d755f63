import type { Db } from '@poolbench/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeServices } from '~/test/fixtures';
import { withTempDatabase } from '~/test/temp-database';
import { getHealth } from './get-health';

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

  it('a stale or stopped worker does not count', async () => {
    await worker('w1', { lastSeenAt: new Date(Date.now() - 60_000) });
    expect((await health()).worker.ok).toBe(false);
    await worker('w1', { lastSeenAt: new Date(), stoppedAt: new Date() });
    expect((await health()).worker.ok).toBe(false);
  });
});
