import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '@poolbench/db';
import { listPresets } from '@poolbench/scenarios';
import { launchExperiment } from '@poolbench/runs';
import { withTempDatabase } from '~/test/temp-database';
import { applyPreset } from '../scenarios/apply-preset';
import { applyAllPresets, getOnboarding } from './onboarding';

const managedTarget = (teamId: string, name: string, environment?: Record<string, string>) => ({
  teamId,
  name,
  kind: 'managed' as const,
  baseUrls: [],
  managed: { program: 'lab-target', ...(environment ? { environment } : {}) },
  requestDefaults: { method: 'GET', path: '/work' },
  secretHeaderNames: [],
  readinessPath: '/ready',
});

describe('onboarding steps from real data (real Postgres)', () => {
  let db: Db;
  let dispose: () => Promise<void>;
  beforeAll(async () => {
    ({ db, dispose } = await withTempDatabase('web_onboarding'));
  });
  afterAll(async () => dispose?.());

  it('a new team: lab target, seed presets (one click, idempotent), first experiment, each done only when its rows exist', async () => {
    const team = await db.team.create({ data: { name: 'New', slug: 'new-onboarding' } });
    const other = await db.team.create({ data: { name: 'Other', slug: 'other-onboarding' } });
    await db.target.create({
      data: {
        teamId: other.id,
        name: 'Lab',
        kind: 'managed',
        baseUrls: [],
        managed: { program: 'lab-target' },
        requestDefaults: { method: 'GET', path: '/health' },
        secretHeaderNames: [],
        readinessPath: '/ready',
      },
    });
    const empty = await getOnboarding(db, team.id);
    expect(empty).toMatchObject({
      labTarget: null,
      presets: { applied: 0, total: listPresets().length, notForTarget: 0 },
      firstExperiment: null,
      done: false,
    });

    const target = await db.target.create({
      data: {
        teamId: team.id,
        name: 'Lab target',
        kind: 'managed',
        baseUrls: [],
        managed: { program: 'lab-target' },
        requestDefaults: { method: 'GET', path: '/work' },
        secretHeaderNames: [],
        readinessPath: '/ready',
      },
    });
    const withTarget = await getOnboarding(db, team.id);
    expect(withTarget.labTarget).toEqual({
      id: target.id,
      name: 'Lab target',
      runtime: 'go',
      database: 'postgres',
      stack: 'Go (pgx / database/sql) on Postgres',
    });
    // the Go lab target runs every preset but the one whose configs all run Java + HikariCP
    const forGo = listPresets().filter((p) => p.id !== 'seed-003-hikaricp');
    expect(withTarget.presets).toMatchObject({ total: forGo.length, notForTarget: 1 });

    // another team's target is not this team's: adding presets to it is not found
    await expect(
      applyAllPresets(
        db,
        team.id,
        (await db.target.findFirstOrThrow({ where: { teamId: other.id } })).id,
      ),
    ).rejects.toThrow(/target/);
    expect(await applyAllPresets(db, team.id, target.id)).toEqual({ added: forGo.length });
    expect(await applyAllPresets(db, team.id, target.id)).toEqual({ added: 0 });
    const withPresets = await getOnboarding(db, team.id);
    expect(withPresets.presets.applied).toBe(forGo.length);
    // presets that share a config ("lazy (default)", "prewarm") add it once, with no "(2)" copies
    const names = (
      await db.poolConfig.findMany({ where: { targetId: target.id }, select: { name: true } })
    ).map((c) => c.name);
    expect(names.filter((n) => / \(\d+\)$/.test(n))).toEqual([]);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toContain('10 conns x 1 instance');
    // TC1 and TC3 share "prewarm"; TC2's has other upstream connections, named by its preset
    expect(names.filter((n) => n.startsWith('prewarm'))).toEqual(
      expect.arrayContaining(['prewarm', 'prewarm · Seed 000 TC2', 'prewarm · Seed 000 TC4']),
    );
    expect(withPresets.firstExperiment).toBeNull();

    const pc = await db.poolConfig.findFirstOrThrow({ where: { targetId: target.id } });
    const launched = await launchExperiment(db, {
      teamId: team.id,
      targetId: target.id,
      poolConfigIds: [pc.id],
      scenarioIds: [withPresets.presets.scenarioIds[0]!],
      repeats: 1,
      name: 'first',
    });
    const done = await getOnboarding(db, team.id);
    expect(done.firstExperiment).toEqual({ id: launched.experimentId, name: 'first' });
    expect(done.done).toBe(true);
    expect((await getOnboarding(db, other.id)).firstExperiment).toBeNull();
  });

  it('a team whose first target is Java + HikariCP gets only the presets HikariCP can run', async () => {
    const team = await db.team.create({ data: { name: 'Java', slug: 'java-onboarding' } });
    const target = await db.target.create({
      data: managedTarget(team.id, 'Orders on HikariCP', { runtime: 'java-hikari' }),
    });
    const o = await getOnboarding(db, team.id);
    expect(o.labTarget).toMatchObject({
      name: 'Orders on HikariCP',
      runtime: 'java-hikari',
      stack: 'Java + HikariCP on Postgres',
    });
    expect(o.presets).toMatchObject({ total: 1, notForTarget: listPresets().length - 1 });
    expect(await applyAllPresets(db, team.id, target.id)).toEqual({ added: 1 });
    const configs = await db.poolConfig.findMany({
      where: { targetId: target.id },
      select: { name: true, strategy: true },
    });
    expect(configs).toHaveLength(7);
    expect(configs.map((c) => c.strategy)).not.toContain('lazy');
    expect(configs.filter((c) => / \(\d+\)$/.test(c.name))).toEqual([]);

    // one preset added by hand to a target it does not suit: refused at the target, saying why
    await expect(
      applyPreset(db, team.id, {
        presetId: 'seed-004-per-request-vs-shared-pool',
        scale: 1,
        targetId: target.id,
        createPoolConfigs: true,
      }),
    ).rejects.toMatchObject({
      path: 'targetId',
      message: expect.stringMatching(
        /targetId: seed-004-per-request-vs-shared-pool does not suit the target "Orders on HikariCP": its pool config "open\/close per request" cannot run here: per-request is not supported by the java-hikari runtime/,
      ),
    });
    // its scenarios alone are fine
    await expect(
      applyPreset(db, team.id, {
        presetId: 'seed-004-per-request-vs-shared-pool',
        scale: 1,
        targetId: target.id,
        createPoolConfigs: false,
      }),
    ).resolves.toMatchObject({ poolConfigIds: [] });
  });
});
