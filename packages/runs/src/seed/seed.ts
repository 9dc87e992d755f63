import { scenarioRowData, seedDemoTeam, toJson, type Db } from '@poolbench/db';
import { listPresets } from '@poolbench/scenarios';

/**
 * Idempotent: the demo team and login, the managed lab target (`seedDemoTeam`), and the pool
 * configs and scenarios of every seed preset (at its default scale), so each seed experiment is a
 * few clicks away.
 */
export async function seed(db: Db): Promise<{ teamId: string; userId: string; targetId: string }> {
  const { teamId, userId, targetId } = await seedDemoTeam(db);
  for (const preset of listPresets()) {
    for (const pc of preset.poolConfigs) {
      const name = `${preset.seed} · ${pc.name}`;
      if (
        await db.poolConfig.findFirst({
          where: { targetId, name, archivedAt: null },
          select: { id: true },
        })
      )
        continue;
      await db.poolConfig.create({
        data: {
          teamId,
          targetId,
          name,
          strategy: pc.config.strategy,
          params: toJson.poolParams(pc.config.params ?? {}),
          instanceCount: pc.config.instanceCount ?? 1,
          // the preset's per-config environment (link RTT, role limit, CPU, balancer), if any
          ...(pc.config.environment
            ? { environment: toJson.poolEnvironment(pc.config.environment) }
            : {}),
        },
      });
    }
    for (const ps of preset.scenarios) {
      const name = `${preset.seed} · ${ps.label}`;
      if (
        await db.scenario.findFirst({
          where: { teamId, name, archivedAt: null },
          select: { id: true },
        })
      )
        continue;
      await db.scenario.create({
        data: {
          teamId,
          name,
          ...scenarioRowData(ps.scenario),
          presetId: `${preset.id}#${ps.id}`,
        },
      });
    }
  }
  return { teamId, userId, targetId };
}
