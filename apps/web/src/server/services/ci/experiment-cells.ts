import { parseRun, type Db, type PoolConfigSnapshot, type ScenarioSnapshot } from '@poolbench/db';
import { EXPERIMENT_MATRIX_SELECT, splitValidRuns } from '@poolbench/runs';
import {
  gateCellState,
  type FailedThreshold,
  type InvalidRun,
  type RunSummary,
} from '@poolbench/stats';
import {
  isCrashedRunStatus,
  isMeasuredRunStatus,
  TERMINAL_RUN_STATUSES,
  TESTED_RUN_METRIC_KEYS,
  type TestedRunMetricKey,
} from '@poolbench/contracts';
import { NotFoundError } from '../errors';
import type { CompareItem } from '~/lib/compare/selection';
import { cellVerdicts } from './cell-verdicts';

export interface CellRun {
  id: string;
  status: string;
  summary: RunSummary | null;
  thresholdResults:
    { metric: string; expr: string; observed: number | null; pass: boolean }[] | null;
  poolConfigSnapshot: PoolConfigSnapshot;
  scenarioSnapshot: ScenarioSnapshot;
}

export interface Cell {
  poolConfig: { id: string; name: string } | null;
  scenario: { id: string; name: string } | null;
  runs: CellRun[];
}

/** An experiment's runs grouped by pool config x scenario, in the experiment's order. */
export async function experimentCells(db: Db, teamId: string, experimentId: string) {
  const e = await db.experiment.findFirst({
    where: { id: experimentId, teamId },
    select: {
      id: true,
      status: true,
      targetId: true,
      ...EXPERIMENT_MATRIX_SELECT,
      runs: {
        orderBy: { sequence: 'asc' },
        select: {
          id: true,
          status: true,
          poolConfigId: true,
          scenarioId: true,
          summary: true,
          thresholdResults: true,
          poolConfigSnapshot: true,
          scenarioSnapshot: true,
        },
      },
    },
  });
  if (!e) throw new NotFoundError('experiment');
  const cells: Cell[] = [];
  for (const { poolConfig } of e.poolConfigs) {
    for (const { scenario } of e.scenarios) {
      cells.push({
        poolConfig,
        scenario,
        runs: e.runs
          .filter((r) => r.poolConfigId === poolConfig.id && r.scenarioId === scenario.id)
          .map(parseRun)
          .map((r) => ({
            id: r.id,
            status: r.status,
            summary: r.summary,
            thresholdResults: r.thresholdResults,
            poolConfigSnapshot: r.poolConfigSnapshot,
            scenarioSnapshot: r.scenarioSnapshot,
          })),
      });
    }
  }
  const finished = e.runs.every((r) => TERMINAL_RUN_STATUSES.includes(r.status));
  return { id: e.id, status: e.status, targetId: e.targetId, finished, cells };
}

/** The cell's measured runs (succeeded, or ran to the end with a failed threshold), valid or not. */
export const measuredRuns = (runs: CellRun[]) =>
  runs.filter((r) => isMeasuredRunStatus(r.status) && r.summary);

/**
 * Statistics use valid measured runs only: a failed or canceled run measured something else, and
 * an invalid one (`splitValidRuns`: the load was not offered, samples were lost) did not measure
 * the load asked for.
 */
export const usable = (runs: CellRun[]) => splitValidRuns(measuredRuns(runs)).valid;

/** The cell's measured runs left out as invalid, with why: counted and named, never dropped silently. */
export const invalidRunsOf = (runs: CellRun[]): InvalidRun[] =>
  splitValidRuns(measuredRuns(runs)).invalid;

/**
 * Runs of the cell that crashed (failed, timed out, aborted by the system): never dropped
 * silently, they count toward the share that makes a cell incomplete (`incompleteReason`).
 */
export const crashedCount = (runs: CellRun[]) =>
  runs.filter((r) => isCrashedRunStatus(r.status)).length;

/**
 * Thresholds the cell's measured runs failed, each with its run: an invalid run's too, since a
 * failed threshold is the user's own rule about the run as it ran, and is never hidden.
 */
export const failedThresholdsOf = (runs: CellRun[]): FailedThreshold[] =>
  measuredRuns(runs).flatMap((r) =>
    (r.thresholdResults ?? [])
      .filter((t) => !t.pass)
      .map((t) => ({ runId: r.id, metric: t.metric, expr: t.expr, observed: t.observed })),
  );

type Verdicts = Awaited<ReturnType<typeof cellVerdicts>>;

/** What a gate compared a cell with: the comparison's metrics, or none yet. */
export interface CellJudged {
  metrics: Verdicts['metrics'];
  scriptMetrics: Verdicts['scriptMetrics'];
  /** the reference's valid runs; null when the cell has no reference at all */
  referenceRuns: number | null;
  referenceInvalid: readonly InvalidRun[];
}

/**
 * What a gate says of one cell besides what it was compared with, the same for a saved baseline
 * and a config of the same experiment: its runs' facts (valid, crashed, failed thresholds,
 * invalid) judged with the comparison by the one rule of `gateCellState`.
 */
export function judgeCell(c: Cell, judged: CellJudged) {
  const candidateRuns = usable(c.runs).length;
  const crashedRuns = crashedCount(c.runs);
  return {
    candidateRuns,
    crashedRuns,
    ...gateCellState({
      metrics: judged.metrics,
      failedThresholds: failedThresholdsOf(c.runs),
      baselineRuns: judged.referenceRuns,
      candidateRuns,
      crashedRuns,
      invalidBaseline: judged.referenceInvalid,
      invalidCandidate: invalidRunsOf(c.runs),
    }),
    metrics: judged.metrics,
    scriptMetrics: judged.scriptMetrics,
  };
}

/**
 * A gate's row for a cell with runs to compare: the cell against `reference` through the compare
 * service (`cellVerdicts`), judged by `judgeCell`, with `baseline` (what the row names as its
 * reference) given the reference's valid runs. `referenceInvalid` replaces the comparison's own
 * list where the caller split the reference's runs itself.
 */
export async function compareCell<B extends object>(
  db: Db,
  teamId: string,
  experimentId: string,
  c: Cell & { poolConfig: { id: string; name: string }; scenario: { id: string; name: string } },
  reference: CompareItem,
  baseline: B,
  gate: {
    metrics: readonly TestedRunMetricKey[] | undefined;
    window: { from: number; to: number } | null;
  },
  referenceInvalid?: readonly InvalidRun[],
) {
  const candidate: CompareItem = {
    kind: 'cell',
    experimentId,
    poolConfigId: c.poolConfig.id,
    scenarioId: c.scenario.id,
  };
  const cmp = await cellVerdicts(db, teamId, reference, candidate, gate.metrics, gate.window);
  return {
    poolConfig: c.poolConfig,
    scenario: c.scenario,
    baseline: { ...baseline, runs: cmp.referenceRuns },
    ...judgeCell(c, referenceInvalid ? { ...cmp, referenceInvalid } : cmp),
  };
}

/** The tested metrics a gate's verdict rests on: those asked for, else all of them. */
export const gatedMetricKeys = (gateMetrics?: readonly TestedRunMetricKey[]) =>
  gateMetrics
    ? TESTED_RUN_METRIC_KEYS.filter((k) => gateMetrics.includes(k))
    : [...TESTED_RUN_METRIC_KEYS];
