import type { Db } from '@poolbench/db';
import {
  cellState,
  incompleteReason,
  loadNotTakenReason,
  type FailedThreshold,
  type InvalidRun,
  type TestedRunMetricKey,
} from '@poolbench/stats';
import { buildComparison } from '../compare/build-comparison';
import type { CompareItem } from '~/lib/compare/selection';

/** The level every comparison's interval is asked for (two-sided, α = 0.05). */
const NOMINAL_CONFIDENCE = 0.95;

/**
 * Verdicts per tested metric of one candidate against one reference (a baseline's runs, or another
 * pool config of the same experiment), through the compare service the UI uses: one value per run,
 * Mann-Whitney U, Hodges-Lehmann interval, practical floor, p adjusted across the gated metrics.
 */
export async function cellVerdicts(
  db: Db,
  teamId: string,
  reference: CompareItem,
  candidate: CompareItem,
  gateMetrics: readonly TestedRunMetricKey[] | undefined,
  window: { from: number; to: number } | null,
) {
  const cmp = await buildComparison(
    db,
    teamId,
    { items: [reference, candidate], baseline: 0, window },
    { maxPoints: 1, ...(gateMetrics ? { gateMetrics } : {}) },
  );
  const metrics = cmp.rows.flatMap((row) => {
    const m = row.comparisons[1];
    if (!row.tested || !m?.verdict) return [];
    return [
      {
        key: row.key,
        label: row.label,
        unit: row.unit,
        direction: row.direction,
        verdict: m.verdict,
        suspected: m.suspectedWorse,
        primary: m.primary,
        baselineMedian: row.cells[0]?.median ?? null,
        candidateMedian: m.median,
        changePercent: m.changePercent,
        // /api/v1 answered the requested level here from its first release: a field keeps its
        // meaning within v1, so the coverage the interval really has (90 % with 3 vs 3 runs) is
        // the added achievedConfidence
        confidence: NOMINAL_CONFIDENCE,
        achievedConfidence: m.achievedConfidence ?? NOMINAL_CONFIDENCE,
        pValue: m.pValue,
        insufficient: m.insufficient,
        lowRequests: m.lowRequests,
        noiseFloor: m.noiseFloor,
        noiseWarning: m.noiseWarning,
        reason: m.reason ?? '',
      },
    ];
  });
  return {
    referenceRuns: cmp.groups[0]?.repeats ?? 0,
    referenceInvalid: cmp.groups[0]?.invalidRuns ?? [],
    metrics,
  };
}

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
