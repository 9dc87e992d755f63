import type { Db } from '@poolbench/db';
import {
  comparisonNoiseFloors,
  latestNoiseFloors,
  noiseFloorFits,
  noiseFloorKey,
  type StoredNoiseFloor,
} from '@poolbench/runs';
import { compareRunGroups, type GroupComparison, type RunSummary } from '@poolbench/stats';
import { type TestedRunMetricKey } from '@poolbench/contracts';
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
 * The calibrated noise floors a selection's comparison uses: the latest of each group's target ×
 * scenario, none when the selection asks for the default floors.
 */
export async function loadNoiseFloors(
  db: Db,
  teamId: string,
  groups: CompareGroup[],
  selection: { noiseFloor?: 'calibrated' | 'default' | null },
): Promise<Map<string, StoredNoiseFloor>> {
  if (selection.noiseFloor === 'default') return new Map();
  return latestNoiseFloors(db, teamId, groups);
}

/**
 * The calibration whose noise floor applies to a group: its target × scenario's latest, unless
 * the group's runs recorded another machine or build than the calibration's (`noiseFloorFits`).
 */
export function groupNoiseFloor(
  floors: ReadonlyMap<string, StoredNoiseFloor>,
  g: Pick<CompareGroup, 'targetId' | 'scenarioId' | 'runs'>,
): StoredNoiseFloor | undefined {
  const f = g.scenarioId ? floors.get(noiseFloorKey(g.targetId, g.scenarioId)) : undefined;
  return f &&
    noiseFloorFits(
      f,
      g.runs.map((r) => r.environment),
    )
    ? f
    : undefined;
}

/**
 * Every group against the baseline, one value per run per metric (null for the baseline itself).
 * The table's verdicts and the repeats estimates both come from here, so they test the same thing.
 * `floors`: calibrated noise floors by target × scenario; a pair uses the larger of its two.
 */
export function groupComparisons(
  groups: CompareGroup[],
  baselineIndex: number,
  summaryOf: (run: GroupRun) => RunSummary | null,
  gateMetrics?: readonly TestedRunMetricKey[],
  floors: ReadonlyMap<string, StoredNoiseFloor> = new Map(),
): Array<GroupComparison | null> {
  const baseline = groups[baselineIndex]!;
  return groups.map((g, gi) =>
    gi === baselineIndex
      ? null
      : compareRunGroups(
          { label: baseline.label, summaries: baseline.runs.map(summaryOf) },
          { label: g.label, summaries: g.runs.map(summaryOf) },
          {},
          {
            metrics: gateMetrics,
            noiseFloors: comparisonNoiseFloors([
              groupNoiseFloor(floors, baseline),
              groupNoiseFloor(floors, g),
            ]),
          },
        ),
  );
}
