import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type Db } from './client';
import { migrate, MIGRATIONS_DIR } from './migrate';
import { seedTestTeam } from './test-db';
import { withTempDatabase } from './test-db';

const LIVE_NAMES = '20261121190000_live_name_uniques';

/**
 * Names of targets, pool configs and scenarios are unique among live rows only: archiving keeps a
 * row's name and frees it. Tested on a database created before that migration and upgraded, so
 * the rows archived the old way (renamed) get their names back.
 */
describe('names unique among live rows', () => {
  let db: Db;
  let url: string;
  let dispose: () => Promise<void>;
  let before: string;
  let ids: {
    teamId: string;
    targetId: string;
    poolConfigId: string;
    poolConfigName: string;
    scenarioId: string;
    scenarioName: string;
  };

  beforeAll(async () => {
    before = mkdtempSync(join(tmpdir(), 'pb-mig-before-'));
    cpSync(MIGRATIONS_DIR, before, { recursive: true });
    rmSync(join(before, LIVE_NAMES), { recursive: true });
    const t = await withTempDatabase('live_names', { migrationsDir: before });
    ({ url, dispose } = t);
    db = createDb({ url, max: 2 });
    const { teamId, targetId } = await seedTestTeam(db);
    const pc = await db.poolConfig.findFirstOrThrow({
      where: { teamId, name: { startsWith: 'test' } },
    });
    const sc = await db.scenario.findFirstOrThrow({
      where: { teamId, name: { startsWith: 'test' } },
    });
    // one run that remembers the pool config's name in its snapshot (what the migration restores from)
    const exp = await db.experiment.create({
      data: { teamId, targetId, name: 'history', repeats: 1 },
    });
    await db.run.create({
      data: {
        teamId,
        experimentId: exp.id,
        targetId,
        poolConfigId: pc.id,
        scenarioId: sc.id,
        repeatIndex: 0,
        sequence: 0,
        poolConfigSnapshot: { id: pc.id, name: pc.name },
        scenarioSnapshot: { id: sc.id, name: sc.name },
        targetSnapshot: {},
      },
    });
    ids = {
      teamId,
      targetId,
      poolConfigId: pc.id,
      poolConfigName: pc.name,
      scenarioId: sc.id,
      scenarioName: sc.name,
    };
    // archived the way the app did before the migration
    await db.poolConfig.update({
      where: { id: pc.id },
      data: { archivedAt: new Date(), name: `${pc.id}-archived` },
    });
    await db.scenario.update({
      where: { id: sc.id },
      data: { archivedAt: new Date(), name: `${sc.name} (archived ${sc.id})` },
    });
  });
  afterAll(async () => {
    await db?.$disconnect();
    await dispose?.();
    rmSync(before, { recursive: true, force: true });
  });

  it('the upgrade gives archived rows their names back', async () => {
    expect((await migrate({ url })).applied).toEqual([LIVE_NAMES]);
    expect((await db.poolConfig.findUniqueOrThrow({ where: { id: ids.poolConfigId } })).name).toBe(
      ids.poolConfigName,
    );
    expect((await db.scenario.findUniqueOrThrow({ where: { id: ids.scenarioId } })).name).toBe(
      ids.scenarioName,
    );
  });

  it('an archived row keeps its name, and a live row may take it', async () => {
    const again = await db.poolConfig.create({
      data: {
        teamId: ids.teamId,
        targetId: ids.targetId,
        name: ids.poolConfigName,
        strategy: 'shared-pool',
        params: {},
      },
    });
    expect(again.name).toBe(ids.poolConfigName);
    await db.scenario.create({
      data: { teamId: ids.teamId, name: ids.scenarioName, templateId: 'sustained', params: {} },
    });
    await db.target.update({ where: { id: ids.targetId }, data: { archivedAt: new Date() } });
    const lab = await db.target.findUniqueOrThrow({ where: { id: ids.targetId } });
    await db.target.create({
      data: {
        teamId: ids.teamId,
        name: lab.name,
        kind: 'url',
        baseUrls: ['http://127.0.0.1:1'],
        requestDefaults: {},
        secretHeaderNames: [],
      },
    });
    expect(await db.target.count({ where: { teamId: ids.teamId, name: lab.name } })).toBe(2);
  });

  it('two live rows still cannot share a name', async () => {
    const live = await db.poolConfig.findFirstOrThrow({
      where: { teamId: ids.teamId, archivedAt: null, name: ids.poolConfigName },
    });
    await expect(
      db.poolConfig.create({
        data: {
          teamId: ids.teamId,
          targetId: live.targetId,
          name: live.name,
          strategy: 'shared-pool',
          params: {},
        },
      }),
    ).rejects.toThrow(/Unique constraint/);
    await expect(
      db.scenario.create({
        data: { teamId: ids.teamId, name: ids.scenarioName, templateId: 'sustained', params: {} },
      }),
    ).rejects.toThrow(/Unique constraint/);
  });
});
