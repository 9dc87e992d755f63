import type { Db } from '@poolbench/db';
import { liveTarget } from '@poolbench/runs';
import { parseTarget } from '@poolbench/db';
import { databaseOf, listPresets, runtimeOf } from '@poolbench/scenarios';
import { LabEnvironmentSchema, RUNTIME_LABELS } from '@poolbench/contracts';
import { applyPreset } from '../scenarios/apply-preset';
import { presetMisfit } from '../scenarios/preset-fit';

/** The seed presets a managed target's runtime and database can run. */
function presetsFor(targetEnvironment: unknown) {
  return listPresets().filter((p) => presetMisfit(p, targetEnvironment) === null);
}

/** "Java + HikariCP on Postgres": what serves a managed target, in words. */
function stackOf(targetEnvironment: unknown) {
  const parsed = LabEnvironmentSchema.safeParse(targetEnvironment ?? {});
  const env = parsed.success ? parsed.data : undefined;
  const runtime = runtimeOf(env);
  const database = databaseOf(env);
  return {
    runtime,
    database,
    stack: `${RUNTIME_LABELS[runtime]} on ${database === 'mariadb' ? 'MariaDB' : 'Postgres'}`,
  };
}

/**
 * A new team's first three steps, each read from the team's own rows (never a flag that can drift):
 * a managed lab target, the seed presets as scenarios, a first experiment that ran.
 */
export async function getOnboarding(db: Db, teamId: string) {
  const [labTarget, presetScenarios, experiment] = await Promise.all([
    db.target.findFirst({
      where: { teamId, kind: 'managed', archivedAt: null },
      select: { id: true, name: true, managed: true },
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
  const environment = labTarget ? parseTarget(labTarget).managed?.environment : undefined;
  const presets = labTarget ? presetsFor(environment) : listPresets();
  return {
    labTarget: labTarget
      ? { id: labTarget.id, name: labTarget.name, ...stackOf(environment) }
      : null,
    presets: {
      applied: presets.filter((p) => applied.has(p.id)).length,
      total: presets.length,
      // the presets this target's runtime and database cannot run, left out of "Add all"
      notForTarget: listPresets().length - presets.length,
      scenarioIds: presetScenarios.map((s) => s.id),
    },
    firstExperiment: experiment,
    done: Boolean(labTarget) && applied.size > 0 && Boolean(experiment),
  };
}

/**
 * Adds every seed preset that the team does not have yet and the target's runtime and database can
 * run (scenarios and their pool configs on the given target) at its default scale; a config two
 * presets share is added once. A second click adds nothing.
 */
export async function applyAllPresets(db: Db, teamId: string, targetId: string) {
  const target = await liveTarget(db, teamId, targetId, { id: true, managed: true });
  const have = await db.scenario.findMany({
    where: { teamId, presetId: { not: null }, archivedAt: null },
    select: { presetId: true },
  });
  const applied = new Set(have.map((s) => s.presetId!.split('#')[0]));
  let added = 0;
  for (const p of presetsFor(parseTarget(target).managed?.environment)) {
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
