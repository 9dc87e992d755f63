import { parseRun, type Db } from '@poolbench/db';
import { splitValidRuns, STORED_INSIGHT_SELECT, storedRunInsights } from '@poolbench/runs';
import type { InvalidRun, RunInsight, RunSummary } from '@poolbench/stats';
import {
  isMeasuredRunStatus,
  MEASURED_RUN_STATUSES,
  TERMINAL_RUN_STATUSES,
} from '@poolbench/contracts';
import { NotFoundError } from '../errors';
import { type CompareItem, itemKey } from '~/lib/compare/selection';

export interface GroupRun {
  id: string;
  repeatIndex: number;
  /** finished runs never change, so their merged histograms may be cached */
  finished: boolean;
  summary: RunSummary | null;
  environment: Record<string, unknown> | null;
  /** its insights from what it stored (`storedRunInsights`, per-second rows aside) */
  insights: RunInsight[];
}

/** What names a compare group: its label, pool config, scenario, experiment and target. */
export interface GroupNames {
  key: string;
  label: string;
  poolConfigName: string;
  strategy: string | null;
  scenarioName: string;
  experimentName: string;
  experimentId: string;
  targetId: string;
  targetName: string;
  poolConfigId: string | null;
  scenarioId: string | null;
}

export interface CompareGroup extends GroupNames {
  item: CompareItem;
  runs: GroupRun[];
  /**
   * a cell's measured runs left out of every statistic as invalid (`splitValidRuns`: the load was
   * not offered, samples were lost), with why; a picked run is shown whatever it is
   */
  invalidRuns: InvalidRun[];
}

const SELECT = {
  ...STORED_INSIGHT_SELECT,
  id: true,
  repeatIndex: true,
  status: true,
  experimentId: true,
  targetId: true,
  poolConfigId: true,
  scenarioId: true,
  experiment: { select: { name: true } },
  target: { select: { name: true } },
} as const;

/**
 * Resolves the picked runs and cells to groups of measured runs, every read filtered by the team
 * (an id of another team is NOT_FOUND, like a missing one). Only runs with a summary count: a
 * failed or canceled repeat is not a sample of the config. A cell's invalid runs are left out and
 * listed in `invalidRuns`; a cell whose runs are all invalid is a group without runs.
 */
export async function loadGroups(
  db: Db,
  teamId: string,
  items: CompareItem[],
): Promise<CompareGroup[]> {
  const runIds = items.flatMap((i) => (i.kind === 'run' ? [i.runId] : []));
  const cells = items.filter((i) => i.kind === 'cell');
  const rows = await db.run
    .findMany({
      where: {
        teamId,
        OR: [
          ...(runIds.length ? [{ id: { in: runIds } }] : []),
          ...cells.map((c) => ({
            experimentId: c.experimentId,
            poolConfigId: c.poolConfigId,
            scenarioId: c.scenarioId,
            status: { in: [...MEASURED_RUN_STATUSES] },
          })),
        ],
      },
      select: SELECT,
      orderBy: [{ repeatIndex: 'asc' }, { id: 'asc' }],
    })
    .then((rs) => rs.map(parseRun));
  return items.map((item) => {
    const mine = rows.filter((r) =>
      item.kind === 'run'
        ? r.id === item.runId
        : r.experimentId === item.experimentId &&
          r.poolConfigId === item.poolConfigId &&
          r.scenarioId === item.scenarioId &&
          isMeasuredRunStatus(r.status),
    );
    const first = mine[0];
    if (!first) throw new NotFoundError(item.kind === 'run' ? 'run' : 'experiment cell');
    const { valid, invalid } =
      item.kind === 'cell' ? splitValidRuns(mine) : { valid: mine, invalid: [] };
    const pc = first.poolConfigSnapshot;
    const sc = first.scenarioSnapshot;
    const poolConfigName = pc.name ?? 'pool config';
    return {
      key: itemKey(item),
      item,
      label: item.kind === 'run' ? `${poolConfigName} #${first.repeatIndex + 1}` : poolConfigName,
      poolConfigName,
      strategy: pc.strategy ?? null,
      scenarioName: sc.name ?? 'scenario',
      experimentName: first.experiment.name,
      experimentId: first.experimentId,
      targetId: first.targetId,
      targetName: first.target.name,
      poolConfigId: first.poolConfigId,
      scenarioId: first.scenarioId,
      invalidRuns: invalid,
      runs: valid.map((r) => ({
        id: r.id,
        repeatIndex: r.repeatIndex,
        finished: TERMINAL_RUN_STATUSES.includes(r.status),
        summary: r.summary,
        environment: r.environment,
        insights: storedRunInsights(r),
      })),
    };
  });
}
