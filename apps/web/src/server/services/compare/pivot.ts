import { MEASURED_RUN_STATUSES } from '@poolbench/contracts';
import { parseRun, type Db } from '@poolbench/db';
import { compareSamples, median, runMetric, type Verdict } from '@poolbench/stats';
import { InvalidInputError, NotFoundError } from '../errors';

export interface Pivot {
  metric: string;
  label: string;
  unit: string;
  direction: 'lower-is-better' | 'higher-is-better';
  columns: Array<{ id: string; name: string }>;
  rows: Array<{ id: string; name: string; strategy: string | null; cells: PivotCell[] }>;
}

export interface PivotCell {
  median: number | null;
  n: number;
  /**
   * This cell against the first pool config in the same column (the reference, as in the compare
   * view), by the same test: only `better`/`worse` are decided; null for the reference itself or
   * when either side has no runs. The matrix colours decided verdicts only.
   */
  verdict: Verdict | null;
}

/** The pivot's rows and columns: the experiment's pool configs and scenarios, in their order. */
export const PIVOT_AXES = {
  poolConfigs: {
    select: {
      position: true,
      poolConfig: { select: { id: true, name: true, strategy: true } },
    },
    orderBy: { position: 'asc' },
  },
  scenarios: {
    select: { position: true, scenario: { select: { id: true, name: true } } },
    orderBy: { position: 'asc' },
  },
} as const;

/**
 * An experiment as a matrix: rows pool configs, columns scenarios, each cell the median of one
 * metric over the cell's succeeded repeats (how seeds 002 and 003 present their results), with
 * its verdict against the column's first pool config (per-run values, Mann–Whitney + floor).
 */
export async function experimentPivot(
  db: Db,
  teamId: string,
  experimentId: string,
  metric: string,
): Promise<Pivot> {
  const def = runMetric(metric);
  if (!def) throw new InvalidInputError('metric', `unknown metric ${metric}`);
  const e = await db.experiment.findFirst({
    where: { id: experimentId, teamId },
    select: {
      ...PIVOT_AXES,
      runs: {
        where: { status: { in: [...MEASURED_RUN_STATUSES] } },
        select: { id: true, poolConfigId: true, scenarioId: true, summary: true },
      },
    },
  });
  if (!e) throw new NotFoundError('experiment');
  const values = (poolConfigId: string, scenarioId: string) =>
    e.runs
      .map(parseRun)
      .flatMap((r) =>
        r.poolConfigId === poolConfigId && r.scenarioId === scenarioId && r.summary
          ? [r.summary]
          : [],
      )
      .map((s) => def.value(s))
      .filter((v): v is number => v !== null && Number.isFinite(v));
  const pivot: Pivot = {
    metric: def.key,
    label: def.label,
    unit: def.unit,
    direction: def.direction,
    columns: e.scenarios.map((s) => ({ id: s.scenario.id, name: s.scenario.name })),
    rows: e.poolConfigs.map(({ poolConfig: pc }) => ({
      id: pc.id,
      name: pc.name,
      strategy: pc.strategy,
      cells: [] as PivotCell[],
    })),
  };
  for (const { scenario } of e.scenarios) {
    const reference = values(e.poolConfigs[0]!.poolConfig.id, scenario.id);
    e.poolConfigs.forEach(({ poolConfig: pc }, ri) => {
      const vs = values(pc.id, scenario.id);
      const verdict =
        ri === 0 || !def.tested || vs.length === 0 || reference.length === 0
          ? null
          : compareSamples(reference, vs, { direction: def.direction, ...def.options }).verdict;
      pivot.rows[ri]!.cells.push({ median: vs.length ? median(vs) : null, n: vs.length, verdict });
    });
  }
  return pivot;
}

/** Every cell of the pivot's experiment with at least one succeeded run, in matrix order. */
export function pivotCells(p: Pivot, experimentId: string) {
  return p.rows.flatMap((r) =>
    p.columns.flatMap((c, ci) =>
      r.cells[ci]!.n > 0
        ? [{ kind: 'cell' as const, experimentId, poolConfigId: r.id, scenarioId: c.id }]
        : [],
    ),
  );
}
