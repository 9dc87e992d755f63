import type { Db } from '@poolbench/db';
import { listPresets } from '@poolbench/scenarios';
import { NotFoundError } from '../errors';
import { applyPreset } from '../scenarios/apply-preset';

/**
 * A new team's first three steps, each read from the team's own rows (never a flag that can drift):
 * a managed lab target, the seed presets as scenarios, a first experiment that ran.
 */
export async function getOnboarding(db: Db, teamId: string) {
  const [labTarget, presetScenarios, experiment] = await Promise.all([
    db.target.findFirst({
      where: { teamId, kind: 'managed', archivedAt: null },
      select: { id: true, name: true },
      orderBy: { createdAt: 'asc' },
    }),
    db.scenario.findMany({
      where: { teamId, presetId: { not: null }, archivedAt: null },
      select: { id: true, presetId: true },
    }),
    db.experiment.findFirst({
      where: { teamId, kind: 'run' },
      select: { id: true, name: true },
      orderBy: { createdAt: 'asc' },
    }),
  ]);
  const applied = new Set(presetScenarios.map((s) => s.presetId!.split('#')[0]));
  const presets = listPresets();
  return {
    labTarget,
    presets: {
      applied: presets.filter((p) => applied.has(p.id)).length,
      total: presets.length,
      scenarioIds: presetScenarios.map((s) => s.id),
    },
    firstExperiment: experiment,
    done: Boolean(labTarget) && applied.size > 0 && Boolean(experiment),
  };
}

/**
 * Adds every seed preset that the team does not have yet (scenarios and their pool configs on the
 * given target) at its default scale; a second click adds nothing.
 */
export async function applyAllPresets(db: Db, teamId: string, targetId: string) {
  const target = await db.target.findFirst({
    where: { id: targetId, teamId, archivedAt: null },
    select: { id: true },
  });
  if (!target) throw new NotFoundError('target');
  const have = await db.scenario.findMany({
    where: { teamId, presetId: { not: null }, archivedAt: null },
    select: { presetId: true },
  });
  const applied = new Set(have.map((s) => s.presetId!.split('#')[0]));
  let added = 0;
  for (const p of listPresets()) {
    if (applied.has(p.id)) continue;
    await applyPreset(db, teamId, {
      presetId: p.id,
      scale: p.defaultScale,
      targetId,
      createPoolConfigs: true,
    });
    added++;
  }
  return { added };
}
