/** Shared by the compare view (client) and the server's series, bands and exports. */
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

/** One band point: the median across a config's repeats and their min and max. */
export type Band = { med: number; min: number; max: number } | null;
export interface SeriesPointOut {
  second: number;
  /** one entry per group, in group order */
  values: Band[];
}
