import type { Db } from '@poolbench/db';
import { runMetricRepeatsNeeded, runMetricValues } from '@poolbench/stats';
import { type RunMetricKey } from '@poolbench/contracts';
import type { Selection } from '~/lib/compare/selection';
import { comparisonNoiseFloors, type StoredNoiseFloor } from '@poolbench/runs';
import { comparedSummaries, groupComparisons, groupNoiseFloor } from './group-statistics';
import type { CompareGroup } from './load-groups';

export interface RepeatsNeededCell {
  /** the candidate's group key, as in the comparison's groups */
  groupKey: string;
  metric: RunMetricKey;
  /** repeats per side that would likely turn the inconclusive verdict into an answer; null: even 50 would not */
  repeatsPerSide: number | null;
}

// A single run has no spread to resample: every simulated experiment would repeat it exactly.
const MIN_VALUES = 2;

/**
 * For every candidate and every metric of the table whose verdict is inconclusive, how many repeats
 * per side would likely resolve it at the spread seen so far: a bootstrap power estimate
 * (runMetricRepeatsNeeded) over exactly the per-run values and options the verdict was tested
 * with, the window's values when the selection has one. Expensive (hundreds of simulated tests
 * per metric), which is why the compare view asks for it separately and only when it needs it.
 */
export async function buildRepeatsNeeded(
  db: Db,
  selection: Selection,
  groups: CompareGroup[],
  baselineIndex: number,
  floors: Map<string, StoredNoiseFloor>,
): Promise<RepeatsNeededCell[]> {
  const summaryOf = await comparedSummaries(db, groups, selection.window ?? null);
  const comparisons = groupComparisons(groups, baselineIndex, summaryOf, undefined, floors);
  const baseline = groups[baselineIndex]!;
  const baseGroup = { label: baseline.label, summaries: baseline.runs.map(summaryOf) };
  const cells: RepeatsNeededCell[] = [];
  for (const [gi, c] of comparisons.entries()) {
    if (!c) continue;
    const group = groups[gi]!;
    const candGroup = { label: group.label, summaries: group.runs.map(summaryOf) };
    for (const m of c.metrics) {
      if (
        m.verdict !== 'inconclusive' ||
        (selection.metrics && !selection.metrics.includes(m.def.key))
      )
        continue;
      if (
        runMetricValues(baseGroup, m.def).length < MIN_VALUES ||
        runMetricValues(candGroup, m.def).length < MIN_VALUES
      )
        continue;
      // one estimate takes up to ~0.2 s of CPU: let other requests in between them
      await new Promise((resolve) => setImmediate(resolve));
      cells.push({
        groupKey: group.key,
        metric: m.def.key,
        repeatsPerSide: runMetricRepeatsNeeded(
          baseGroup,
          candGroup,
          m.def,
          {},
          undefined,
          comparisonNoiseFloors([
            groupNoiseFloor(floors, baseline),
            groupNoiseFloor(floors, group),
          ]),
        ),
      });
    }
  }
  return cells;
}
