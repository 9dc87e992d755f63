import type { z } from 'zod';

/**
 * The per-second resource columns, defined once: what the sampler measures, what ResourceSample
 * stores (plus runId, second, instance, ts). Gauges (RSS, pool and database connections) are the
 * state at the end of the second; cpuPercent, poolWaitMs and the counters (poolAcquireTimeouts,
 * poolConnsCreated, dbNewConns, dbTooManyClients) cover the second (docs/metrics.md).
 */
export const RESOURCE_FIELDS = [
  'cpuPercent',
  'rssBytes',
  'poolTotal',
  'poolIdle',
  'poolInUse',
  'poolConstructing',
  'poolMax',
  'poolWaitCount',
  'poolWaitMs',
  'poolAcquireTimeouts',
  'poolConnsCreated',
  'dbActive',
  'dbIdle',
  'dbIdleInTx',
  'dbTotal',
  'dbNewConns',
  'dbTooManyClients',
  // the target's HTTP client pool towards its upstream (the lab target's blob store, seed 000)
  'upstreamOpen',
  'upstreamInUse',
  'upstreamMax',
  'upstreamWaitMs',
  'upstreamConnsCreated',
] as const;
export type ResourceField = (typeof RESOURCE_FIELDS)[number];

/** The resource fields the run charts draw (summed over instances). */
export const SERIES_RESOURCE_FIELDS = [
  'cpuPercent',
  'rssBytes',
  'poolInUse',
  'poolIdle',
  'poolTotal',
  'poolWaitCount',
  'poolWaitMs',
  'dbActive',
  'dbIdle',
  'dbTotal',
  'dbNewConns',
  'upstreamOpen',
  'upstreamInUse',
  'upstreamWaitMs',
] as const satisfies readonly ResourceField[];
/** Per-second k6 counts the charts draw (RunSecond columns). */
export const SERIES_COUNT_FIELDS = ['requests', 'failed', 'droppedIterations', 'vus'] as const;
/** Per-second k6 gauges that older rows lack (null): allocated VUs, k6's vus_max (RunSecond columns). */
export const SERIES_GAUGE_FIELDS = ['vusAllocated'] as const;
/** Per-second k6 latency statistics the charts draw, ms (RunSecond columns; null without requests). */
export const SERIES_LATENCY_FIELDS = [
  'p50Ms',
  'p95Ms',
  'p99Ms',
  'maxMs',
  'meanMs',
  'connectingP95Ms',
  'blockedP95Ms',
] as const;

/** A zod shape with the same schema for every key of a field list. */
export function fieldShape<K extends string, T extends z.ZodType>(
  keys: readonly K[],
  schema: T,
): { [P in K]: T } {
  return Object.fromEntries(keys.map((k) => [k, schema])) as { [P in K]: T };
}

type Num = number | bigint | null | undefined;
const toNum = (v: Num) => (v === null || v === undefined ? null : Number(v));

/** The load side of one second (a RunSecond row or its SQL projection). */
export type SeriesLoadRow = {
  second: number;
  statusCounts?: Record<string, number> | null;
} & Record<(typeof SERIES_COUNT_FIELDS)[number], number> &
  Partial<
    Record<
      (typeof SERIES_LATENCY_FIELDS)[number] | (typeof SERIES_GAUGE_FIELDS)[number],
      number | null
    >
  >;
/** The summed resource side of the same second (sampler row, ResourceSample row or SQL projection). */
export type SeriesResourceRow = Partial<Record<(typeof SERIES_RESOURCE_FIELDS)[number], Num>>;

/** One chart point from a second's load row and its summed resource row (null fields when absent). */
export function seriesPointOf(load: SeriesLoadRow, resource: SeriesResourceRow | null | undefined) {
  const point: Record<string, unknown> = {
    second: load.second,
    statusCounts: load.statusCounts ?? {},
  };
  for (const k of SERIES_COUNT_FIELDS) point[k] = load[k];
  for (const k of SERIES_LATENCY_FIELDS) point[k] = load[k] ?? null;
  for (const k of SERIES_GAUGE_FIELDS) point[k] = load[k] ?? null;
  for (const k of SERIES_RESOURCE_FIELDS) point[k] = toNum(resource?.[k]);
  return point;
}
