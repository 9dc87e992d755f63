import { changePoints, runMetric, type ChangePointOptions } from '@poolbench/stats';
import type { CellFiring, HistoryMetric } from './cell-history';

/** A firing as a change point names it. */
export type FiringRef = Pick<
  CellFiring,
  'experimentId' | 'name' | 'createdAt' | 'commit' | 'branch'
>;

export interface HistoryChangePoint {
  metric: HistoryMetric;
  /** the last firing before the change and the first after it */
  before: FiringRef;
  after: FiringRef;
  /** firings on either side that the change point's test used */
  firingsBefore: number;
  firingsAfter: number;
  /** the level on either side (mean of the firings' medians) */
  meanBefore: number;
  meanAfter: number;
  /** relative change of the mean (after / before − 1) */
  change: number;
  /** the change as a ratio, Hodges–Lehmann on log values with its 95 % interval; null when a value is not positive */
  interval: { estimate: number; lower: number; upper: number } | null;
  pValue: number;
  /** worse or better for this metric (latency and errors up, throughput down: a regression) */
  kind: 'regression' | 'improvement';
}

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
): HistoryChangePoint[] {
  const out: HistoryChangePoint[] = [];
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
