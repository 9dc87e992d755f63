import type { Db } from '@poolbench/db';
import {
  compareRunGroups,
  type GroupComparison,
  type RunSummary,
  type TestedRunMetricKey,
} from '@poolbench/stats';
import type { CompareGroup, GroupRun } from './load-groups';
import { windowSummaries } from './window-summaries';

/**
 * Each run's summary as a comparison's statistics read it: the whole run, or with a window that
 * window of each run, recomputed from its rows (`durations`: the window's latency histograms when
 * the caller already has them).
 */
export async function comparedSummaries(
  db: Db,
  groups: CompareGroup[],
  window: { from: number; to: number } | null,
  durations?: Parameters<typeof windowSummaries>[3],
): Promise<(run: GroupRun) => RunSummary | null> {
  const windowed = window
    ? await windowSummaries(
        db,
        groups.flatMap((g) => g.runs),
        window,
        durations,
      )
    : null;
  return (run) => (windowed ? (windowed.get(run.id) ?? null) : run.summary);
}

/**
 * Every group against the baseline, one value per run per metric (null for the baseline itself).
 * The table's verdicts and the repeats estimates both come from here, so they test the same thing.
 */
export function groupComparisons(
  groups: CompareGroup[],
  baselineIndex: number,
  summaryOf: (run: GroupRun) => RunSummary | null,
  gateMetrics?: readonly TestedRunMetricKey[],
): Array<GroupComparison | null> {
  const baseline = groups[baselineIndex]!;
  return groups.map((g, gi) =>
    gi === baselineIndex
      ? null
      : compareRunGroups(
          { label: baseline.label, summaries: baseline.runs.map(summaryOf) },
          { label: g.label, summaries: g.runs.map(summaryOf) },
          {},
          { metrics: gateMetrics },
        ),
  );
}
