import type { Db } from '@poolbench/db';
import { scenarioRowData, toJson } from '@poolbench/db';
import { applyScale } from '@poolbench/scenarios';
import { NotFoundError } from '../errors';
import { envColumn } from '../pool-configs/environment-column';

async function freeName(exists: (name: string) => Promise<boolean>, base: string) {
  let name = base;
  for (let i = 2; await exists(name); i++) name = `${base} (${i})`;
  return name;
}

const pct = (scale: number) => `${Math.round(scale * 1000) / 10}%`;

/**
 * One click from a seed preset to a ready experiment: its scenarios at the chosen scale and,
 * optionally, its pool configs on the chosen target. Returns what the experiment form preselects.
 */
export async function applyPreset(
  db: Db,
  teamId: string,
  input: { presetId: string; scale: number; targetId: string; createPoolConfigs: boolean },
) {
  let preset;
  try {
    preset = applyScale(input.presetId, input.scale);
  } catch (e) {
    if (e instanceof Error && e.message.startsWith('unknown preset'))
      throw new NotFoundError('preset');
    throw e;
  }
  const target = await db.target.findFirst({
    where: { id: input.targetId, teamId, archivedAt: null },
    select: { id: true },
  });
  if (!target) throw new NotFoundError('target');
  return db.$transaction(async (tx) => {
    const scenarioIds: string[] = [];
    for (const ps of preset.scenarios) {
      const name = await freeName(
        async (n) => (await tx.scenario.count({ where: { teamId, name: n } })) > 0,
        `${ps.label} · ${pct(input.scale)}`,
      );
      const row = await tx.scenario.create({
        data: { teamId, name, ...scenarioRowData(ps.scenario), presetId: `${preset.id}#${ps.id}` },
        select: { id: true },
      });
      scenarioIds.push(row.id);
    }
    const poolConfigIds: string[] = [];
    if (input.createPoolConfigs) {
      for (const pc of preset.poolConfigs) {
        const name = await freeName(
          async (n) => (await tx.poolConfig.count({ where: { targetId: target.id, name: n } })) > 0,
          pc.name,
        );
        const row = await tx.poolConfig.create({
          data: {
            teamId,
            targetId: target.id,
            name,
            strategy: pc.config.strategy,
            params: toJson.poolParams(pc.config.params),
            instanceCount: pc.config.instanceCount,
            environment: envColumn(pc.config.environment),
          },
          select: { id: true },
        });
        poolConfigIds.push(row.id);
      }
    }
    return {
      presetId: preset.id,
      title: preset.title,
      repeats: preset.repeats,
      targetId: target.id,
      scenarioIds,
      poolConfigIds,
    };
  });
}
