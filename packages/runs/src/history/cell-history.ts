import { parseRun, type Db } from '@poolbench/db';
import {
  HISTORY_METRICS,
  MEASURED_RUN_STATUSES,
  type FiringRef,
  type HistoryMetric,
} from '@poolbench/contracts';
import { median, runMetric } from '@poolbench/stats';
import { splitValidRuns } from '../insights/run-validity-of';

export interface CellRef {
  targetId: string;
  scenarioId: string;
  poolConfigId: string;
}

/** One firing of a cell: an experiment that ran it (a schedule's firing, a CI start, a launch). */
export interface CellFiring {
  experimentId: string;
  name: string;
  createdAt: Date;
  commit: string | null;
  branch: string | null;
  /** valid measured runs of the cell in this firing */
  runs: number;
  /** per metric the median over those runs; null when none has the metric */
  values: Record<HistoryMetric, number | null>;
}

/** An experiment as its cell's history (and a change point) names the firing. */
export const firingOf = (e: {
  id: string;
  name: string;
  createdAt: Date;
  commit: string | null;
  branch: string | null;
}): FiringRef => ({
  experimentId: e.id,
  name: e.name,
  createdAt: e.createdAt,
  commit: e.commit,
  branch: e.branch,
});

/** Firings a history reads at most, the newest ones. */
export const HISTORY_LIMIT = 500;

/**
 * The history of one target × scenario × pool config: every experiment with measured runs of it,
 * oldest first, the newest `limit`, each with the medians of its valid runs (invalid runs are left
 * out as every verdict leaves them out, `splitValidRuns`). A firing whose runs are all invalid has
 * no values. `upTo`: only firings created at or before it (what a schedule knew when it fired).
 */
export async function cellHistory(
  db: Db,
  teamId: string,
  cell: CellRef,
  opts: { limit?: number; upTo?: Date } = {},
): Promise<CellFiring[]> {
  const experiments = await db.experiment.findMany({
    where: {
      teamId,
      kind: 'run',
      ...(opts.upTo ? { createdAt: { lte: opts.upTo } } : {}),
      runs: {
        some: {
          targetId: cell.targetId,
          scenarioId: cell.scenarioId,
          poolConfigId: cell.poolConfigId,
          status: { in: [...MEASURED_RUN_STATUSES] },
        },
      },
    },
    select: { id: true, name: true, createdAt: true, commit: true, branch: true },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: opts.limit ?? HISTORY_LIMIT,
  });
  experiments.reverse();
  const rows = await db.run.findMany({
    where: {
      teamId,
      experimentId: { in: experiments.map((e) => e.id) },
      targetId: cell.targetId,
      scenarioId: cell.scenarioId,
      poolConfigId: cell.poolConfigId,
      status: { in: [...MEASURED_RUN_STATUSES] },
    },
    select: {
      id: true,
      experimentId: true,
      status: true,
      summary: true,
      poolConfigSnapshot: true,
      scenarioSnapshot: true,
    },
  });
  const byExperiment = new Map<string, ReturnType<typeof parseRun<(typeof rows)[number]>>[]>();
  for (const r of rows.map(parseRun)) {
    if (!r.summary) continue;
    const list = byExperiment.get(r.experimentId);
    if (list) list.push(r);
    else byExperiment.set(r.experimentId, [r]);
  }
  return experiments.map((e) => {
    const { valid } = splitValidRuns(byExperiment.get(e.id) ?? []);
    const values = Object.fromEntries(
      HISTORY_METRICS.map((m) => {
        const xs = valid
          .map((r) => runMetric(m)?.value(r.summary!))
          .filter((x): x is number => x !== null && x !== undefined && Number.isFinite(x));
        return [m, xs.length ? median(xs) : null];
      }),
    ) as Record<HistoryMetric, number | null>;
    return {
      ...firingOf(e),
      runs: valid.length,
      values,
    };
  });
}
