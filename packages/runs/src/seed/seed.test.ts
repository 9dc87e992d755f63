import { verifyPassword } from 'better-auth/crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, DEMO_EMAIL, DEMO_PASSWORD, type Db } from '@poolbench/db';
import { seed } from './seed';
import { withTempDatabase } from '@poolbench/db/testing';

describe('seed', () => {
  let db: Db;
  let dispose: () => Promise<void>;
  beforeAll(async () => {
    const t = await withTempDatabase('seed');
    dispose = t.dispose;
    db = createDb({ url: t.url, max: 2 });
  });
  afterAll(async () => {
    await db?.$disconnect();
    await dispose?.();
  });

  it('is idempotent and creates a working demo login', async () => {
    const first = await seed(db);
    const counts = async () => [
      await db.user.count(),
      await db.poolConfig.count(),
      await db.scenario.count(),
    ];
    const before = await counts();
    const second = await seed(db);
    expect(second).toEqual(first);
    expect(await counts()).toEqual(before);
    const account = await db.account.findFirstOrThrow({
      where: { user: { email: DEMO_EMAIL }, providerId: 'credential' },
    });
    expect(await verifyPassword({ hash: account.password!, password: DEMO_PASSWORD })).toBe(true);
    expect(before[1]).toBeGreaterThanOrEqual(10); // every seed's pool configs
  });
});
