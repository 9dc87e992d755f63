import { NotFoundError, parseRun, type Db } from '@poolbench/db';
import {
  CRASHED_RUN_STATUSES,
  isCrashedRunStatus,
  MEASURED_RUN_STATUSES,
} from '@poolbench/contracts';
import {
  cellState,
  compareMetrics,
  incompleteReason,
  loadNotTakenReason,
  isSuspectedWorse,
  median,
  runMetric,
  type CellState,
  type FailedThreshold,
  type InvalidRun,
  type Verdict,
} from '@poolbench/stats';
import { HISTORY_METRICS, type HistoryMetric } from '@poolbench/contracts';
import { firingOf, splitValidRuns, type CellRef } from '@poolbench/runs';

/** The metrics a trend charts, one value per run (RUN_METRICS), the median over each experiment's runs: a history's. */
export const TREND_METRICS = HISTORY_METRICS;
export type TrendMetric = HistoryMetric;
export type TrendCellRef = CellRef;

/** The target, scenario and pool config of a cell, each of this team (the pool config of that target), or NOT_FOUND. */
export async function trendCellNames(db: Db, teamId: string, cell: TrendCellRef) {
  const [target, scenario, poolConfig] = await Promise.all([
    db.target.findFirst({ where: { id: cell.targetId, teamId }, select: { id: true, name: true } }),
    db.scenario.findFirst({
      where: { id: cell.scenarioId, teamId },
      select: { id: true, name: true },
    }),
    db.poolConfig.findFirst({
      where: { id: cell.poolConfigId, teamId, targetId: cell.targetId },
      select: { id: true, name: true },
    }),
  ]);
  if (!target || !scenario || !poolConfig) throw new NotFoundError('trend cell');
  return { target, scenario, poolConfig };
}

interface Values {
  runIds: string[];
  /** runs that crashed (failed, timed out, aborted by the system): counted, never dropped */
  crashed: number;
  /** measured runs left out as invalid (`splitValidRuns`), with why: counted, never dropped */
  invalid: InvalidRun[];
  values: Record<TrendMetric, number[]>;
  failedThresholds: FailedThreshold[];
}

const empty = (): Values => ({
  runIds: [],
  crashed: 0,
  invalid: [],
  values: { p95Ms: [], p99Ms: [], rps: [], errorRate: [] },
  failedThresholds: [],
});

/**
 * Per experiment, the valid measured runs of one target × scenario × pool config and their metric
 * values, its invalid runs with why, and how many of its runs crashed (an experiment whose runs all
 * crashed or are invalid is a point too). Failed thresholds come from every measured run.
 */
async function cellRuns(db: Db, teamId: string, cell: TrendCellRef, experimentIds?: string[]) {
  const rows = await db.run.findMany({
    where: {
      teamId,
      targetId: cell.targetId,
      scenarioId: cell.scenarioId,
      poolConfigId: cell.poolConfigId,
      status: { in: [...MEASURED_RUN_STATUSES, ...CRASHED_RUN_STATUSES] },
      ...(experimentIds ? { experimentId: { in: experimentIds } } : {}),
    },
    select: {
      id: true,
      experimentId: true,
      status: true,
      summary: true,
      thresholdResults: true,
      poolConfigSnapshot: true,
      scenarioSnapshot: true,
    },
    orderBy: [{ repeatIndex: 'asc' }, { id: 'asc' }],
  });
  const byExperiment = new Map<string, Values>();
  for (const r of rows.map(parseRun)) {
    const v = byExperiment.get(r.experimentId) ?? empty();
    if (isCrashedRunStatus(r.status)) {
      v.crashed++;
      byExperiment.set(r.experimentId, v);
      continue;
    }
    if (!r.summary) continue;
    byExperiment.set(r.experimentId, v);
    for (const t of r.thresholdResults ?? [])
      if (!t.pass)
        v.failedThresholds.push({
          runId: r.id,
          metric: t.metric,
          expr: t.expr,
          observed: t.observed,
        });
    const [invalid] = splitValidRuns([r]).invalid;
    if (invalid) {
      v.invalid.push(invalid);
      continue;
    }
    v.runIds.push(r.id);
    for (const m of TREND_METRICS) {
      const x = runMetric(m)?.value(r.summary);
      if (x !== null && x !== undefined && Number.isFinite(x)) v.values[m].push(x);
    }
  }
  return byExperiment;
}

/**
 * A trend of one target × scenario × pool config: per experiment that ran it (oldest first), the
 * median over its runs of p95, p99, throughput and error rate, its CI origin, and, when the team
 * has a baseline for the target and scenario, each metric's verdict against the baseline's runs of
 * the same pool config (Mann–Whitney U + Hodges–Lehmann, the metric's own floor, as the compare view
 * decides it). The four are the primary metrics: their p-values are adjusted together with Holm,
 * as a check's are. Invalid runs are left out on both sides and named (`invalidRuns`). A point with
 * too few valid runs on a side or too many crashed or invalid runs is `incomplete` with the reason
 * (`incompleteReason`), never a pass.
 */
export async function trendSeries(
  db: Db,
  teamId: string,
  cell: TrendCellRef,
  opts: { baseline?: string | null; limit?: number } = {},
) {
  const { target, scenario, poolConfig } = await trendCellNames(db, teamId, cell);
  const byExperiment = await cellRuns(db, teamId, cell);
  const experiments = await db.experiment.findMany({
    where: { id: { in: [...byExperiment.keys()] }, teamId },
    select: {
      id: true,
      name: true,
      createdAt: true,
      commit: true,
      branch: true,
      buildUrl: true,
      scheduleId: true,
    },
    orderBy: { createdAt: 'desc' },
    take: opts.limit ?? 100,
  });
  experiments.reverse();

  const baselines = await db.baseline.findMany({
    where: {
      teamId,
      targetId: cell.targetId,
      scenarioId: cell.scenarioId,
      // a baseline belongs to the pool config it was saved from (schedules read it the same way);
      // one that names no config is the whole experiment's
      OR: [{ poolConfigId: cell.poolConfigId }, { poolConfigId: null }],
      experimentId: { not: null },
    },
    select: { name: true, experimentId: true, poolConfigId: true },
    orderBy: { name: 'asc' },
  });
  const chosen = opts.baseline
    ? baselines.find((b) => b.name === opts.baseline)
    : (baselines.find((b) => b.name === 'main') ?? baselines[0]);
  if (opts.baseline && !chosen)
    throw new NotFoundError(`baseline "${opts.baseline}" of this target and scenario`);
  // the baseline's runs of this pool config
  const baseRuns = chosen?.experimentId
    ? ((await cellRuns(db, teamId, cell, [chosen.experimentId])).get(chosen.experimentId) ?? null)
    : null;

  const points = experiments.map((e) => {
    const v = byExperiment.get(e.id)!;
    const compared = !!baseRuns && e.id !== chosen?.experimentId;
    // the four charted metrics are the primary ones: one Holm family, as in a check
    const tested = compared
      ? TREND_METRICS.filter((m) => v.values[m].length > 0 && baseRuns.values[m].length > 0)
      : [];
    const results = compareMetrics(
      tested.map((m) => {
        const def = runMetric(m)!;
        return {
          name: m,
          baseline: baseRuns!.values[m],
          candidate: v.values[m],
          options: { direction: def.direction, ...def.options },
          primary: true,
        };
      }),
    );
    const metrics = Object.fromEntries(
      TREND_METRICS.map((m) => {
        const values = v.values[m];
        const cmp = results.find((r) => r.name === m);
        const verdict: Verdict | null = cmp ? cmp.verdict : null;
        const suspected = cmp ? isSuspectedWorse(cmp) : false;
        return [
          m,
          { median: values.length ? median(values) : null, n: values.length, verdict, suspected },
        ];
      }),
    ) as Record<
      TrendMetric,
      { median: number | null; n: number; verdict: Verdict | null; suspected: boolean }
    >;
    const counts = compared
      ? {
          baselineRuns: baseRuns.runIds.length,
          candidateRuns: v.runIds.length,
          crashedRuns: v.crashed,
          invalidBaseline: baseRuns.invalid,
          invalidCandidate: v.invalid,
        }
      : null;
    // a point whose runs fell behind the load the baseline took is judged: a regression
    const loadNotTaken = counts ? loadNotTakenReason(counts) : null;
    const incomplete = counts && !loadNotTaken ? incompleteReason(counts) : null;
    // the one outcome rule, per point: a worse verdict or a failed threshold, else a suspicion
    const state: CellState = cellState({
      metrics: TREND_METRICS.map((m) => metrics[m]),
      failedThresholds: v.failedThresholds,
      incomplete,
      loadNotTaken,
    });
    return {
      ...firingOf(e),
      buildUrl: e.buildUrl,
      scheduled: e.scheduleId !== null,
      runs: v.runIds.length,
      crashedRuns: v.crashed,
      invalidRuns: v.invalid,
      incomplete,
      loadNotTaken,
      isBaseline: e.id === chosen?.experimentId,
      state,
      regression: state === 'regression',
      failedThresholds: v.failedThresholds,
      metrics,
    };
  });
  const baseline =
    chosen && baseRuns
      ? {
          name: chosen.name,
          experimentId: chosen.experimentId!,
          runs: baseRuns.runIds.length,
          medians: Object.fromEntries(
            TREND_METRICS.map((m) => [
              m,
              baseRuns.values[m].length ? median(baseRuns.values[m]) : null,
            ]),
          ) as Record<TrendMetric, number | null>,
        }
      : null;
  return {
    target,
    scenario,
    poolConfig,
    baseline,
    baselineNames: baselines.map((b) => b.name),
    points,
  };
}

/** Every target × scenario × pool config of the team with measured runs: what a trend can be drawn for. */
export async function trendCells(db: Db, teamId: string) {
  const groups = await db.run.groupBy({
    by: ['targetId', 'scenarioId', 'poolConfigId'],
    where: {
      teamId,
      status: { in: [...MEASURED_RUN_STATUSES] },
      scenarioId: { not: null },
      poolConfigId: { not: null },
    },
    _count: { _all: true },
  });
  const ids = (k: 'targetId' | 'scenarioId' | 'poolConfigId') => [
    ...new Set(groups.map((g) => g[k]).filter((x): x is string => x !== null)),
  ];
  const [targets, scenarios, configs] = await Promise.all([
    db.target.findMany({
      where: { id: { in: ids('targetId') }, teamId },
      select: { id: true, name: true },
    }),
    db.scenario.findMany({
      where: { id: { in: ids('scenarioId') }, teamId },
      select: { id: true, name: true },
    }),
    db.poolConfig.findMany({
      where: { id: { in: ids('poolConfigId') }, teamId },
      select: { id: true, name: true },
    }),
  ]);
  const name = (rows: Array<{ id: string; name: string }>, id: string | null) =>
    rows.find((r) => r.id === id)?.name;
  return groups
    .flatMap((g) => {
      const t = name(targets, g.targetId);
      const s = name(scenarios, g.scenarioId);
      const p = name(configs, g.poolConfigId);
      return t && s && p
        ? [
            {
              targetId: g.targetId,
              targetName: t,
              scenarioId: g.scenarioId!,
              scenarioName: s,
              poolConfigId: g.poolConfigId!,
              poolConfigName: p,
              runs: g._count._all,
            },
          ]
        : [];
    })
    .sort(
      (a, b) =>
        a.targetName.localeCompare(b.targetName) ||
        a.scenarioName.localeCompare(b.scenarioName) ||
        a.poolConfigName.localeCompare(b.poolConfigName),
    );
}
