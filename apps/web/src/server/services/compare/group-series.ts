import { secondsTsBounds, type Db } from '@poolbench/db';

/** Per-second metrics overlaid in the compare charts (and exported as CSV/JSON). */
export const SERIES_METRICS = [
  { key: 'rps', label: 'Throughput', unit: 'req/s' },
  { key: 'p50Ms', label: 'Latency p50', unit: 'ms' },
  { key: 'p95Ms', label: 'Latency p95', unit: 'ms' },
  { key: 'p99Ms', label: 'Latency p99', unit: 'ms' },
  { key: 'errorPct', label: 'Errors', unit: '%' },
  { key: 'connectingP95Ms', label: 'Connection set-up p95', unit: 'ms' },
  { key: 'cpuPercent', label: 'Target CPU', unit: '%' },
  { key: 'rssMiB', label: 'Target RSS', unit: 'MiB' },
  { key: 'poolInUse', label: 'Pool in use', unit: 'conns' },
  { key: 'poolWaitMs', label: 'Pool wait', unit: 'ms' },
  // the database's own count of the target's connections (pg_stat_activity), as on the run page
  { key: 'dbTotal', label: 'Database connections', unit: 'conns' },
  // the target's HTTP client pool towards its upstream (seed 000); only drawn when a target reports it
  { key: 'upstreamInUse', label: 'Upstream HTTP pool in use', unit: 'conns' },
  { key: 'upstreamWaitMs', label: 'Upstream connection wait', unit: 'ms' },
] as const;
export type SeriesMetricKey = (typeof SERIES_METRICS)[number]['key'];

export interface SecondRow {
  runId: string;
  second: number;
  requests: number;
  failed: number;
  p50Ms: number | null;
  p95Ms: number | null;
  p99Ms: number | null;
  connectingP95Ms: number | null;
  cpuPercent: number | null;
  rssBytes: bigint | null;
  poolInUse: number | null;
  poolWaitMs: number | null;
}

/** One band point: the median across a config's repeats and their min and max. */
export type Band = { med: number; min: number; max: number } | null;
export interface SeriesPointOut {
  second: number;
  /** one entry per group, in group order */
  values: Band[];
}

export async function readSeconds(db: Db, runIds: string[], window: { from: number; to: number } | null): Promise<SecondRow[]> {
  if (runIds.length === 0) return [];
  const from = window?.from ?? 0;
  const to = window?.to ?? 2_147_483_647;
  const ts = await secondsTsBounds(db, runIds);
  return db.$queryRaw<SecondRow[]>`
    SELECT s."runId", s.second, s.requests, s.failed, s."p50Ms", s."p95Ms", s."p99Ms", s."connectingP95Ms",
           r."cpuPercent", r."rssBytes", r."poolInUse", r."poolWaitMs"
      FROM "RunSecond" s
      LEFT JOIN "ResourceSample" r ON r."runId" = s."runId" AND r.second = s.second AND r.instance = -1 AND r.ts >= ${ts.from} AND r.ts < ${ts.to}
     WHERE s."runId" = ANY(${runIds}::text[]) AND s.segment = 'all' AND s.second >= ${from} AND s.second < ${to} AND s.ts >= ${ts.from} AND s.ts < ${ts.to}
     ORDER BY s.second`;
}
