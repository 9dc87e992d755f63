import { createDb, type Db } from '@poolbench/db';
import { withTempDatabase } from '@poolbench/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHeartbeat } from './heartbeat';

describe('worker heartbeat (real Postgres)', () => {
  let db: Db;
  let dispose: () => Promise<void>;
  beforeAll(async () => {
    const t = await withTempDatabase('worker_heartbeat');
    dispose = t.dispose;
    db = createDb({ url: t.url, max: 2 });
  });
  afterAll(async () => {
    await db?.$disconnect();
    await dispose?.();
  });
  const start = (id: string) =>
    startHeartbeat(db, {
      id,
      version: 't',
      concurrency: 1,
      intervalMs: 60_000,
      queueConnected: async () => true,
    });

  it('marks its own row stopped on a clean stop', async () => {
    const hb = await start('hb-own');
    await hb.stop();
    expect(
      (await db.worker.findUniqueOrThrow({ where: { id: 'hb-own' } })).stoppedAt,
    ).not.toBeNull();
  });

  it('does not mark a successor with the same id stopped when the old process stops after it registered', async () => {
    const old = await start('hb-reused');
    // the successor process registers under the same WORKER_ID (another pid)
    await db.worker.update({
      where: { id: 'hb-reused' },
      data: { pid: process.pid + 1, stoppedAt: null },
    });
    await old.stop();
    expect(
      (await db.worker.findUniqueOrThrow({ where: { id: 'hb-reused' } })).stoppedAt,
    ).toBeNull();
  });
});
