import type { Db } from '@poolbench/db';
import { liveTarget } from '@poolbench/runs';
import { parsePoolConfig, parseTarget, scenarioRowData, toJson } from '@poolbench/db';
import { applyScale, canonicalJson } from '@poolbench/scenarios';
import { InvalidInputError, NotFoundError } from '../errors';
import { envColumn } from '../pool-configs/environment-column';
import { presetMisfit } from './preset-fit';

async function freeName(exists: (name: string) => Promise<boolean>, base: string) {
  let name = base;
  for (let i = 2; await exists(name); i++) name = `${base} (${i})`;
  return name;
}

const pct = (scale: number) => `${Math.round(scale * 1000) / 10}%`;

/** What makes two pool configs the same config, whatever they are named. */
const configKey = (c: {
  strategy: string;
  params: unknown;
  instanceCount: number;
  environment?: unknown;
}) =>
  canonicalJson({
    strategy: c.strategy,
    params: c.params,
    instanceCount: c.instanceCount,
    environment: c.environment ?? {},
  });

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
  const target = await liveTarget(db, teamId, input.targetId, {
    id: true,
    name: true,
    kind: true,
    managed: true,
  });
  if (input.createPoolConfigs && target.kind === 'managed') {
    const misfit = presetMisfit(preset, parseTarget(target).managed?.environment);
    if (misfit)
      throw new InvalidInputError(
        'targetId',
        `${preset.id} does not suit the target "${target.name}": ${misfit}. Choose a target it suits, or add its scenarios without pool configs`,
      );
  }
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
        // presets share configs ("lazy (default)", "prewarm"): the one the target has is reused,
        // not copied as "prewarm (2)"
        const existing = await tx.poolConfig.findFirst({
          where: { targetId: target.id, name: pc.name, archivedAt: null },
          select: {
            id: true,
            strategy: true,
            params: true,
            instanceCount: true,
            environment: true,
          },
        });
        if (existing && configKey(parsePoolConfig(existing)) === configKey(pc.config)) {
          poolConfigIds.push(existing.id);
          continue;
        }
        // a different config under the same name (another preset's "prewarm" with other
        // upstream connections) is told apart by its preset: "prewarm · Seed 000 TC2"
        const name = await freeName(
          async (n) => (await tx.poolConfig.count({ where: { targetId: target.id, name: n } })) > 0,
          existing ? `${pc.name} · ${preset.title.split(':')[0]}` : pc.name,
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
