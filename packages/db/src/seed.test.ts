import { verifyPassword } from 'better-auth/crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type Db } from './client';
import { DEMO_EMAIL, DEMO_PASSWORD, seed } from './seed';
import { withTempDatabase } from './test-db';
import { launchExperiment } from './services/launch-experiment';

describe('seed and launchExperiment', () => {
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
    const counts = async () => [await db.user.count(), await db.poolConfig.count(), await db.scenario.count()];
    const before = await counts();
    const second = await seed(db);
    expect(second).toEqual(first);
    expect(await counts()).toEqual(before);
    const account = await db.account.findFirstOrThrow({ where: { user: { email: DEMO_EMAIL }, providerId: 'credential' } });
    expect(await verifyPassword({ hash: account.password!, password: DEMO_PASSWORD })).toBe(true);
    expect(before[1]).toBeGreaterThanOrEqual(10); // every seed's pool configs
  });

  it('launches an experiment as interleaved runs with snapshots, and hides other teams', async () => {
    const { teamId, targetId } = await seed(db);
    const configs = await db.poolConfig.findMany({ where: { name: { startsWith: '004' } }, orderBy: { name: 'asc' }, take: 2 });
    const scenario = await db.scenario.findFirstOrThrow({ where: { name: { startsWith: '004' } } });
    const launched = await launchExperiment(db, {
      teamId, targetId, poolConfigIds: configs.map((c) => c.id), scenarioIds: [scenario.id], repeats: 2, name: 't',
    });
    const runs = await db.run.findMany({ where: { experimentId: launched.experimentId }, orderBy: { sequence: 'asc' } });
    expect(runs.map((r) => r.id)).toEqual(launched.runIds);
    expect(runs.map((r) => r.poolConfigId)).toEqual([configs[0]!.id, configs[1]!.id, configs[0]!.id, configs[1]!.id]);
    expect(runs.every((r) => r.status === 'queued')).toBe(true);
    expect((runs[0]!.poolConfigSnapshot as { strategy: string }).strategy).toBe(configs[0]!.strategy);

    const other = await db.team.create({ data: { name: 'other', slug: 'other-team' } });
    await expect(
      launchExperiment(db, { teamId: other.id, targetId, poolConfigIds: [configs[0]!.id], scenarioIds: [scenario.id], repeats: 1, name: 'x' }),
    ).rejects.toThrow('target not found');
  });
});
