import { changePoints, runMetric, type ChangePointOptions } from '@poolbench/stats';
import type { ChangePoint, FiringRef, HistoryMetric } from '@poolbench/contracts';
import type { CellFiring } from './cell-history';

const ref = (f: CellFiring): FiringRef => ({
  experimentId: f.experimentId,
  name: f.name,
  createdAt: f.createdAt,
  commit: f.commit,
  branch: f.branch,
});

/**
 * The change points of each metric of a history (`cellHistory`, oldest first; a firing without a
 * value of a metric is left out of that metric's series), named by the firings on either side,
 * in the order their first changed firing ran.
 */
export function historyChangePoints(
  firings: readonly CellFiring[],
  metrics: readonly HistoryMetric[],
  options: ChangePointOptions = {},
): ChangePoint[] {
  const out: ChangePoint[] = [];
  for (const metric of metrics) {
    const kept = firings.filter((f) => f.values[metric] !== null);
    const higherIsBetter = runMetric(metric)?.direction === 'higher-is-better';
    for (const cp of changePoints(
      kept.map((f) => f.values[metric]!),
      options,
    )) {
      out.push({
        metric,
        before: ref(kept[cp.index - 1]!),
        after: ref(kept[cp.index]!),
        firingsBefore: cp.before.n,
        firingsAfter: cp.after.n,
        meanBefore: cp.before.mean,
        meanAfter: cp.after.mean,
        change: cp.change,
        interval: cp.shift,
        pValue: cp.pValue,
        kind: cp.after.mean > cp.before.mean === higherIsBetter ? 'improvement' : 'regression',
      });
    }
  }
  return out.sort(
    (a, b) =>
      a.after.createdAt.getTime() - b.after.createdAt.getTime() || a.metric.localeCompare(b.metric),
  );
}
