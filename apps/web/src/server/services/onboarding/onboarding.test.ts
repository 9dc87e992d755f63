import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '@poolbench/db';
import { listPresets } from '@poolbench/scenarios';
import { launchExperiment } from '@poolbench/runs';
import { withTempDatabase } from '~/test/temp-database';
import { applyAllPresets, getOnboarding } from './onboarding';

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
      presets: { applied: 0, total: listPresets().length },
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
    expect((await getOnboarding(db, team.id)).labTarget).toEqual({
      id: target.id,
      name: 'Lab target',
    });

    // another team's target is not this team's: adding presets to it is not found
    await expect(
      applyAllPresets(
        db,
        team.id,
        (await db.target.findFirstOrThrow({ where: { teamId: other.id } })).id,
      ),
    ).rejects.toThrow(/target/);
    expect(await applyAllPresets(db, team.id, target.id)).toEqual({ added: listPresets().length });
    expect(await applyAllPresets(db, team.id, target.id)).toEqual({ added: 0 });
    const withPresets = await getOnboarding(db, team.id);
    expect(withPresets.presets.applied).toBe(listPresets().length);
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
});
