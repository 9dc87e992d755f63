import {
  cellState,
  incompleteReason,
  loadNotTakenReason,
  type FailedThreshold,
} from './gate-outcome';
import type { InvalidRun } from './run-validity';

/** What a CI cell's state reads of each compared metric. */
export interface GateCellMetric {
  verdict: string;
  suspected: boolean;
  primary?: boolean;
  noiseWarning?: string | null;
}

/**
 * One CI cell's state from its metrics' verdicts, its failed thresholds and its run counts
 * (`baselineRuns` null: nothing to compare with, so never incomplete for it). The Holm family is
 * the cell's compared primary metrics; a primary metric's noise warning makes it incomplete. The
 * run counts are of valid runs; the invalid ones of each side are named in `incomplete` where they
 * make the cell incomplete, and always in `invalidRuns`; a candidate that could not take the load
 * its baseline took is a regression with the reason in `loadNotTaken` (`loadNotTakenReason`).
 */
export function gateCellState(c: {
  metrics: readonly GateCellMetric[];
  failedThresholds: FailedThreshold[];
  baselineRuns: number | null;
  candidateRuns: number;
  crashedRuns: number;
  invalidBaseline?: readonly InvalidRun[];
  invalidCandidate?: readonly InvalidRun[];
}) {
  const invalidBaseline = c.invalidBaseline ?? [];
  const invalidCandidate = c.invalidCandidate ?? [];
  const counts =
    c.baselineRuns === null
      ? null
      : {
          baselineRuns: c.baselineRuns,
          candidateRuns: c.candidateRuns,
          crashedRuns: c.crashedRuns,
          invalidBaseline,
          invalidCandidate,
        };
  // a candidate that fell behind the load its baseline took is judged: a regression
  const loadNotTaken = counts ? loadNotTakenReason(counts) : null;
  const incomplete =
    c.baselineRuns === null || loadNotTaken
      ? null
      : incompleteReason({
          baselineRuns: c.baselineRuns,
          candidateRuns: c.candidateRuns,
          crashedRuns: c.crashedRuns,
          invalidBaseline,
          invalidCandidate,
          primaryMetrics:
            c.metrics.length > 0 ? c.metrics.filter((m) => m.primary !== false).length : undefined,
          noiseWarnings: c.metrics.flatMap((m) =>
            m.primary !== false && m.noiseWarning ? [m.noiseWarning] : [],
          ),
        });
  const state = cellState({
    metrics: c.metrics,
    failedThresholds: c.failedThresholds,
    incomplete,
    loadNotTaken,
  });
  return {
    state,
    regression: state === 'regression',
    incomplete,
    loadNotTaken,
    failedThresholds: c.failedThresholds,
    invalidRuns: [
      ...invalidBaseline.map((r) => ({ ...r, side: 'baseline' as const })),
      ...invalidCandidate.map((r) => ({ ...r, side: 'candidate' as const })),
    ],
  };
}
