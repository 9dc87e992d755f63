import { changePoints, runMetric, type ChangePointOptions } from '@poolbench/stats';

/** One firing (experiment) of a series, as a trend point names it. */
export interface SeriesFiring {
  experimentId: string;
  name: string;
  createdAt: Date;
  commit: string | null;
  branch: string | null;
}

export interface SeriesChangePoint<M extends string = string> {
  metric: M;
  /** the last firing before the change and the first after it */
  before: SeriesFiring;
  after: SeriesFiring;
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

/**
 * The change points of each metric of a series of firings (oldest first; a firing without a value
 * of a metric is left out of that metric's series), named by the firings on either side. Pure: the
 * callers (Trends, the REST route, schedules) pass the points a trend already has.
 */
export function seriesChangePoints<M extends string>(
  firings: ReadonlyArray<SeriesFiring & { values: Partial<Record<M, number | null>> }>,
  metrics: readonly M[],
  options: ChangePointOptions = {},
): SeriesChangePoint<M>[] {
  const out: SeriesChangePoint<M>[] = [];
  for (const metric of metrics) {
    const kept = firings.filter((f) => {
      const v = f.values[metric];
      return v !== null && v !== undefined && Number.isFinite(v);
    });
    const values = kept.map((f) => f.values[metric]!);
    const higherIsBetter = runMetric(metric)?.direction === 'higher-is-better';
    for (const cp of changePoints(values, options)) {
      const firing = (i: number): SeriesFiring => {
        const f = kept[i]!;
        return {
          experimentId: f.experimentId,
          name: f.name,
          createdAt: f.createdAt,
          commit: f.commit,
          branch: f.branch,
        };
      };
      const up = cp.after.mean > cp.before.mean;
      out.push({
        metric,
        before: firing(cp.index - 1),
        after: firing(cp.index),
        firingsBefore: cp.before.n,
        firingsAfter: cp.after.n,
        meanBefore: cp.before.mean,
        meanAfter: cp.after.mean,
        change: cp.change,
        interval: cp.shift,
        pValue: cp.pValue,
        kind: up === higherIsBetter ? 'improvement' : 'regression',
      });
    }
  }
  return out.sort((a, b) => a.after.createdAt.getTime() - b.after.createdAt.getTime());
}
