import { MEASURED_RUN_STATUSES } from '@poolbench/contracts';
import { parseRun, type Db } from '@poolbench/db';

/**
 * What the compare picker offers: recent experiments with their cells (pool config x scenario and
 * how many repeats succeeded), and recent succeeded runs. Scoped to the team.
 */
export async function listCandidates(
  db: Db,
  teamId: string,
  input: { experimentId?: string | null },
) {
  const experiments = await db.experiment.findMany({
    where: {
      teamId,
      ...(input.experimentId ? { id: input.experimentId } : {}),
      runs: { some: { status: { in: [...MEASURED_RUN_STATUSES] } } },
    },
    select: {
      id: true,
      name: true,
      createdAt: true,
      target: { select: { id: true, name: true } },
      runs: {
        where: { status: { in: [...MEASURED_RUN_STATUSES] } },
        select: {
          id: true,
          poolConfigId: true,
          scenarioId: true,
          repeatIndex: true,
          poolConfigSnapshot: true,
          scenarioSnapshot: true,
          finishedAt: true,
        },
      },
    },
    orderBy: { createdAt: 'desc' },
    take: input.experimentId ? 1 : 20,
  });
  return experiments.map((e) => {
    const cells = new Map<
      string,
      {
        experimentId: string;
        poolConfigId: string;
        scenarioId: string;
        poolConfigName: string;
        strategy: string | null;
        scenarioName: string;
        runs: number;
      }
    >();
    const runs = e.runs.map(parseRun);
    for (const r of runs) {
      if (!r.poolConfigId || !r.scenarioId) continue;
      const k = `${r.poolConfigId}:${r.scenarioId}`;
      const pc = r.poolConfigSnapshot;
      const c = cells.get(k) ?? {
        experimentId: e.id,
        poolConfigId: r.poolConfigId,
        scenarioId: r.scenarioId,
        poolConfigName: pc.name ?? 'pool config',
        strategy: pc.strategy ?? null,
        scenarioName: r.scenarioSnapshot.name ?? 'scenario',
        runs: 0,
      };
      c.runs++;
      cells.set(k, c);
    }
    return {
      id: e.id,
      name: e.name,
      createdAt: e.createdAt,
      target: e.target,
      cells: [...cells.values()],
      runs: runs
        .map((r) => ({
          id: r.id,
          repeatIndex: r.repeatIndex,
          poolConfigName: r.poolConfigSnapshot.name ?? 'run',
          scenarioName: r.scenarioSnapshot.name ?? '',
          finishedAt: r.finishedAt,
        }))
        .sort(
          (a, b) =>
            a.poolConfigName.localeCompare(b.poolConfigName) || a.repeatIndex - b.repeatIndex,
        ),
    };
  });
}
