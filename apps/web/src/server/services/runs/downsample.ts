import {
  SERIES_COUNT_FIELDS,
  SERIES_GAUGE_FIELDS,
  SERIES_LATENCY_FIELDS,
  SERIES_RESOURCE_FIELDS,
  type SeriesPoint,
} from '@poolbench/contracts';

type NumKey = {
  [K in keyof SeriesPoint]-?: Exclude<SeriesPoint[K], undefined> extends number | null ? K : never;
}[keyof SeriesPoint];

/** Every number a chart point has: the load side's counts, gauges and latencies, then the resources. */
const NUM_KEYS: readonly NumKey[] = [
  ...SERIES_COUNT_FIELDS,
  ...SERIES_GAUGE_FIELDS,
  ...SERIES_LATENCY_FIELDS,
  ...SERIES_RESOURCE_FIELDS,
];

function pick(
  bucket: SeriesPoint[],
  key: NumKey,
  f: (a: number, b: number) => number,
): number | null {
  let out: number | null = null;
  for (const p of bucket) {
    const v = p[key];
    if (v === null || v === undefined) continue;
    out = out === null ? v : f(out, v);
  }
  return out;
}

function mergeCounts(bucket: SeriesPoint[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const p of bucket)
    for (const [k, v] of Object.entries(p.statusCounts)) out[k] = (out[k] ?? 0) + v;
  // per-second average so the chart's y axis keeps its unit (per second)
  for (const k of Object.keys(out)) out[k] = Math.round(out[k]! / bucket.length);
  return out;
}

/**
 * Reduces a long run to at most `maxPoints` points without hiding extremes: each bucket of
 * consecutive seconds becomes two points, one with every field's minimum and one with its
 * maximum, so spikes and dips stay visible (nothing is truncated; every second lands in a bucket).
 */
/**
 * Points per series on the run page: charts are ~400 px wide, so more points than this add
 * main-thread time in the browser (measured in docs/benchmarks.md) without adding anything visible.
 */
export const RUN_CHART_MAX_POINTS = 300;

export function downsample(points: SeriesPoint[], maxPoints = RUN_CHART_MAX_POINTS): SeriesPoint[] {
  if (points.length <= maxPoints) return points;
  const buckets = Math.max(1, Math.floor(maxPoints / 2));
  const size = Math.ceil(points.length / buckets);
  const out: SeriesPoint[] = [];
  for (let i = 0; i < points.length; i += size) {
    const bucket = points.slice(i, i + size);
    const first = bucket[0]!;
    const lo = { ...first, statusCounts: mergeCounts(bucket) };
    const hi = {
      ...first,
      second: bucket[Math.floor((bucket.length - 1) / 2) + (bucket.length > 1 ? 1 : 0)]!.second,
      statusCounts: { ...lo.statusCounts },
    }; // a copy: a shared object makes superjson record references for every bucket
    for (const k of NUM_KEYS) {
      (lo as Record<NumKey, number | null>)[k] = pick(bucket, k, Math.min);
      (hi as Record<NumKey, number | null>)[k] = pick(bucket, k, Math.max);
    }
    out.push(lo, hi);
  }
  return out;
}
