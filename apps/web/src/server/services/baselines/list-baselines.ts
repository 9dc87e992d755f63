import { parseRun, type Db, type Prisma } from '@poolbench/db';
import type { CompareItem } from '~/lib/compare/selection';
import { BASELINE_SELECT } from './set-baseline';

/** The team's baselines, optionally for one target and scenario (or the one id), newest first. */
export async function listBaselines(
  db: Db,
  teamId: string,
  filter: { targetId?: string | null; scenarioId?: string | null; id?: string } = {},
) {
  const where: Prisma.BaselineWhereInput = {
    teamId,
    ...(filter.id ? { id: filter.id } : {}),
    ...(filter.targetId ? { targetId: filter.targetId } : {}),
    ...(filter.scenarioId ? { scenarioId: filter.scenarioId } : {}),
  };
  const rows = await db.baseline.findMany({
    where,
    select: {
      ...BASELINE_SELECT,
      updatedAt: true,
      target: { select: { name: true } },
      scenario: { select: { name: true } },
      poolConfig: { select: { name: true } },
      run: { select: { repeatIndex: true, poolConfigSnapshot: true } },
      experiment: { select: { name: true } },
    },
    orderBy: { updatedAt: 'desc' },
  });
  return rows.map(({ run, ...b }) => ({
    ...b,
    item: (b.runId
      ? { kind: 'run', runId: b.runId }
      : {
          kind: 'cell',
          experimentId: b.experimentId!,
          poolConfigId: b.poolConfigId!,
          scenarioId: b.scenarioId,
        }) as CompareItem,
    label: run
      ? `${parseRun(run).poolConfigSnapshot.name ?? 'run'} #${run.repeatIndex + 1}`
      : `${b.poolConfig?.name ?? 'cell'} (${b.experiment?.name ?? 'experiment'})`,
  }));
}
