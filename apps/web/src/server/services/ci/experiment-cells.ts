import { parseRun, type Db } from '@poolbench/db';
import type { FailedThreshold, RunSummary } from '@poolbench/stats';
import {
  isCrashedRunStatus,
  isMeasuredRunStatus,
  TERMINAL_RUN_STATUSES,
} from '@poolbench/scenarios';
import { NotFoundError } from '../errors';

export interface CellRun {
  id: string;
  status: string;
  summary: RunSummary | null;
  thresholdResults:
    { metric: string; expr: string; observed: number | null; pass: boolean }[] | null;
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
      poolConfigs: {
        orderBy: { position: 'asc' },
        select: { poolConfig: { select: { id: true, name: true } } },
      },
      scenarios: {
        orderBy: { position: 'asc' },
        select: { scenario: { select: { id: true, name: true } } },
      },
      runs: {
        orderBy: { sequence: 'asc' },
        select: {
          id: true,
          status: true,
          poolConfigId: true,
          scenarioId: true,
          summary: true,
          thresholdResults: true,
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
          })),
      });
    }
  }
  const finished = e.runs.every((r) => TERMINAL_RUN_STATUSES.includes(r.status));
  return { id: e.id, status: e.status, targetId: e.targetId, finished, cells };
}

/**
 * Statistics use measured runs only (succeeded, or ran to the end with a failed threshold): a failed
 * or canceled run measured something else.
 */
export const usable = (runs: CellRun[]) =>
  runs.filter((r) => isMeasuredRunStatus(r.status) && r.summary);

/**
 * Runs of the cell that crashed (failed, timed out, aborted by the system): never dropped
 * silently, they count toward the share that makes a cell incomplete (`incompleteReason`).
 */
export const crashedCount = (runs: CellRun[]) =>
  runs.filter((r) => isCrashedRunStatus(r.status)).length;

/** Thresholds the cell's measured runs failed, each with its run. */
export const failedThresholdsOf = (runs: CellRun[]): FailedThreshold[] =>
  usable(runs).flatMap((r) =>
    (r.thresholdResults ?? [])
      .filter((t) => !t.pass)
      .map((t) => ({ runId: r.id, metric: t.metric, expr: t.expr, observed: t.observed })),
  );
